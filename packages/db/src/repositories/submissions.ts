import type { RecordingStatus, Submission, SubmissionUpdate, TranscriptStatus } from "../schema";
import type { DbTransaction, Executor } from "../connection";

/** The submission of a task (submissions.task_id is unique), or undefined. */
export function findSubmissionByTask(db: Executor, taskId: string): Promise<Submission | undefined> {
  return db.selectFrom("submissions").selectAll().where("taskId", "=", taskId).executeTakeFirst();
}

/** The submission of a task, its row locked (FOR UPDATE) until `trx` ends; undefined when there is none. */
export function lockSubmissionByTask(trx: DbTransaction, taskId: string): Promise<Submission | undefined> {
  return trx.selectFrom("submissions").selectAll().where("taskId", "=", taskId).forUpdate().executeTakeFirst();
}

/**
 * The task's submission, created first (by `createdBy`) when there is none, its row locked until
 * `trx` ends; safe under concurrency (insert … on conflict do nothing, then read for update).
 */
export async function ensureSubmission(trx: DbTransaction, taskId: string, createdBy: string): Promise<Submission> {
  const created = await trx
    .insertInto("submissions")
    .values({ taskId, createdBy })
    .onConflict((oc) => oc.column("taskId").doNothing())
    .returningAll()
    .executeTakeFirst();
  return (
    created ??
    (await trx.selectFrom("submissions").selectAll().where("taskId", "=", taskId).forUpdate().executeTakeFirstOrThrow())
  );
}

/** Updates a submission, stamping updated_at, and returns it. */
export function updateSubmission(db: Executor, id: string, patch: SubmissionUpdate): Promise<Submission> {
  return db
    .updateTable("submissions")
    .set({ ...patch, updatedAt: new Date() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Submission `id` with its task's audio id (for the audio ownership rule), or undefined when there is none. */
export function findSubmissionWithAudio(
  db: Executor,
  id: string,
): Promise<(Submission & { audioId: string }) | undefined> {
  return db
    .selectFrom("submissions")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .selectAll("submissions")
    .select("tasks.audioId")
    .where("submissions.id", "=", id)
    .executeTakeFirst();
}

/** The approval-status column of one reviewed output of a submission (SPEC §4). */
export type SubmissionStatusColumn = "translationScriptApprovalStatus" | "recordedAudioApprovalStatus";

/**
 * Compare-and-set for reviews (SPEC §4): applies `patch` to submission `id` only while its
 * `column` still equals `expected`, in one `UPDATE submissions SET … WHERE id = … AND <column> =
 * <expected> RETURNING *` (updated_at stamped), so of two reviews acting on the same status only
 * one can win. Returns the updated row, or undefined when the status no longer holds (or there is
 * no such submission): nothing is written then.
 */
export function updateSubmissionIfStatus(
  db: Executor,
  id: string,
  guard: { column: SubmissionStatusColumn; expected: TranscriptStatus | RecordingStatus },
  patch: SubmissionUpdate,
): Promise<Submission | undefined> {
  return db
    .updateTable("submissions")
    .set({ ...patch, updatedAt: new Date() })
    .where("id", "=", id)
    .where(guard.column, "=", guard.expected)
    .returningAll()
    .executeTakeFirst();
}
