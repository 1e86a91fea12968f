import type { DbTransaction, Task } from "@tafsiri/db";
import type { Page } from "@tafsiri/db/repositories/pagination";
import { findTaskDetail, insertTask, listTaskCards, updateTask } from "@tafsiri/db/repositories/tasks";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import type { AppDeps, SessionUser } from "../context";
import type { LanguagePair } from "@tafsiri/domain";
import type { ListTasksInput, SetTaskStatusInput, TaskDetail, TaskListCard } from "../schemas/tasks";
import { AppError } from "../errors/app-error";
import { DEFAULT_TRANSLATION_SETTINGS } from "../translation/translation-settings";
import { isUuid } from "../schemas/common";
import { lockAudioAccess, NOT_ASSIGNED, requireAdmin, requireAudioAccess } from "./access";
import { publishAfter, recordAudioEvent } from "../live/record";
import { taskPayload } from "../webhooks/payloads";
import { recordWebhookEvent } from "../webhooks/record-webhook-event";
import { requireActiveStaff } from "./staff";
import type { UserRef } from "@tafsiri/db/repositories/users";
import { applyTransition } from "./submissions";

const STAFF_REQUIRED = "Please select a staff member.";
const REASSIGN_STAFF_REQUIRED = "Please select a staff member to reassign.";
const ALREADY_ASSIGNED = "This audio is already assigned.";
export const SAME_ASSIGNEE = "This audio is already assigned to this staff member.";
const NO_VALID_ASSIGNMENTS = "No valid assignments to process.";
export const TASK_NOT_FOUND = "Task not found.";
const OWN_TASKS_ONLY = "You may only list your own tasks.";
const TASK_UPDATED = "Task updated successfully.";

/** The task as the API returns it (ZTaskRef). */
export interface TaskRef {
  id: string;
  audioId: string;
  assignedTo: string;
}

/** SPEC §2.17, §2.18: what the admin is told after an assignment and a reassignment. */
const ASSIGNED = "Audio assigned successfully!";
const REASSIGNED = "Audio reassigned successfully!";

function toTaskRef(task: Task): TaskRef {
  return { id: task.id, audioId: task.audioId, assignedTo: task.assignedTo };
}

/**
 * SPEC §2.17 (admin): assigns an audio without a task to an active staff member, creating its
 * task (In Progress / In Progress, incomplete) with an audit entry and an 'audio.changed' live
 * event (admins and the assignee), in one transaction.
 * Throws BAD_REQUEST 'Please select a staff member.' (not an active Staff user), NOT_FOUND
 * 'Audio not found.', CONFLICT 'This audio is already assigned.'. Returns the task and the
 * sentence said ('Audio assigned successfully!').
 */
export async function assignTask(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; staffId: string },
): Promise<TaskRef & { message: string }> {
  requireAdmin(user);
  const change = deps.db.transaction().execute(async (trx) => {
    const staff = await requireActiveStaff(trx, input.staffId, STAFF_REQUIRED);
    const { audio, task: existing } = await lockAudioAccess(trx, user, input.audioId);
    if (existing) throw new AppError("CONFLICT", ALREADY_ASSIGNED);
    const task = await insertTask(trx, { audioId: audio.id, assignedTo: staff.id });
    await insertAuditEntry(trx, user.id, "assign", "task", task.id, { audioId: audio.id, assignedTo: staff.id });
    await recordAudioEvent(trx, "audio.changed", audio.id);
    await recordWebhookEvent(trx, "task.assigned", { task: taskPayload(task) });
    return { ...toTaskRef(task), message: ASSIGNED };
  });
  return publishAfter(deps, change);
}

/**
 * SPEC §2.17 Bulk Assign (admin): assigns each row on its own (its own transaction), so one
 * failing row does not undo the others. Rows without a well-formed audio and staff id are
 * answered with the reason and not processed; when no row is well-formed at all, throws
 * BAD_REQUEST 'No valid assignments to process.'. Returns one result per row, in order
 * (message null when assigned).
 */
export async function bulkAssign(
  deps: AppDeps,
  user: SessionUser,
  assignments: Array<{ audioId: string; staffId: string }>,
): Promise<{ results: Array<{ audioId: string; ok: boolean; message: string | null }> }> {
  requireAdmin(user);
  if (!assignments.some((a) => isUuid(a.audioId) && isUuid(a.staffId))) {
    throw new AppError("BAD_REQUEST", NO_VALID_ASSIGNMENTS);
  }
  const results: Array<{ audioId: string; ok: boolean; message: string | null }> = [];
  for (const row of assignments) {
    try {
      await assignTask(deps, user, row);
      results.push({ audioId: row.audioId, ok: true, message: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ audioId: row.audioId, ok: false, message: error.message });
    }
  }
  return { results };
}

/**
 * SPEC §2.18 Reassign (admin): moves an assigned audio's task to another active staff member,
 * keeping its submission, with an audit entry and an 'audio.changed' live event (admins, the new
 * and the previous assignee, recommendation recipients). Throws NOT_FOUND 'Audio not found.', BAD_REQUEST
 * 'This audio is not assigned yet.', 'Please select a staff member to reassign.' (not an active
 * Staff user) or 'This audio is already assigned to this staff member.'. Returns the task and
 * the sentence said ('Audio reassigned successfully!').
 */
export async function reassignTask(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; staffId: string },
): Promise<TaskRef & { message: string }> {
  requireAdmin(user);
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, input.audioId);
    if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
    const staff = await requireReassignee(trx, task, input.staffId);
    const updated = await moveTask(trx, user, task, staff, { audioId: audio.id });
    await recordAudioEvent(trx, "audio.changed", audio.id, { alsoTo: [task.assignedTo] });
    await recordWebhookEvent(trx, "task.reassigned", {
      task: taskPayload(updated),
      previous_assigned_to: task.assignedTo,
    });
    return { ...toTaskRef(updated), message: REASSIGNED };
  });
  return publishAfter(deps, change);
}

/**
 * The checks of a reassignment (SPEC §2.18 Reassign; a rejection's 'Reassign to…', decision 025),
 * in the caller's transaction with the task locked (lockAudioAccess): `staffId` must be an active
 * Staff account (BAD_REQUEST 'Please select a staff member to reassign.' for an unknown, malformed,
 * deactivated or Admin id) other than the task's assignee (BAD_REQUEST 'This audio is already
 * assigned to this staff member.'). Writes nothing. Returns the new assignee (id, username).
 */
export async function requireReassignee(trx: DbTransaction, task: Task, staffId: string): Promise<UserRef> {
  const staff = await requireActiveStaff(trx, staffId, REASSIGN_STAFF_REQUIRED);
  if (staff.id === task.assignedTo) throw new AppError("BAD_REQUEST", SAME_ASSIGNEE);
  return staff;
}

/**
 * Moves a locked task to `staff` (checked by requireReassignee) in the caller's transaction, keeping
 * its submission, versions and comments (submissions.assigned_to follows by trigger), with the audit
 * entry 'reassign' on the task: `{ ...details, from, to }` (old and new assignee ids). The caller
 * records the 'audio.changed' live event with the previous assignee in `alsoTo`
 * (SPEC §2.18; decision 025). Returns the updated task.
 */
export async function moveTask(
  trx: DbTransaction,
  user: SessionUser,
  task: Task,
  staff: UserRef,
  details: Record<string, unknown>,
): Promise<Task> {
  const updated = await updateTask(trx, task.id, { assignedTo: staff.id });
  await insertAuditEntry(trx, user.id, "reassign", "task", task.id, {
    ...details,
    from: task.assignedTo,
    to: staff.id,
  });
  return updated;
}

/** Decision 035: the languages of a programme that never saved its translation settings. */
const DEFAULT_PAIR: LanguagePair = {
  source: DEFAULT_TRANSLATION_SETTINGS.sourceLanguages[0]!,
  target: DEFAULT_TRANSLATION_SETTINGS.targetLanguage,
};

/**
 * SPEC §2.8 Tasks page: admins see every task, or only `assignedTo`'s when given; staff only
 * their own (naming another user throws FORBIDDEN 'You may only list your own tasks.'). Newest
 * first, one page of `limit` (10 by default) with the audio, assignee and submission statuses
 * ('No transcript' / 'No translation audio' without a submission) and the audio's language pair
 * (decision 035: its own, else the programme's), in one statement.
 */
export async function listTasks(deps: AppDeps, user: SessionUser, q: ListTasksInput): Promise<Page<TaskListCard>> {
  if (user.role !== "Admin" && q.assignedTo !== undefined && q.assignedTo !== user.id) {
    throw new AppError("FORBIDDEN", OWN_TASKS_ONLY);
  }
  const assignedTo = user.role === "Admin" ? q.assignedTo : user.id;
  const { items, totalPages } = await listTaskCards(deps.db, { page: q.page, limit: q.limit, assignedTo });
  return {
    items: items.map(({ sourceLanguage, targetLanguage, ...card }) => ({
      ...card,
      pair: { source: sourceLanguage ?? DEFAULT_PAIR.source, target: targetLanguage ?? DEFAULT_PAIR.target },
    })),
    totalPages,
  };
}

/**
 * One task (SPEC §3 Task) with its audio's filename and category, assignee, stage statuses and
 * submission (id and approval statuses). Who may read it follows the audio rule (SPEC §6):
 * admins any task; staff a task assigned or recommended to them, else FORBIDDEN 'You do not
 * have access to this audio.'. Throws NOT_FOUND 'Task not found.' for an unknown (or malformed) id.
 */
export async function getTask(deps: AppDeps, user: SessionUser, taskId: string): Promise<TaskDetail> {
  const task = isUuid(taskId) ? await findTaskDetail(deps.db, taskId) : undefined;
  if (!task) throw new AppError("NOT_FOUND", TASK_NOT_FOUND);
  await requireAudioAccess(deps.db, user, task.audioId);
  return task;
}

/**
 * SPEC §4, §7.1 PUT api/tasks/{id} (admin): sets a task's translation_status and/or
 * recording_status (In Progress or Completed), with is_complete recomputed from the submission's
 * approval statuses (applyTransition), an audit entry and an 'audio.changed' live event, in one
 * transaction (audio and task locked). Throws FORBIDDEN for non-admins, NOT_FOUND 'Task not
 * found.' for an unknown (or malformed) id. Returns the updated task (as tasks.get) and the message.
 */
export async function setTaskStatus(
  deps: AppDeps,
  user: SessionUser,
  input: SetTaskStatusInput,
): Promise<{ message: string; task: TaskDetail }> {
  requireAdmin(user);
  const found = isUuid(input.taskId) ? await findTaskDetail(deps.db, input.taskId) : undefined;
  if (!found) throw new AppError("NOT_FOUND", TASK_NOT_FOUND);
  const patch = {
    ...(input.translationStatus ? { translationStatus: input.translationStatus } : {}),
    ...(input.recordingStatus ? { recordingStatus: input.recordingStatus } : {}),
  };
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, found.audioId);
    if (!task || task.id !== found.id) throw new AppError("NOT_FOUND", TASK_NOT_FOUND);
    const submission = await findSubmissionByTask(trx, task.id);
    if (submission) await applyTransition(trx, task, submission, { submission: {}, task: patch });
    else await updateTask(trx, task.id, { ...patch, isComplete: false });
    await insertAuditEntry(trx, user.id, "set-status", "task", task.id, { audioId: audio.id, ...patch });
    await recordAudioEvent(trx, "audio.changed", audio.id);
    const updated = await findTaskDetail(trx, task.id);
    if (!updated) throw new AppError("NOT_FOUND", TASK_NOT_FOUND);
    return { message: TASK_UPDATED, task: updated };
  });
  return publishAfter(deps, change);
}
