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

/**
 * Records that `recommendedBy` recommended the task to `recommendedTo`. Returns the new row's id,
 * or undefined when the task was already recommended to that user (nothing is written).
 */
export async function insertRecommendation(
  db: Executor,
  values: { taskId: string; recommendedTo: string; recommendedBy: string },
): Promise<string | undefined> {
  const row = await db
    .insertInto("recommendations")
    .values(values)
    .onConflict((oc) => oc.columns(["taskId", "recommendedTo"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

/** The translation of a task (SPEC §7.1 hasrecommendation): its submission while it holds a saved transcript. */
export interface TranslationEntry {
  submissionId: string;
  taskId: string;
  translationScriptApprovalStatus: string;
  submissionDate: Date;
}

/**
 * The task's translation entries: its submission when a transcript is currently saved on it
 * (translation_script set), else none. Recommending needs at least one (ARCHITECTURE "Decisions").
 */
export function findTranslationEntries(db: Executor, taskId: string): Promise<TranslationEntry[]> {
  return db
    .selectFrom("submissions")
    .select(["id as submissionId", "taskId", "translationScriptApprovalStatus", "submissionDate"])
    .where("taskId", "=", taskId)
    .where("translationScript", "is not", null)
    .execute();
}
