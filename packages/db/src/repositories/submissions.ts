import type { Submission, SubmissionUpdate } from "../schema";
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
