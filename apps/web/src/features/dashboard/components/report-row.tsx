import type { TeamReportRow } from "#web/lib/api-types";
import { formatCount, formatMinutes, formatPercent, formatUgx } from "#web/features/dashboard/lib/format";

/** The Team Engagement Report's columns (SPEC §2.6), the last holding each row's expand toggle. */
export const REPORT_COLUMNS = [
  "Username",
  "Tasks",
  "Completed",
  "Submissions (%)",
  "Audio minutes",
  "Payment (UGX)",
  "Details",
] as const;

/**
 * One row of the Team Engagement Report (with the audio minutes of approved work, one decimal)
 * and, when `expanded`, the row below it with the SPEC §2.6 details: completed tasks, approved
 * recorded tasks, translated scripts, the audio minutes of approved transcripts and of approved
 * recordings (and how many approved outputs have no known duration yet), and approved, pending
 * and rejected counts for transcripts and for recordings. `onToggle` flips `expanded`.
 */
export function ReportRow({
  row,
  expanded,
  onToggle,
}: {
  row: TeamReportRow;
  expanded: boolean;
  onToggle: () => void;
}) {
  const detailsId = `dash-report-details-${row.id}`;
  const reviewsId = `dash-report-reviews-${row.id}`;
  return (
    <>
      <tr>
        <th scope="row" className="dash-user">
          {row.username}
        </th>
        <td className="num">{formatCount(row.tasks)}</td>
        <td className="num">{formatCount(row.completed)}</td>
        <td className="num">{formatPercent(row.submissions)}</td>
        <td className="num">{formatMinutes(row.audioMinutes)}</td>
        <td className="num nowrap">{formatUgx(row.payment)}</td>
        <td>
          <button
            type="button"
            className="btn btn-sm btn-ghost dash-expand"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            onClick={onToggle}
          >
            <svg className={expanded ? "chevron chevron-open" : "chevron"} viewBox="0 0 16 16" aria-hidden="true">
              <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" />
            </svg>
            {expanded ? "Collapse" : "Expand"}
            <span className="sr-only"> details of {row.username}</span>
          </button>
        </td>
      </tr>
      {expanded && (
        <tr id={detailsId} className="dash-report-details">
          <td colSpan={REPORT_COLUMNS.length}>
            <div className="dash-details">
              <dl className="dash-details-list" aria-label={`Work of ${row.username}`}>
                <div>
                  <dt>Completed tasks</dt>
                  <dd>{formatCount(row.completed)}</dd>
                </div>
                <div>
                  <dt>Approved recorded tasks</dt>
                  <dd>{formatCount(row.recordedTasks)}</dd>
                </div>
                <div>
                  <dt>Translated scripts</dt>
                  <dd>{formatCount(row.translatedScripts)}</dd>
                </div>
                <div>
                  <dt>Audio minutes of approved transcripts</dt>
                  <dd>{formatMinutes(row.transcriptAudioMinutes)}</dd>
                </div>
                <div>
                  <dt>Audio minutes of approved recordings</dt>
                  <dd>{formatMinutes(row.recordingAudioMinutes)}</dd>
                </div>
                <div>
                  <dt>Approved, duration not known yet</dt>
                  <dd>{formatCount(row.approvedWithoutDuration)}</dd>
                </div>
              </dl>
              <table className="table dash-reviews" aria-labelledby={reviewsId}>
                <caption id={reviewsId} className="sr-only">
                  Reviews of {row.username}
                </caption>
                <thead>
                  <tr>
                    <td />
                    <th scope="col" className="num">
                      Approved
                    </th>
                    <th scope="col" className="num">
                      Pending
                    </th>
                    <th scope="col" className="num">
                      Rejected
                    </th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <th scope="row">Transcripts</th>
                    <td className="num">{formatCount(row.approvedTranscripts)}</td>
                    <td className="num">{formatCount(row.pendingTranscripts)}</td>
                    <td className="num">{formatCount(row.rejectedTranscripts)}</td>
                  </tr>
                  <tr>
                    <th scope="row">Recordings</th>
                    <td className="num">{formatCount(row.approvedRecordings)}</td>
                    <td className="num">{formatCount(row.pendingRecordings)}</td>
                    <td className="num">{formatCount(row.rejectedRecordings)}</td>
                  </tr>
                </tbody>
              </table>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
