import type { Executor } from "../connection";
import type { Category, RecordingStatus, StageStatus, TranscriptStatus } from "../schema";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";
import { anchoredPageIds } from "./page-anchors";
import { countedPage, countRows, isOneOf, offsetOf, type Page } from "./pagination";

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

/** A card of the Recommended Recordings page (SPEC §2.9, §3 Recommended recording). */
export interface RecommendedRecordingRow {
  id: string;
  task: {
    id: string;
    audioId: string;
    filename: string | null;
    category: Category | null;
    /** The audio's duration in seconds; null while unknown (not decoded yet, or decoding failed). */
    durationSeconds: number | null;
    assignedTo: { id: string; username: string } | null;
    translationStatus: StageStatus;
    recordingStatus: StageStatus;
    isComplete: boolean;
  };
  recommendedTo: { id: string; username: string } | null;
  transcriptStatus: TranscriptStatus;
  recordingApprovalStatus: RecordingStatus;
}

/**
 * Recommendations newest first, each with its task (audio, assignee, stage statuses), its
 * recipient and its submission's approval statuses ('No transcript' / 'No translation audio'
 * without a submission); one page of `limit`, counted and paginated in one query. With
 * `recommendedTo`, only those made to that user (index recommendations_recipient_idx, counted);
 * otherwise all (index recommendations_created_at_id_idx; count kept in list_counts).
 */
export async function listRecommendedRecordings(
  db: Executor,
  q: { recommendedTo?: string | undefined; page: number; limit: number },
): Promise<Page<RecommendedRecordingRow>> {
  const scoped =
    q.recommendedTo === undefined
      ? db.selectFrom("recommendations")
      : db.selectFrom("recommendations").where("recommendations.recommendedTo", "=", q.recommendedTo);
  // Deferred join: the page's ids from the index in list order, then only those rows joined.
  // All recommendations: a deep page seeks from its nearest page anchor (decision 030).
  const pageIds =
    q.recommendedTo === undefined
      ? anchoredPageIds(db, LIST_COUNT_KEYS.recommendations, q)
      : scoped
          .select("recommendations.id")
          .orderBy("recommendations.createdAt", "desc")
          .orderBy("recommendations.id", "desc")
          .limit(q.limit)
          .offset(offsetOf(q.page, q.limit));
  const rows = db
    .selectFrom("recommendations")
    .where(isOneOf("recommendations.id", pageIds))
    .innerJoin("tasks", "tasks.id", "recommendations.taskId")
    .leftJoin("audios", "audios.id", "tasks.audioId")
    .leftJoin("users", "users.id", "tasks.assignedTo")
    .leftJoin("submissions", "submissions.taskId", "tasks.id")
    .select([
      "recommendations.id",
      "recommendations.createdAt",
      "tasks.id as taskId",
      "tasks.audioId",
      "tasks.translationStatus",
      "tasks.recordingStatus",
      "tasks.isComplete",
      "audios.filename",
      "audios.category",
      "audios.durationSeconds",
      "users.id as assignedToId",
      "users.username as assignedToUsername",
      "recommendations.recommendedTo as recommendedToId",
      "submissions.translationScriptApprovalStatus",
      "submissions.recordedAudioApprovalStatus",
    ])
    // The recipient's name by primary key (a second join of users would need an alias Kysely's
    // generic page helper cannot type).
    .select((eb) =>
      eb
        .selectFrom("users as recipient")
        .select("recipient.username")
        .whereRef("recipient.id", "=", "recommendations.recommendedTo")
        .as("recommendedToUsername"),
    )
    .orderBy("recommendations.createdAt", "desc")
    .orderBy("recommendations.id", "desc");
  return countedPage(db, {
    total: q.recommendedTo === undefined ? countOfKey(db, LIST_COUNT_KEYS.recommendations) : countRows(scoped),
    rows,
    order: [
      ["createdAt", "desc"],
      ["id", "desc"],
    ],
    page: q.page,
    limit: q.limit,
    paged: true,
    pick: (r) => {
      if (
        r.id === null ||
        r.taskId === null ||
        r.audioId === null ||
        r.translationStatus === null ||
        r.recordingStatus === null ||
        r.isComplete === null
      )
        return null;
      return {
        id: r.id,
        task: {
          id: r.taskId,
          audioId: r.audioId,
          filename: r.filename,
          category: r.category,
          durationSeconds: r.durationSeconds,
          assignedTo:
            r.assignedToId && r.assignedToUsername ? { id: r.assignedToId, username: r.assignedToUsername } : null,
          translationStatus: r.translationStatus,
          recordingStatus: r.recordingStatus,
          isComplete: r.isComplete,
        },
        recommendedTo:
          r.recommendedToId && r.recommendedToUsername
            ? { id: r.recommendedToId, username: r.recommendedToUsername }
            : null,
        transcriptStatus: r.translationScriptApprovalStatus ?? "No transcript",
        recordingApprovalStatus: r.recordedAudioApprovalStatus ?? "No translation audio",
      };
    },
  });
}
