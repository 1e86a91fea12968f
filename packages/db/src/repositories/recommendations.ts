import type { Executor } from "../connection";

/** True when the task has been recommended to the user (index recommendations_task_recipient_key). */
export async function isRecommendedTo(db: Executor, taskId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("recommendations")
    .select("id")
    .where("taskId", "=", taskId)
    .where("recommendedTo", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}
