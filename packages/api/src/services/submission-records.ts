/**
 * Reading and creating submission records for the REST paths of SPEC §7.1 (createsubmissions,
 * submissions/{id}, checksubmissions/{id}, submissions/{id}/comments). The transitions that
 * change a submission's statuses live in ./submissions (applyTransition).
 */
import type { Executor, Submission } from "@tafsiri/db";
import {
  ensureSubmission,
  findSubmissionByTask,
  findSubmissionWithAudio,
  lockSubmissionByTask,
} from "@tafsiri/db/repositories/submissions";
import { listSubmissions } from "@tafsiri/db/repositories/submission-list";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import type { Comment, AddSubmissionCommentInput } from "../schemas/comments";
import type {
  EnsureSubmissionInput,
  ListSubmissionsInput,
  SubmissionCheck,
  SubmissionDetail,
  SubmissionListPage,
} from "../schemas/submissions";
import { AppError } from "../errors/app-error";
import { isUuid } from "../schemas/common";
import { lockAudioAccess, requireAudioAccess } from "./access";
import { commentsOf, writeComment } from "./comments";
import { getTask, TASK_NOT_FOUND } from "./tasks";
import { publishAfter, recordAudioEvent } from "../live/record";

const SUBMISSION_NOT_FOUND = "Submission not found.";
const OWN_SUBMISSIONS_ONLY = "You may only list your own submissions.";

/** A submission as procedures answer it, with its comments (oldest first). */
async function submissionDetail(db: Executor, submission: Submission, audioId: string): Promise<SubmissionDetail> {
  return {
    id: submission.id,
    taskId: submission.taskId,
    audioId,
    submissionDate: submission.submissionDate.toISOString(),
    translationScript: submission.translationScript,
    recordedAudio: submission.recordedAudio,
    transcriptStatus: submission.translationScriptApprovalStatus,
    recordingApprovalStatus: submission.recordedAudioApprovalStatus,
    approvalStatus: submission.approvalStatus,
    recordedBy: submission.recordedBy,
    comments: await commentsOf(db, submission.id),
  };
}

/**
 * Submission `submissionId` with its audio's id, when the caller may open that audio (the
 * ownership rule of requireAudioAccess). Throws NOT_FOUND 'Submission not found.' for an
 * unknown id, FORBIDDEN 'You do not have access to this audio.'.
 */
async function requireSubmission(
  db: Executor,
  user: SessionUser,
  submissionId: string,
): Promise<Submission & { audioId: string }> {
  const submission = isUuid(submissionId) ? await findSubmissionWithAudio(db, submissionId) : undefined;
  if (!submission) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
  await requireAudioAccess(db, user, submission.audioId);
  return submission;
}

/**
 * SPEC §3, §7.1 GET /api/submissions/{id}: one submission with its comments. Admins any; staff
 * one of an audio they may open. Throws NOT_FOUND 'Submission not found.', FORBIDDEN 'You do not
 * have access to this audio.'.
 */
export async function getSubmission(deps: AppDeps, user: SessionUser, submissionId: string): Promise<SubmissionDetail> {
  const submission = await requireSubmission(deps.db, user, submissionId);
  return submissionDetail(deps.db, submission, submission.audioId);
}

/**
 * SPEC §7.1 GET /api/checksubmissions/{id}: whether task `taskId` has a submission, and that
 * submission (null when none). Throws NOT_FOUND 'Task not found.', FORBIDDEN (see getTask).
 */
export async function checkTaskSubmission(deps: AppDeps, user: SessionUser, taskId: string): Promise<SubmissionCheck> {
  const task = await getTask(deps, user, taskId);
  const submission = await findSubmissionByTask(deps.db, task.id);
  return submission
    ? { exists: true, submission: await submissionDetail(deps.db, submission, task.audioId) }
    : { exists: false, submission: null };
}

/**
 * SPEC §3, §7.1 POST /api/createsubmissions: the submission of task `taskId` (one per task: an
 * existing one is returned as is), created by the caller when there is none; the caller must be
 * allowed to open the task's audio. A non-blank `comment` is added by the caller as with
 * comments.add (notification to the other side). A new submission's audit entry, the comment
 * and an 'audio.changed' live event commit in one transaction. Throws NOT_FOUND 'Task not
 * found.', FORBIDDEN 'You do not have access to this audio.'. Returns the submission with its comments.
 */
export async function ensureTaskSubmission(
  deps: AppDeps,
  user: SessionUser,
  input: EnsureSubmissionInput,
): Promise<SubmissionDetail> {
  const found = await getTask(deps, user, input.taskId);
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, found.audioId);
    if (!task || task.id !== found.id) throw new AppError("NOT_FOUND", TASK_NOT_FOUND);
    const existing = await lockSubmissionByTask(trx, task.id);
    const submission = existing ?? (await ensureSubmission(trx, task.id, user.id));
    if (!existing) {
      await insertAuditEntry(trx, user.id, "create", "submission", submission.id, {
        taskId: task.id,
        audioId: audio.id,
      });
    }
    if (input.comment) await writeComment(trx, user, { audio, task, submissionId: submission.id }, input.comment);
    if (!existing || input.comment) await recordAudioEvent(trx, "audio.changed", audio.id);
    return submissionDetail(trx, submission, audio.id);
  });
  return publishAfter(deps, change);
}

/**
 * SPEC §7.1 POST /api/submissions/{id}/comments: adds a comment by the caller (always the author)
 * to submission `submissionId`, as comments.add does for its audio (audit entry, notification to
 * the other side, 'audio.changed', one transaction). Throws NOT_FOUND 'Submission not found.',
 * FORBIDDEN 'You do not have access to this audio.'. Returns the comment and the sentence said
 * ('Comment added.').
 */
export async function addSubmissionComment(
  deps: AppDeps,
  user: SessionUser,
  input: AddSubmissionCommentInput,
): Promise<Comment & { message: string }> {
  const { audioId } = await requireSubmission(deps.db, user, input.submissionId);
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, audioId);
    const submission = task ? await lockSubmissionByTask(trx, task.id) : undefined;
    if (!task || submission?.id !== input.submissionId) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
    const comment = await writeComment(trx, user, { audio, task, submissionId: submission.id }, input.text);
    await recordAudioEvent(trx, "audio.changed", audio.id);
    return { ...comment, message: "Comment added." };
  });
  return publishAfter(deps, change);
}

/**
 * SPEC §2.7, §5, §7.1 Submissions list (GET /api/submissions, /api/usersubmissions/{id}): one page
 * of `limit` (20 by default), newest change first, filtered by `status`, with the count of every
 * filter. Admins see every submission (or `userId`'s: those of tasks assigned to that user);
 * staff their own, and FORBIDDEN 'You may only list your own submissions.' for another `userId`.
 */
export async function listSubmissionPage(
  deps: AppDeps,
  user: SessionUser,
  q: ListSubmissionsInput,
): Promise<SubmissionListPage> {
  if (user.role !== "Admin" && q.userId !== undefined && q.userId !== user.id) {
    throw new AppError("FORBIDDEN", OWN_SUBMISSIONS_ONLY);
  }
  const assignedTo = user.role === "Admin" ? q.userId : user.id;
  const result = await listSubmissions(deps.db, { assignedTo, filter: q.status, page: q.page, limit: q.limit });
  return {
    ...result,
    items: result.items.map((row) => ({
      ...row,
      submissionDate: row.submissionDate.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    })),
  };
}
