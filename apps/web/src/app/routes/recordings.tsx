import { RecordingsPage } from "#web/features/recommendations/components/recordings-page";

/** /Recordings: the Recommended Recordings page (SPEC §2.9). */
export function Component() {
  return <RecordingsPage />;
}
