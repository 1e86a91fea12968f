import type { TeamReportRow } from "#web/lib/api-types";
import { toCsv } from "#web/lib/csv";

/** The CSV columns of the Team Engagement Report: the table's, then the expanded row's. */
const REPORT_CSV_HEADER = [
  "Username",
  "Tasks",
  "Completed",
  "Submissions (%)",
  "Audio minutes",
  "Payment (UGX)",
  "Approved recorded tasks",
  "Translated scripts",
  "Approved transcripts",
  "Pending transcripts",
  "Rejected transcripts",
  "Approved recordings",
  "Pending recordings",
  "Rejected recordings",
  "Audio minutes of approved transcripts",
  "Audio minutes of approved recordings",
  "Approved, duration not known yet",
] as const;

/**
 * The Team Engagement Report (SPEC §2.6) as CSV: a header, then one line per row; % and audio
 * minutes with 2 decimals (the minutes from the exact figure), payment in whole UGX.
 */
export function reportCsv(rows: readonly TeamReportRow[]): string {
  return toCsv([
    REPORT_CSV_HEADER,
    ...rows.map((r) => [
      r.username,
      r.tasks,
      r.completed,
      r.submissions.toFixed(2),
      r.audioMinutes.toFixed(2),
      r.payment,
      r.recordedTasks,
      r.translatedScripts,
      r.approvedTranscripts,
      r.pendingTranscripts,
      r.rejectedTranscripts,
      r.approvedRecordings,
      r.pendingRecordings,
      r.rejectedRecordings,
      r.transcriptAudioMinutes.toFixed(2),
      r.recordingAudioMinutes.toFixed(2),
      r.approvedWithoutDuration,
    ]),
  ]);
}
