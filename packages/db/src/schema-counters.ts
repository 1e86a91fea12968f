import type { ColumnType } from "kysely";
import type { RecordingStatus, TranscriptStatus } from "./statuses";

/**
 * The tables the database keeps for the app's own bookkeeping, written by triggers or timers and
 * never by a user's change: the Dashboard's per-assignee counters (decision 011), the list counts
 * and the page anchors of deep list pages (decision 030). Part of `DB` (schema.ts).
 */

/** bigint columns come back as strings from pg; we convert at the repository edge. */
type BigIntColumn = ColumnType<string, number | bigint | string, number | bigint | string>;

/**
 * Each assignee's work as it is now (migration 20261201000000_assignee_work_counts, decision 011):
 * written only by the triggers on tasks and submissions, read by the Dashboard's figures.
 */
export interface AssigneeWorkCountsTable {
  assigneeId: string;
  tasks: number;
  completed: number;
  /** Tasks whose submission holds a transcript or a recording. */
  withWork: number;
  pendingTranscripts: number;
  approvedTranscripts: number;
  rejectedTranscripts: number;
  pendingRecordings: number;
  approvedRecordings: number;
  rejectedRecordings: number;
  /** Milliseconds of audio of their tasks with an Approved transcript (durations known; migration 20261207000000). */
  approvedTranscriptMs: BigIntColumn;
  /** Milliseconds of their Approved recordings (durations known). */
  approvedRecordingMs: BigIntColumn;
  /** Approved transcripts and recordings whose duration is not known (they count 0 ms). */
  approvedWithoutDuration: number;
}

/**
 * Each assignee's reviews per UTC day of their review time (completed: by the later of the two),
 * kept like assignee_work_counts.
 */
export interface AssigneeReviewDaysTable {
  /** The UTC day (a `date`: the drivers parse it to a Date; `day::text` reads YYYY-MM-DD). */
  day: ColumnType<Date, string, string>;
  assigneeId: string;
  completed: number;
  approvedTranscripts: number;
  rejectedTranscripts: number;
  approvedRecordings: number;
  rejectedRecordings: number;
  approvedTranscriptMs: BigIntColumn;
  approvedRecordingMs: BigIntColumn;
  approvedWithoutDuration: number;
}

/** What assignee_work_counts and assignee_review_days count for each task (kept like them). */
export interface AssigneeWorkTasksTable {
  taskId: string;
  assigneeId: string;
  complete: boolean;
  /** The submission's statuses and review times; null statuses: no submission. */
  transcript: TranscriptStatus | null;
  recording: RecordingStatus | null;
  transcriptAt: Date | null;
  recordingAt: Date | null;
  /** The audio's duration in whole ms (null: not known), as last counted. */
  audioMs: ColumnType<string | null, number | string | null, number | string | null>;
  /** The duration of the submission's recording in whole ms (null: none, or not known), as last counted. */
  recordingMs: ColumnType<string | null, number | string | null, number | string | null>;
}

/**
 * Signed deltas of exact list counts (decision 016): a key's count is the sum of its rows' n.
 * Written by triggers and compact_list_counts() only.
 */
export interface ListCountsTable {
  key: string;
  n: BigIntColumn;
}

/**
 * The sort key of every 1,000th row of an anchored list, counted from the oldest (decision 030):
 * `rank` rows of list `list` sort before (`at`, `id`). Written by rebuildPageAnchors only.
 */
export interface PageAnchorTable {
  list: string;
  rank: BigIntColumn;
  at: Date;
  /** page_anchor_id(id): the row's id as text in its own order. */
  id: string;
}

/**
 * Where a list's positions may have moved since its anchors were built (decision 030): the smallest
 * sort key a statement inserted, deleted or moved. Written by triggers; deleted by rebuildPageAnchors.
 */
export interface PageAnchorChangeTable {
  list: string;
  at: Date;
  id: string;
}
