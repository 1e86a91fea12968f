import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { Executor } from "../connection";
import { withGenericPlan } from "../generic-plans";
import type { Category, DB, RecordingStatus, ReviewDecision, ReviewedOutputKind, TranscriptStatus } from "../schema";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";
import { matchesSubmissionFilter, type SubmissionFilter } from "./submission-list";

/** How review mode moves through the queue (decision 025). */
export const REVIEW_QUEUE_MOVES = ["first", "next", "previous", "at"] as const;
type ReviewQueueMove = (typeof REVIEW_QUEUE_MOVES)[number];

/**
 * A place in the queue: the (updated_at, id) an item had when it was shown. `updatedAt` is the
 * exact timestamptz as text (microseconds; ReviewQueueItem.updatedAt), never a JS Date, which
 * would drop the microseconds and find the same row again as its own 'next'.
 */
interface ReviewQueueKey {
  updatedAt: string;
  id: string;
}

/** The latest review of one output: who did what, when. */
export interface LatestReview {
  action: ReviewDecision;
  reviewer: { id: string; username: string } | null;
  reviewedAt: Date;
}

/** One submission as review mode shows it. */
interface ReviewQueueItem {
  id: string;
  taskId: string;
  audioId: string;
  filename: string;
  category: Category;
  durationSeconds: number | null;
  staff: { id: string; username: string } | null;
  /** updated_at as ISO 8601 text in UTC with microseconds: the item's queue key with `id`. */
  updatedAt: string;
  transcriptStatus: TranscriptStatus;
  recordingStatus: RecordingStatus;
  hasTranscript: boolean;
  hasRecording: boolean;
  latestReviews: Record<ReviewedOutputKind, LatestReview | null>;
}

/** The answer of readReviewQueue: the item (null when none), its 1-based place and the filter's count. */
export interface ReviewQueueAnswer {
  item: ReviewQueueItem | null;
  /** 1-based place of the item in the queue (rows before it + 1); 0 when there is no item. */
  position: number;
  total: number;
}

type Pick = SelectQueryBuilder<DB, "submissions", { id: string; pref: number }>;

/**
 * LIMIT 1 written into the SQL: the queue's statement is planned generically (readReviewQueue), and
 * a generic plan of `limit $n` joins every row of the filter before limiting (400–550 ms at 100,000
 * audios, against 0.1 ms as an index walk).
 */
const ONE = sql.lit(1);

/** The (updated_at, id) row of `submissions` compared with a key, as SQL (index range condition). */
function keyCompare(op: ">" | "<", key: ReviewQueueKey) {
  return sql<boolean>`(submissions.updated_at, submissions.id) ${sql.raw(op)} (${key.updatedAt}::timestamptz, ${key.id}::uuid)`;
}

const inFilter = (filter: SubmissionFilter) => (eb: ExpressionBuilder<DB, "submissions">) =>
  matchesSubmissionFilter(eb, filter);

/** The id of the row a move lands on, as a subquery of at most one row (`pref` orders 'at''s two choices). */
function pickRow(db: Executor, filter: SubmissionFilter, move: ReviewQueueMove, from: ReviewQueueKey | undefined) {
  const base = (pref: number): Pick =>
    db
      .selectFrom("submissions")
      .where(inFilter(filter))
      .select(["submissions.id", sql<number>`${sql.lit(pref)}`.as("pref")]);
  const asc = (q: Pick) => q.orderBy("submissions.updatedAt", "asc").orderBy("submissions.id", "asc").limit(ONE);
  if (move === "first" || !from) return asc(base(0));
  if (move === "next") return asc(base(0).where(keyCompare(">", from)));
  if (move === "previous")
    return base(0)
      .where(keyCompare("<", from))
      .orderBy("submissions.updatedAt", "desc")
      .orderBy("submissions.id", "desc")
      .limit(ONE);
  // 'at': the row itself while it is in the filter (wherever its updated_at now puts it), else the next.
  return db
    .selectFrom(
      base(0)
        .where("submissions.id", "=", from.id)
        .unionAll(
          db.selectFrom(asc(base(1).where(keyCompare(">", from))).as("after")).select(["after.id", "after.pref"]),
        )
        .as("choices"),
    )
    .select(["choices.id", "choices.pref"])
    .orderBy("choices.pref")
    .limit(ONE);
}

/** The latest review of `output` of the submission `p.id` (index reviews_submission_idx). */
function latestReview(eb: ExpressionBuilder<DB & { p: { id: string } }, "p">, output: ReviewedOutputKind) {
  return eb
    .selectFrom("reviews")
    .leftJoin("users", "users.id", "reviews.reviewerId")
    .select(
      sql<string>`json_build_object('action', reviews.action, 'reviewerId', reviews.reviewer_id, 'reviewerUsername', users.username, 'reviewedAt', reviews.reviewed_at)`.as(
        "r",
      ),
    )
    .whereRef("reviews.submissionId", "=", "p.id")
    .where("reviews.output", "=", sql.lit(output))
    .orderBy("reviews.reviewedAt", "desc")
    .limit(ONE);
}

function reviewQueueQuery(db: Executor, q: ReadReviewQueue) {
  const countKey = {
    all: LIST_COUNT_KEYS.submissionsAll,
    needsReview: LIST_COUNT_KEYS.submissionsNeedsReview,
    approved: LIST_COUNT_KEYS.submissionsApproved,
    rejected: LIST_COUNT_KEYS.submissionsRejected,
  }[q.filter];
  const row = db
    .selectFrom(pickRow(db, q.filter, q.move, q.from).as("k"))
    .innerJoin("submissions", "submissions.id", "k.id")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .innerJoin("audios", "audios.id", "tasks.audioId")
    .leftJoin("users", "users.id", "tasks.assignedTo")
    .select([
      "submissions.id",
      "submissions.taskId",
      "tasks.audioId",
      "audios.filename",
      "audios.category",
      "audios.durationSeconds",
      "users.id as staffId",
      "users.username as staffUsername",
      "submissions.updatedAt as updatedAtValue",
      sql<string>`to_char(submissions.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("updatedAt"),
      "submissions.translationScriptApprovalStatus",
      "submissions.recordedAudioApprovalStatus",
      sql<boolean>`submissions.translation_script is not null`.as("hasTranscript"),
      sql<boolean>`submissions.recorded_audio is not null`.as("hasRecording"),
    ]);
  // Rows of the filter before the item's key: an index-only range count on the filter's index
  // (needsReview: submissions_needs_review_idx; approved/rejected: submissions_approval_status_idx;
  // all: submissions_updated_at_id_idx).
  const before = (eb: ExpressionBuilder<DB & { p: { id: string | null; updatedAtValue: Date | null } }, "p">) =>
    eb
      .selectFrom("submissions")
      .where(inFilter(q.filter) as never)
      .where(sql<boolean>`(submissions.updated_at, submissions.id) < (p.updated_at_value, p.id)`)
      .select((c) => c.fn.countAll<string>().as("n"));
  return db
    .selectFrom(countOfKey(db, countKey).as("c"))
    .leftJoinLateral(row.as("p"), (join) => join.onTrue())
    .selectAll("p")
    .select((eb) => [
      "c.total",
      before(eb as never).as("before"),
      latestReview(eb as never, "transcript").as("transcriptReview"),
      latestReview(eb as never, "recording").as("recordingReview"),
    ]);
}

/** What readReviewQueue reads: the filter, the move and the key it starts from. */
export interface ReadReviewQueue {
  filter: SubmissionFilter;
  move: ReviewQueueMove;
  from?: ReviewQueueKey | undefined;
}

interface ReviewJson {
  action: ReviewDecision;
  reviewerId: string | null;
  reviewerUsername: string | null;
  reviewedAt: string;
}

function toLatestReview(value: unknown): LatestReview | null {
  if (value === null || value === undefined) return null;
  const r = (typeof value === "string" ? JSON.parse(value) : value) as ReviewJson;
  return {
    action: r.action,
    reviewer: r.reviewerId && r.reviewerUsername ? { id: r.reviewerId, username: r.reviewerUsername } : null,
    reviewedAt: new Date(r.reviewedAt),
  };
}

/**
 * The review queue (decision 025): the rows of a Submissions filter (SUBMISSION_FILTERS) walked
 * OLDEST CHANGE FIRST (updated_at, then id, ascending), so a new or newly changed submission
 * joins its END; the Submissions page lists the same rows newest first, so review mode walks it
 * from the other end. `move`: 'first' = the first row; 'next' = the first row strictly after
 * `from`; 'previous' = the last row strictly before `from`; 'at' = the row `from.id` while it is
 * in the filter, else the next one. `from` is the key the item had when it was shown, so an item
 * reviewed meanwhile (its updated_at bumped, or out of the filter) does not lose the place; an
 * unknown id is only a key. Without `from`, every move is 'first'.
 * One query: the filter's count (list_counts), the row with its task, audio, assignee and latest
 * review of each output, and the count of rows before it (index-only on the filter's index);
 * planned once per connection (withGenericPlan, decision 017): planning it took 0.8–1.7 ms of
 * PostgreSQL's CPU a call for 0.1–0.2 ms of execution.
 * Returns item null and position 0 when the move lands on nothing.
 */
export async function readReviewQueue(db: Executor, q: ReadReviewQueue): Promise<ReviewQueueAnswer> {
  const r = await withGenericPlan(reviewQueueQuery(db, q)).executeTakeFirst();
  const total = Number(r?.total ?? 0);
  if (
    !r ||
    r.id === null ||
    r.taskId === null ||
    r.audioId === null ||
    r.filename === null ||
    r.category === null ||
    r.updatedAt === null ||
    r.translationScriptApprovalStatus === null ||
    r.recordedAudioApprovalStatus === null
  )
    return { item: null, position: 0, total };
  return {
    item: {
      id: r.id,
      taskId: r.taskId,
      audioId: r.audioId,
      filename: r.filename,
      category: r.category,
      durationSeconds: r.durationSeconds,
      staff: r.staffId && r.staffUsername ? { id: r.staffId, username: r.staffUsername } : null,
      updatedAt: r.updatedAt,
      transcriptStatus: r.translationScriptApprovalStatus,
      recordingStatus: r.recordedAudioApprovalStatus,
      hasTranscript: Boolean(r.hasTranscript),
      hasRecording: Boolean(r.hasRecording),
      latestReviews: {
        transcript: toLatestReview(r.transcriptReview),
        recording: toLatestReview(r.recordingReview),
      },
    },
    position: Number(r.before ?? 0) + 1,
    total,
  };
}
