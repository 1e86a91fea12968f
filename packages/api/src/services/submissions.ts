import type { ApprovalStatus, Executor, StageStatus, Submission, SubmissionUpdate, Task } from "@tafsiri/db";
import { updateSubmission } from "@tafsiri/db/repositories/submissions";
import { updateTask } from "@tafsiri/db/repositories/tasks";

/** The task's stage fields a transition may set (SPEC §4). */
export interface StagePatch {
  translationStatus?: StageStatus;
  recordingStatus?: StageStatus;
}

/**
 * `patch` with the review times its status changes imply (decision 011, the team report's period): a
 * transcript or recording that becomes Approved or Rejected is stamped reviewed now, one that
 * becomes Pending or absent has its review time cleared. Statuses the patch leaves alone keep
 * their time.
 */
export function withReviewTimes(patch: SubmissionUpdate, now: Date = new Date()): SubmissionUpdate {
  const reviewedAt = (status: string | undefined) =>
    status === undefined ? undefined : status === "Approved" || status === "Rejected" ? now : null;
  const transcript = reviewedAt(patch.translationScriptApprovalStatus);
  const recording = reviewedAt(patch.recordedAudioApprovalStatus);
  return {
    ...patch,
    ...(transcript === undefined ? {} : { transcriptReviewedAt: transcript }),
    ...(recording === undefined ? {} : { recordingReviewedAt: recording }),
  };
}

/**
 * Applies one SPEC §4 transition: updates the submission and the task's stage statuses in the
 * caller's transaction and recomputes the derived fields from the resulting approval statuses:
 * task.is_complete = transcript Approved AND recording Approved (ARCHITECTURE "Decisions");
 * submission.approval_status = Approved when complete, Rejected when either is Rejected,
 * otherwise Pending; the review times follow the status changes (withReviewTimes). Returns the
 * updated rows.
 */
export async function applyTransition(
  trx: Executor,
  task: Task,
  submission: Submission,
  change: { submission: SubmissionUpdate; task?: StagePatch },
): Promise<{ task: Task; submission: Submission }> {
  const transcript = change.submission.translationScriptApprovalStatus ?? submission.translationScriptApprovalStatus;
  const recording = change.submission.recordedAudioApprovalStatus ?? submission.recordedAudioApprovalStatus;
  const isComplete = transcript === "Approved" && recording === "Approved";
  const approvalStatus: ApprovalStatus = isComplete
    ? "Approved"
    : transcript === "Rejected" || recording === "Rejected"
      ? "Rejected"
      : "Pending";
  const updatedSubmission = await updateSubmission(trx, submission.id, {
    ...withReviewTimes(change.submission),
    approvalStatus,
  });
  const updatedTask = await updateTask(trx, task.id, { ...change.task, isComplete });
  return { task: updatedTask, submission: updatedSubmission };
}
