import type { Submission, SubmissionUpdate } from "../schema";
import type { Executor } from "../connection";

/** The submission of a task (submissions.task_id is unique), or undefined; `forUpdate` locks it. */
export function findSubmissionByTask(db: Executor, taskId: string, opts: { forUpdate?: boolean } = {}): Promise<Submission | undefined> {
  const query = db.selectFrom("submissions").selectAll().where("taskId", "=", taskId);
  return (opts.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * The task's submission, created first (by `createdBy`) when there is none; safe under
 * concurrency (insert … on conflict do nothing, then read).
 */
export async function ensureSubmission(db: Executor, taskId: string, createdBy: string): Promise<Submission> {
  const created = await db
    .insertInto("submissions")
    .values({ taskId, createdBy })
    .onConflict((oc) => oc.column("taskId").doNothing())
    .returningAll()
    .executeTakeFirst();
  return created ?? (await db.selectFrom("submissions").selectAll().where("taskId", "=", taskId).forUpdate().executeTakeFirstOrThrow());
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
