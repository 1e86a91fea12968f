import { generatePath, Link } from "react-router";
import { paths } from "#web/config/paths";
import type { Participant } from "#web/features/participants/lib/participant-types";
import { ageText, latestScore, sexText } from "#web/features/participants/lib/participant-words";
import { ConsentBadge } from "./consent-badge";
import { EditParticipantButton } from "./edit-participant-button";
import "#web/features/participants/participants.css";

/** The columns of the Participants table, in order. */
export const PARTICIPANT_COLUMNS = [
  "Code",
  "Group",
  "Sex",
  "Age today",
  "Education (years)",
  "MMSE (latest)",
  "Consent",
  "Audios",
  "Action",
] as const;

/**
 * One participant in the Participants table (decision 024): the code linking to their page, group,
 * sex, age today ('72 y 3 m'), years of education, the latest MMSE with its day, consent in words
 * with its day, how many audios are linked, and 'Edit' opening the side panel.
 */
export function ParticipantRow({ participant: p }: { participant: Participant }) {
  const mmse = latestScore(p.scores, "MMSE");
  const codeId = `participant-${p.id}-code`;
  return (
    <tr data-participant-id={p.id}>
      <th scope="row" id={codeId} className="participant-code">
        <Link to={generatePath(paths.participant, { participantId: p.id })}>{p.code}</Link>
      </th>
      <td>
        <span className={`category-chip category-${p.group.toLowerCase()}`}>{p.group}</span>
      </td>
      <td>{sexText(p.sex)}</td>
      <td className="nowrap">{ageText(p.ageMonthsToday)}</td>
      <td className="num">{p.educationYears ?? "—"}</td>
      <td>
        {mmse ? (
          <span className="participant-score">
            {mmse.score}
            {mmse.takenOn ? (
              <span className="muted participant-consent-day">
                <span className="sr-only">on </span>
                <time dateTime={mmse.takenOn}>{mmse.takenOn}</time>
              </span>
            ) : null}
          </span>
        ) : (
          "—"
        )}
      </td>
      <td>
        <ConsentBadge status={p.consentStatus} day={p.consentDate} />
      </td>
      <td className="num">{p.audioCount}</td>
      <td>
        <EditParticipantButton participant={p} className="btn btn-sm" describedBy={codeId}>
          Edit
        </EditParticipantButton>
      </td>
    </tr>
  );
}
