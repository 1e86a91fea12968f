import type { Category, NewTask, RecordingStatus, StageStatus, Task, TaskUpdate, TranscriptStatus } from "../schema";
import type { Executor } from "../connection";
import { offsetOf, toPage, type Page } from "./pagination";

/** The task of an audio (tasks.audio_id is unique), or undefined; `forUpdate` locks its row. */
export function findTaskByAudio(db: Executor, audioId: string, opts: { forUpdate?: boolean } = {}): Promise<Task | undefined> {
  const query = db.selectFrom("tasks").selectAll().where("audioId", "=", audioId);
  return (opts.forUpdate ? query.forUpdate() : query).executeTakeFirst();
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
export interface TaskCardRow {
  id: string;
  audioId: string;
  filename: string | null;
  category: Category | null;
  assignedTo: { id: string; username: string } | null;
  translationStatus: StageStatus;
  recordingStatus: StageStatus;
  isComplete: boolean;
  transcriptStatus: TranscriptStatus;
  recordingApprovalStatus: RecordingStatus;
}

/**
 * Tasks newest first with their audio, assignee and submission statuses, one page of `limit`,
 * counted and paginated in one query. With `assignedTo`, only that user's tasks
 * (index tasks_assigned_to_idx); otherwise all (index tasks_created_at_idx).
 */
export async function listTaskCards(
  db: Executor,
  q: { assignedTo?: string | undefined; page: number; limit: number },
): Promise<Page<TaskCardRow>> {
  const scoped = q.assignedTo === undefined ? db.selectFrom("tasks") : db.selectFrom("tasks").where("tasks.assignedTo", "=", q.assignedTo);
  const rows = await db
    .selectFrom(scoped.select((s) => s.fn.countAll().as("total")).as("c"))
    .leftJoinLateral(
      () =>
        scoped
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
            "users.id as assignedToId",
            "users.username as assignedToUsername",
            "submissions.translationScriptApprovalStatus",
            "submissions.recordedAudioApprovalStatus",
          ])
          .orderBy("tasks.createdAt", "desc")
          .orderBy("tasks.id", "desc")
          .limit(q.limit)
          .offset(offsetOf(q.page, q.limit))
          .as("p"),
      (join) => join.onTrue(),
    )
    .selectAll("p")
    .select("c.total")
    .orderBy("p.createdAt", "desc")
    .orderBy("p.id", "desc")
    .execute();
  return toPage(rows, q.limit, (r) =>
    r.id === null || r.audioId === null || r.translationStatus === null || r.recordingStatus === null || r.isComplete === null
      ? null
      : {
          id: r.id,
          audioId: r.audioId,
          filename: r.filename,
          category: r.category,
          assignedTo: r.assignedToId && r.assignedToUsername ? { id: r.assignedToId, username: r.assignedToUsername } : null,
          translationStatus: r.translationStatus,
          recordingStatus: r.recordingStatus,
          isComplete: r.isComplete,
          transcriptStatus: r.translationScriptApprovalStatus ?? "No transcript",
          recordingApprovalStatus: r.recordedAudioApprovalStatus ?? "No translation audio",
        },
  );
}
