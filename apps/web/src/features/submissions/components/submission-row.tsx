import { Duration } from "@tafsiri/ui/duration";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import type { SubmissionRow as Row } from "#web/lib/api-types";
import { recordingApprovalLabel, transcriptApprovalLabel } from "#web/lib/approval-labels";
import { displayTime, longTime } from "#web/lib/dates";
import { SubmissionComments } from "./submission-comments";

/** The number of columns of the Submissions table (SPEC §2.7), for the expanded row. */
export const SUBMISSION_COLUMNS = [
  "Last updated",
  "Staff",
  "Audio Name",
  "Duration",
  "Translation",
  "Script Status",
  "Recorded Audio",
  "Audio Status",
  "Action",
  "Comments",
] as const;

/** Present or missing (SPEC §2.7 Translation / Recorded Audio icons), said in words to assistive technology. */
function Presence({ present, what }: { present: boolean; what: string }) {
  const label = present ? `${what} present` : `No ${what.toLowerCase()}`;
  return (
    <span className={present ? "presence presence-yes" : "presence presence-no"} title={label}>
      <span aria-hidden="true">{present ? "✓" : "✕"}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * One row of the Submissions table (SPEC §2.7), each cell labelled with its column (shown beside
 * the value when narrow screens stack the row, WCAG 1.4.10), and, when `expanded`, the row below it listing
 * the submission's comments. 'Go to task' opens the audio; the Comments button toggles the list.
 * With `selection` (admins, decision 025 bulk review) the row starts with a checkbox 'Select
 * {filename}'; Shift held while ticking it selects the range from the last row ticked.
 */
export function SubmissionRow({
  row,
  expanded,
  onToggle,
  onOpen,
  selection,
}: {
  row: Row;
  expanded: boolean;
  onToggle: () => void;
  onOpen: (audioId: string) => void;
  selection?: { selected: boolean; onSelect: (checked: boolean, range: boolean) => void };
}) {
  const commentsId = `submission-comments-${row.id}`;
  return (
    <>
      <tr className={selection?.selected ? "row-selected" : undefined}>
        {selection && (
          <td className="table-check select-cell" data-label="Select">
            <input
              type="checkbox"
              aria-label={`Select ${row.filename}`}
              checked={selection.selected}
              onChange={(event) =>
                selection.onSelect(event.target.checked, (event.nativeEvent as MouseEvent).shiftKey === true)
              }
            />
          </td>
        )}
        <td data-label={SUBMISSION_COLUMNS[0]}>
          <UpdatedAt at={row.updatedAt} />
        </td>
        <td data-label={SUBMISSION_COLUMNS[1]}>{row.staff?.username ?? "Unknown User"}</td>
        <td data-label={SUBMISSION_COLUMNS[2]} className="submission-audio">
          {row.filename}
        </td>
        <td data-label={SUBMISSION_COLUMNS[3]}>
          <Duration seconds={row.durationSeconds} />
        </td>
        <td data-label={SUBMISSION_COLUMNS[4]}>
          <Presence present={row.translationScript !== null} what="Transcript" />
        </td>
        <td data-label={SUBMISSION_COLUMNS[5]}>
          <StatusBadge status={row.transcriptStatus} label={transcriptApprovalLabel(row.transcriptStatus)} />
        </td>
        <td data-label={SUBMISSION_COLUMNS[6]}>
          <Presence present={row.recordedAudio !== null} what="Recording" />
        </td>
        <td data-label={SUBMISSION_COLUMNS[7]}>
          <StatusBadge
            status={row.recordingApprovalStatus}
            label={recordingApprovalLabel(row.recordingApprovalStatus)}
          />
        </td>
        <td data-label={SUBMISSION_COLUMNS[8]}>
          <button
            type="button"
            className="link-button"
            aria-label={`Go to task ${row.filename}`}
            onClick={() => onOpen(row.audioId)}
          >
            Go to task
          </button>
        </td>
        <td data-label={SUBMISSION_COLUMNS[9]}>
          <button
            type="button"
            className="btn btn-sm btn-ghost comments-toggle"
            aria-expanded={expanded}
            aria-controls={expanded ? commentsId : undefined}
            onClick={onToggle}
          >
            <svg className={expanded ? "chevron chevron-open" : "chevron"} viewBox="0 0 16 16" aria-hidden="true">
              <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" />
            </svg>
            {row.commentCount}
            <span className="sr-only">
              {row.commentCount === 1 ? " comment" : " comments"} on {row.filename}
            </span>
          </button>
        </td>
      </tr>
      {expanded && (
        <tr id={commentsId} className="submission-expanded">
          <td colSpan={SUBMISSION_COLUMNS.length + (selection ? 1 : 0)}>
            <SubmissionComments audioId={row.audioId} />
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * 'Last updated' in SPEC §9's long form ('November 23, 2026 at 4:54 PM'), which breaks only before
 * 'at' when the column is narrow, so the table keeps to the page's width.
 */
function UpdatedAt({ at }: { at: string }) {
  const [day, time] = longTime(at).split(" at ");
  return (
    <time className="updated-at" dateTime={at} title={displayTime(at).full}>
      <span className="nowrap">{day}</span> {time !== undefined && <span className="nowrap">at {time}</span>}
    </time>
  );
}
