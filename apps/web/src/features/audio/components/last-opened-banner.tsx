import type { AudioDetail } from "#web/lib/api-types";
import { useSession } from "#web/hooks/use-session";
import { lastOpenedText } from "#web/features/audio/lib/last-opened";

/** SPEC §2.11: for an Admin, who opened the audio last and when; nothing otherwise. */
export function LastOpenedBanner({ lastOpened }: { lastOpened: AudioDetail["lastOpened"] }) {
  const session = useSession();
  if (session?.role !== "Admin" || !lastOpened) return null;
  return (
    <p className="banner" data-testid="last-opened-banner">
      {lastOpenedText(lastOpened.username, lastOpened.at)}
    </p>
  );
}
