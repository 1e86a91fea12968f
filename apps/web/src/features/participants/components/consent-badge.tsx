import type { ConsentStatus } from "@tafsiri/domain";
import { CONSENT_BADGES, CONSENT_LABELS } from "#web/features/participants/lib/participant-words";

/** A participant's consent in words ('Given', 'Withdrawn'…), coloured as a badge, with its day under it when known. */
export function ConsentBadge({ status, day }: { status: ConsentStatus; day: string | null }) {
  return (
    <span className="participant-consent">
      <span className={CONSENT_BADGES[status]}>{CONSENT_LABELS[status]}</span>
      {day && status !== "not_recorded" ? (
        <span className="muted participant-consent-day">
          <span className="sr-only">on </span>
          <time dateTime={day}>{day}</time>
        </span>
      ) : null}
    </span>
  );
}
