import { sql, type SelectQueryBuilder } from "kysely";
import { TRANSLATION_KEY } from "./translation/translation-settings";
import type {
  Category,
  DB,
  NewTask,
  RecordingStatus,
  StageStatus,
  Task,
  TaskUpdate,
  TranscriptStatus,
} from "../schema";
import type { DbTransaction, Executor } from "../connection";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";
import { anchoredPageIds } from "./page-anchors";
import { countedPage, isOneOf, offsetOf, type Page } from "./pagination";

/** The task of an audio (tasks.audio_id is unique), or undefined. */
export function findTaskByAudio(db: Executor, audioId: string): Promise<Task | undefined> {
  return db.selectFrom("tasks").selectAll().where("audioId", "=", audioId).executeTakeFirst();
}

/** The task of an audio, its row locked (FOR UPDATE) until `trx` ends; undefined when the audio has none. */
export function lockTaskByAudio(trx: DbTransaction, audioId: string): Promise<Task | undefined> {
  return trx.selectFrom("tasks").selectAll().where("audioId", "=", audioId).forUpdate().executeTakeFirst();
}

/** Inserts a task (In Progress / In Progress, not complete) and returns it. */
export function insertTask(db: Executor, values: NewTask): Promise<Task> {
  return db.insertInto("tasks").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Updates a task, stamping updated_at, and returns it. */
export function updateTask(db: Executor, id: string, patch: TaskUpdate): Promise<Task> {
  return db
    .updateTable("tasks")
    .set({ ...patch, updatedAt: new Date() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A task card of the Tasks page (SPEC §2.8). */
interface TaskCardRow {
  id: string;
  audioId: string;
  filename: string | null;
  category: Category | null;
  /** The audio's duration in seconds; null while the waveform job has not decoded it, or when decoding failed. */
  durationSeconds: number | null;
  assignedTo: { id: string; username: string } | null;
  translationStatus: StageStatus;
  recordingStatus: StageStatus;
  isComplete: boolean;
  transcriptStatus: TranscriptStatus;
  recordingApprovalStatus: RecordingStatus;
}

/**
 * A task card of the Tasks page list with its audio's languages (decision 035): the audio's own, else
 * the programme's as its translation settings store them (the first source language); null when
 * neither is set (the programme never saved them: the caller fills its defaults).
 */
export interface TaskListRow extends TaskCardRow {
  sourceLanguage: string | null;
  targetLanguage: string | null;
}

/** One task with its card fields and the id of its submission (null when there is none yet). */
export interface TaskDetailRow extends TaskCardRow {
  submissionId: string | null;
}

/** The tasks of `tasks` (a possibly filtered `selectFrom("tasks")`) with their audio, assignee and submission columns. */
function withCardColumns(tasks: SelectQueryBuilder<DB, "tasks", object>) {
  return tasks
    .leftJoin("audios", "audios.id", "tasks.audioId")
    .leftJoin("users", "users.id", "tasks.assignedTo")
    .leftJoin("submissions", "submissions.taskId", "tasks.id")
    .select([
      "tasks.id",
      "tasks.audioId",
      "tasks.createdAt",
      "tasks.translationStatus",
      "tasks.recordingStatus",
      "tasks.isComplete",
      "audios.filename",
      "audios.category",
      "audios.durationSeconds",
      "users.id as assignedToId",
      "users.username as assignedToUsername",
      "submissions.id as submissionId",
      "submissions.translationScriptApprovalStatus",
      "submissions.recordedAudioApprovalStatus",
    ]);
}

/** The columns of withCardColumns; the task's own columns are null for the empty row of a left join. */
interface CardColumns {
  id: string | null;
  audioId: string | null;
  translationStatus: StageStatus | null;
  recordingStatus: StageStatus | null;
  isComplete: boolean | null;
  filename: string | null;
  category: Category | null;
  durationSeconds: number | null;
  assignedToId: string | null;
  assignedToUsername: string | null;
  submissionId: string | null;
  translationScriptApprovalStatus: TranscriptStatus | null;
  recordedAudioApprovalStatus: RecordingStatus | null;
}

/** A row of withCardColumns as a task detail ('No transcript' / 'No translation audio' without a submission), or null for an empty row. */
function toTaskDetail(r: CardColumns): TaskDetailRow | null {
  if (
    r.id === null ||
    r.audioId === null ||
    r.translationStatus === null ||
    r.recordingStatus === null ||
    r.isComplete === null
  )
    return null;
  return {
    id: r.id,
    audioId: r.audioId,
    filename: r.filename,
    category: r.category,
    durationSeconds: r.durationSeconds,
    assignedTo: r.assignedToId && r.assignedToUsername ? { id: r.assignedToId, username: r.assignedToUsername } : null,
    translationStatus: r.translationStatus,
    recordingStatus: r.recordingStatus,
    isComplete: r.isComplete,
    transcriptStatus: r.translationScriptApprovalStatus ?? "No transcript",
    recordingApprovalStatus: r.recordedAudioApprovalStatus ?? "No translation audio",
    submissionId: r.submissionId,
  };
}

/** Task `id` with its audio, assignee and submission (TaskDetailRow), or undefined when there is no such task. */
export async function findTaskDetail(db: Executor, id: string): Promise<TaskDetailRow | undefined> {
  const row = await withCardColumns(db.selectFrom("tasks").where("tasks.id", "=", id)).executeTakeFirst();
  return (row && toTaskDetail(row)) ?? undefined;
}

/** Decision 035: the audio's own source language, else the programme's first (its row joined as `settings`). */
const SOURCE_LANGUAGE = sql<string | null>`coalesce(audios.source_language, settings.value->'sourceLanguages'->>0)`;
/** Decision 035: the audio's own target language, else the programme's. */
const TARGET_LANGUAGE = sql<string | null>`coalesce(audios.target_language, settings.value->>'targetLanguage')`;

/**
 * Tasks newest first with their audio (and its language pair, TaskListRow), assignee and
 * submission statuses, one page of `limit`, counted and paginated in one query (the programme's
 * languages read in it from the settings row). With `assignedTo`, only that user's tasks
 * (index tasks_assigned_to_created_at_id_idx; count assignee_work_counts.tasks); otherwise all (index
 * tasks_created_at_id_idx; count list_counts 'tasks').
 */
export async function listTaskCards(
  db: Executor,
  q: { assignedTo?: string | undefined; page: number; limit: number },
): Promise<Page<TaskListRow>> {
  const scoped =
    q.assignedTo === undefined
      ? db.selectFrom("tasks")
      : db.selectFrom("tasks").where("tasks.assignedTo", "=", q.assignedTo);
  // Deferred join: the page's ids from the index in list order, then only those rows joined.
  // All tasks: a deep page seeks from its nearest page anchor (decision 030).
  const pageIds =
    q.assignedTo === undefined
      ? anchoredPageIds(db, LIST_COUNT_KEYS.tasks, q)
      : scoped
          .select("tasks.id")
          .orderBy("tasks.createdAt", "desc")
          .orderBy("tasks.id", "desc")
          .limit(q.limit)
          .offset(offsetOf(q.page, q.limit));
  return countedPage(db, {
    // Exact counts kept by triggers: all tasks in list_counts, a user's in assignee_work_counts.
    total:
      q.assignedTo === undefined
        ? countOfKey(db, LIST_COUNT_KEYS.tasks)
        : db
            .selectFrom("assigneeWorkCounts")
            .select(sql<string>`coalesce(max(tasks), 0)`.as("total"))
            .where("assigneeWorkCounts.assigneeId", "=", q.assignedTo),
    rows: withCardColumns(db.selectFrom("tasks").where(isOneOf("tasks.id", pageIds)))
      .leftJoin("settings", (join) => join.on("settings.key", "=", TRANSLATION_KEY))
      .select([SOURCE_LANGUAGE.as("sourceLanguage"), TARGET_LANGUAGE.as("targetLanguage")])
      .orderBy("tasks.createdAt", "desc")
      .orderBy("tasks.id", "desc"),
    order: [
      ["createdAt", "desc"],
      ["id", "desc"],
    ],
    page: q.page,
    limit: q.limit,
    paged: true,
    pick: (r) => {
      const task = toTaskDetail(r);
      if (!task) return null;
      const { submissionId: _submissionId, ...card } = task;
      return { ...card, sourceLanguage: r.sourceLanguage, targetLanguage: r.targetLanguage };
    },
  });
}
