import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { Executor } from "../connection";
import { withGenericPlan } from "../generic-plans";
import type { ApprovalStatus, Category, DB, RecordingStatus, TranscriptStatus } from "../schema";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";
import { anchoredPageIds, type AnchoredListKey } from "./page-anchors";
import { pageFromNearerEnd } from "./page-ends";
import { isOneOf, type Page } from "./pagination";

/**
 * The filters of the Submissions list (beyond SPEC §2.7): 'needsReview' = a transcript
 * or a recording Pending; 'approved' / 'rejected' = the submission's approval_status; 'all'.
 * They overlap: a rejected transcript with a pending recording is in 'needsReview' and 'rejected'.
 */
export const SUBMISSION_FILTERS = ["needsReview", "approved", "rejected", "all"] as const;
export type SubmissionFilter = (typeof SUBMISSION_FILTERS)[number];

/** How many submissions each filter holds, in the caller's scope. */
export type SubmissionCounts = Record<SubmissionFilter, number>;

/** A row of the Submissions table (SPEC §2.7). */
export interface SubmissionListRow {
  id: string;
  taskId: string;
  audioId: string;
  filename: string;
  category: Category;
  /** The audio's duration in seconds; null while unknown (not decoded yet, or decoding failed). */
  durationSeconds: number | null;
  /** The task's assignee (the 'Staff' column), null when the account is gone. */
  staff: { id: string; username: string } | null;
  submissionDate: Date;
  updatedAt: Date;
  translationScript: string | null;
  recordedAudio: string | null;
  transcriptStatus: TranscriptStatus;
  recordingApprovalStatus: RecordingStatus;
  approvalStatus: ApprovalStatus;
  recordedBy: string | null;
  commentCount: number;
}

type Scope = SelectQueryBuilder<DB, "submissions", object>;

/**
 * The filter as SQL. The 'needsReview' predicate is written exactly as the partial index
 * submissions_needs_review_idx's, with literals, so the planner can use the index. Also the
 * review queue's filter (repositories/review-queue.ts, decision 025).
 */
export function matchesSubmissionFilter(eb: ExpressionBuilder<DB, "submissions">, filter: SubmissionFilter) {
  switch (filter) {
    case "needsReview":
      return eb.or([
        eb("submissions.translationScriptApprovalStatus", "=", sql.lit("Pending")),
        eb("submissions.recordedAudioApprovalStatus", "=", sql.lit("Pending")),
      ]);
    case "approved":
      return eb("submissions.approvalStatus", "=", "Approved");
    case "rejected":
      return eb("submissions.approvalStatus", "=", "Rejected");
    case "all":
      return sql<boolean>`true`;
  }
}

type ListQuery = { assignedTo?: string | undefined; filter: SubmissionFilter; page: number; limit: number };

/** The one query of listSubmissions: the filter counts joined laterally with the page's rows. */
function submissionListQuery(db: Executor, q: ListQuery) {
  // Staff scope: the submissions of the user's tasks (submissions.assigned_to, kept equal to the
  // task's assignee; index submissions_assignee_updated_at_id_idx). Counts kept in list_counts:
  // all submissions for admins, the assignee's for staff.
  const assignedTo = q.assignedTo;
  const scoped = (): Scope =>
    assignedTo === undefined
      ? db.selectFrom("submissions")
      : db.selectFrom("submissions").where("submissions.assignedTo", "=", assignedTo);
  const keyOf = (filter: SubmissionFilter) =>
    assignedTo !== undefined
      ? LIST_COUNT_KEYS.assigneeSubmissions(assignedTo, filter)
      : {
          all: LIST_COUNT_KEYS.submissionsAll,
          needsReview: LIST_COUNT_KEYS.submissionsNeedsReview,
          approved: LIST_COUNT_KEYS.submissionsApproved,
          rejected: LIST_COUNT_KEYS.submissionsRejected,
        }[filter];
  const counts = db.selectNoFrom([
    countOfKey(db, keyOf("all")).as("all"),
    countOfKey(db, keyOf("needsReview")).as("needsReview"),
    countOfKey(db, keyOf("approved")).as("approved"),
    countOfKey(db, keyOf("rejected")).as("rejected"),
  ]);
  // Deferred join: the page's ids first, read in order from the filter's index, then only those
  // 20 rows joined to their task, audio, assignee and comment count (a deep OFFSET otherwise joins
  // every skipped row too). `= any(array(…))` keeps that plan for every page and filter value, so
  // it is planned once per connection (withGenericPlan).
  // An admin's deep page seeks from its nearest page anchor (decision 030); a staff member's
  // (no anchors) is read from the nearer end of their index, by the filter's kept count.
  const pageIds =
    assignedTo === undefined
      ? anchoredPageIds(db, keyOf(q.filter) as AnchoredListKey, q)
      : pageFromNearerEnd({
          total: countOfKey(db, keyOf(q.filter)),
          walk: (reversed, gate) =>
            scoped()
              .where((eb) => matchesSubmissionFilter(eb, q.filter))
              .where(gate)
              .select("submissions.id")
              .orderBy("submissions.updatedAt", reversed ? "asc" : "desc")
              .orderBy("submissions.id", reversed ? "asc" : "desc"),
          page: q.page,
          limit: q.limit,
        });
  const rows = db
    .selectFrom("submissions")
    .where(isOneOf("submissions.id", pageIds))
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .innerJoin("audios", "audios.id", "tasks.audioId")
    .leftJoin("users", "users.id", "tasks.assignedTo")
    .select((eb) => [
      "submissions.id",
      "submissions.taskId",
      "tasks.audioId",
      "audios.filename",
      "audios.category",
      "audios.durationSeconds",
      "users.id as staffId",
      "users.username as staffUsername",
      "submissions.submissionDate",
      "submissions.updatedAt",
      "submissions.translationScript",
      "submissions.recordedAudio",
      "submissions.translationScriptApprovalStatus",
      "submissions.recordedAudioApprovalStatus",
      "submissions.approvalStatus",
      "submissions.recordedBy",
      eb
        .selectFrom("comments")
        .select((c) => c.fn.countAll<string>().as("n"))
        .whereRef("comments.submissionId", "=", "submissions.id")
        .as("commentCount"),
    ]);
  return withGenericPlan(
    db
      .selectFrom(counts.as("c"))
      .leftJoinLateral(rows.as("p"), (join) => join.onTrue())
      .selectAll("p")
      .select(["c.all", "c.needsReview", "c.approved", "c.rejected"])
      .orderBy("p.updatedAt", "desc")
      .orderBy("p.id", "desc"),
  );
}

/**
 * One page of submissions, newest first (updated_at, then id), with the count of every filter,
 * in one query ("counts left join lateral page"), the counts kept in list_counts. With
 * `assignedTo`, only the submissions of tasks assigned to that user (index
 * submissions_assignee_updated_at_id_idx); otherwise all (indexes submissions_updated_at_id_idx,
 * submissions_approval_status_idx, submissions_needs_review_idx).
 * `totalPages` is that of the chosen filter.
 */
export async function listSubmissions(
  db: Executor,
  q: ListQuery,
): Promise<Page<SubmissionListRow> & { counts: SubmissionCounts }> {
  const result = await submissionListQuery(db, q).execute();
  const first = result[0];
  const tally: SubmissionCounts = {
    all: Number(first?.all ?? 0),
    needsReview: Number(first?.needsReview ?? 0),
    approved: Number(first?.approved ?? 0),
    rejected: Number(first?.rejected ?? 0),
  };
  const items: SubmissionListRow[] = [];
  for (const r of result) {
    if (
      r.id === null ||
      r.taskId === null ||
      r.audioId === null ||
      r.filename === null ||
      r.category === null ||
      r.submissionDate === null ||
      r.updatedAt === null ||
      r.translationScriptApprovalStatus === null ||
      r.recordedAudioApprovalStatus === null ||
      r.approvalStatus === null
    )
      continue; // the empty page's single row of counts
    items.push({
      id: r.id,
      taskId: r.taskId,
      audioId: r.audioId,
      filename: r.filename,
      category: r.category,
      durationSeconds: r.durationSeconds,
      staff: r.staffId && r.staffUsername ? { id: r.staffId, username: r.staffUsername } : null,
      submissionDate: r.submissionDate,
      updatedAt: r.updatedAt,
      translationScript: r.translationScript,
      recordedAudio: r.recordedAudio,
      transcriptStatus: r.translationScriptApprovalStatus,
      recordingApprovalStatus: r.recordedAudioApprovalStatus,
      approvalStatus: r.approvalStatus,
      recordedBy: r.recordedBy,
      commentCount: Number(r.commentCount ?? 0),
    });
  }
  return { items, totalPages: Math.ceil(tally[q.filter] / q.limit), counts: tally };
}

/** The plan (EXPLAIN, text lines) of listSubmissions' query: checks which indexes it uses. */
export async function explainSubmissionList(db: Executor, q: ListQuery): Promise<string[]> {
  const rows = await submissionListQuery(db, q).explain<Record<string, string>>();
  return rows.map((r) => Object.values(r)[0] ?? "");
}
