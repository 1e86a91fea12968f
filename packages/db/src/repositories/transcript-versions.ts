import { sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { Executor } from "../connection";

/** Inserts a saved transcript version (its file is already stored under `fileKey`). */
export async function insertTranscriptVersion(
  db: Executor,
  values: { id: string; submissionId: string; fileKey: string; fileName: string; text: string; createdBy: string },
): Promise<void> {
  await db.insertInto("transcriptVersions").values(values).execute();
}

/** A transcript version with the username of who saved it. */
export interface TranscriptVersionRow {
  fileKey: string;
  fileName: string;
  text: string;
  createdAt: Date;
  createdById: string | null;
  createdByUsername: string | null;
}

/** The version of a submission stored under `fileKey` (index transcript_versions_submission_idx), or undefined. */
export function findTranscriptVersion(
  db: Executor,
  submissionId: string,
  fileKey: string,
): Promise<TranscriptVersionRow | undefined> {
  return db
    .selectFrom("transcriptVersions")
    .leftJoin("users", "users.id", "transcriptVersions.createdBy")
    .select([
      "transcriptVersions.fileKey",
      "transcriptVersions.fileName",
      "transcriptVersions.text",
      "transcriptVersions.createdAt",
      "users.id as createdById",
      "users.username as createdByUsername",
    ])
    .where("transcriptVersions.submissionId", "=", submissionId)
    .where("transcriptVersions.fileKey", "=", fileKey)
    .executeTakeFirst();
}

/** A review of one transcript version, as its history shows it (decision 025). */
interface VersionReviewRow {
  action: "approve" | "reject";
  reviewedAt: Date;
  reason: string | null;
  reviewerId: string | null;
  reviewerUsername: string | null;
}

/** One saved transcript version of a submission, with who saved it and every review it got. */
export interface TranscriptHistoryRow {
  id: string;
  fileName: string;
  createdAt: Date;
  createdById: string | null;
  createdByUsername: string | null;
  /** True for the version the submission names now (its translation_script). */
  current: boolean;
  /** Newest first. */
  reviews: VersionReviewRow[];
}

/**
 * Decision 025, version history: the newest `limit` transcript versions of the submission of task
 * `taskId`, newest first, each with who saved it, whether it is the current one and its reviews
 * (newest first, from the `reviews` rows that name it). One query: the submission by its unique
 * task_id, the versions by transcript_versions_submission_idx, each version's reviews by
 * reviews_transcript_version_idx. No submission: an empty list.
 */
export async function listTranscriptHistory(
  db: Executor,
  taskId: string,
  limit: number,
): Promise<TranscriptHistoryRow[]> {
  const rows = await transcriptHistoryQuery(db, taskId, limit).execute();
  // Timestamps inside the JSON array arrive as text.
  return rows.map((row) => ({
    ...row,
    current: Boolean(row.current),
    reviews: row.reviews.map((review) => ({ ...review, reviewedAt: new Date(review.reviewedAt) })),
  }));
}

/** The query of listTranscriptHistory, unexecuted (its plan is tested). */
export function transcriptHistoryQuery(db: Executor, taskId: string, limit: number) {
  return db
    .selectFrom("submissions as s")
    .innerJoin("transcriptVersions as v", "v.submissionId", "s.id")
    .leftJoin("users as u", "u.id", "v.createdBy")
    .where("s.taskId", "=", taskId)
    .select((eb) => [
      "v.id",
      "v.fileName",
      "v.createdAt",
      "u.id as createdById",
      "u.username as createdByUsername",
      eb.fn.coalesce(eb("v.fileKey", "=", eb.ref("s.translationScript")), sql.lit(false)).as("current"),
      jsonArrayFrom(
        eb
          .selectFrom("reviews as r")
          .leftJoin("users as ru", "ru.id", "r.reviewerId")
          .whereRef("r.transcriptVersionId", "=", "v.id")
          .where("r.output", "=", "transcript")
          .select(["r.action", "r.reviewedAt", "r.reason", "ru.id as reviewerId", "ru.username as reviewerUsername"])
          .orderBy("r.reviewedAt", "desc"),
      ).as("reviews"),
    ])
    .orderBy("v.createdAt", "desc")
    .orderBy("v.id", "desc")
    .limit(limit);
}

/** The current transcript and the version last reviewed, as the diff needs them (decision 025). */
export interface ReviewedVersionsRow {
  currentId: string | null;
  currentText: string | null;
  reviewedVersionId: string | null;
  reviewedText: string | null;
  reviewedSavedAt: Date | null;
  reviewAction: "approve" | "reject" | null;
  reviewedAt: Date | null;
  reviewReason: string | null;
  reviewerId: string | null;
  reviewerUsername: string | null;
}

/**
 * Decision 025, "what changed since the last review": for the submission of task `taskId`, the
 * current transcript version (id and text; null when there is none) and the version named by the
 * newest transcript review that names one (its text, save time, the review's action, time, reason
 * and reviewer), or undefined when the task has no submission. One query: the submission by its
 * unique task_id, the current version by transcript_versions_submission_idx, the newest review by
 * reviews_submission_idx (submission_id, reviewed_at), its version by primary key.
 */
export function findReviewedVersions(db: Executor, taskId: string): Promise<ReviewedVersionsRow | undefined> {
  return reviewedVersionsQuery(db, taskId).executeTakeFirst();
}

/** The query of findReviewedVersions, unexecuted (its plan is tested). */
export function reviewedVersionsQuery(db: Executor, taskId: string) {
  return db
    .selectFrom("submissions as s")
    .leftJoin("transcriptVersions as cur", (join) =>
      join.onRef("cur.submissionId", "=", "s.id").onRef("cur.fileKey", "=", "s.translationScript"),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("reviews as r")
          .innerJoin("transcriptVersions as rv", "rv.id", "r.transcriptVersionId")
          .leftJoin("users as ru", "ru.id", "r.reviewerId")
          .whereRef("r.submissionId", "=", "s.id")
          .where("r.output", "=", "transcript")
          .select([
            "rv.id as reviewedVersionId",
            "rv.text as reviewedText",
            "rv.createdAt as reviewedSavedAt",
            "r.action as reviewAction",
            "r.reviewedAt",
            "r.reason as reviewReason",
            "ru.id as reviewerId",
            "ru.username as reviewerUsername",
          ])
          .orderBy("r.reviewedAt", "desc")
          .limit(1)
          .as("lr"),
      (join) => join.onTrue(),
    )
    .where("s.taskId", "=", taskId)
    .select([
      "cur.id as currentId",
      "cur.text as currentText",
      "lr.reviewedVersionId",
      "lr.reviewedText",
      "lr.reviewedSavedAt",
      "lr.reviewAction",
      "lr.reviewedAt",
      "lr.reviewReason",
      "lr.reviewerId",
      "lr.reviewerUsername",
    ]);
}
