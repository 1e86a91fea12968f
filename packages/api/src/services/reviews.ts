import type { RecordingStatus, Submission, SubmissionUpdate, TranscriptStatus } from "@tafsiri/db";
import {
  findSubmissionByTask,
  findSubmissionWithAudio,
  updateSubmissionIfStatus,
  type SubmissionStatusColumn,
} from "@tafsiri/db/repositories/submissions";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { insertComment } from "@tafsiri/db/repositories/comments";
import { insertReview } from "@tafsiri/db/repositories/reviews";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { isUuid } from "../schemas/common";
import { lockAudioAccess, requireAdmin } from "./access";
import { publishAfter, recordAudioEvent } from "../live/record";
import { submissionPayload } from "../webhooks/payloads";
import { recordWebhookEvent } from "../webhooks/record-webhook-event";
import { notifyAdmins, notifyUser } from "./notifications";
import { applyTransition, withReviewTimes, type StagePatch } from "./submissions";
import { recordReviewedTranslation } from "../translation/memory";
import { NOTIFICATION_LINKS } from "./notification-links";
import { moveTask, requireReassignee } from "./tasks";

export const SUBMISSION_NOT_FOUND = "Submission not found.";
/** Decision 025: 'Reassign to…' comes with a rejection only. */
/** Decision 025: reassigning goes with a rejection only. */
export const REASSIGN_ONLY_ON_REJECT = "Only a rejection can reassign the task.";

/** What an admin may do with a submitted transcript or recording (SPEC §2.12, §2.13). */
export type ReviewAction = "approve" | "reject" | "remove";

/** The SPEC §4 rules of one reviewed output (the transcript or the recording). */
interface ReviewedOutput {
  entity: "transcript" | "recording";
  /** The submission column holding this output's approval status. */
  column: SubmissionStatusColumn;
  /** Refusal when there is nothing to review. */
  missing: string;
  present(submission: Submission): boolean;
  status(submission: Submission): TranscriptStatus | RecordingStatus;
  changes: Record<ReviewAction, { submission: SubmissionUpdate; task: StagePatch }>;
  messages: Record<ReviewAction, string>;
  /** Notification text after the username, before ' for {filename}'. */
  notices: Record<ReviewAction, string>;
  link: string;
}

/**
 * SPEC §4 transcript approval: Approve → Approved, translation_status Completed; Reject →
 * Rejected, In Progress; Delete → translation_script cleared, 'No transcript', In Progress.
 * Earlier .cha files stay in storage and in transcript_versions (history).
 */
export const TRANSCRIPT_REVIEW: ReviewedOutput = {
  entity: "transcript",
  column: "translationScriptApprovalStatus",
  missing: "No transcript submitted yet.",
  present: (s) => s.translationScript !== null,
  status: (s) => s.translationScriptApprovalStatus,
  changes: {
    approve: { submission: { translationScriptApprovalStatus: "Approved" }, task: { translationStatus: "Completed" } },
    reject: { submission: { translationScriptApprovalStatus: "Rejected" }, task: { translationStatus: "In Progress" } },
    remove: {
      submission: { translationScript: null, translationScriptApprovalStatus: "No transcript" },
      task: { translationStatus: "In Progress" },
    },
  },
  messages: {
    approve: "Transcript approved successfully.",
    reject: "Transcript rejected successfully.",
    remove: "Transcript deleted successfully.",
  },
  notices: { approve: "approved the transcript", reject: "rejected the transcript", remove: "deleted the transcript" },
  link: NOTIFICATION_LINKS.transcript,
};

/**
 * SPEC §4 recording approval: Approve → Approved, recording_status Completed; Reject → Rejected,
 * In Progress; Delete → recorded_audio cleared, 'No translation audio', In Progress. The deleted
 * recording's file stays in storage with its translated_recordings row (history); it is removed
 * with the audio.
 */
export const RECORDING_REVIEW: ReviewedOutput = {
  entity: "recording",
  column: "recordedAudioApprovalStatus",
  missing: "No submission yet",
  present: (s) => s.recordedAudio !== null,
  status: (s) => s.recordedAudioApprovalStatus,
  changes: {
    approve: { submission: { recordedAudioApprovalStatus: "Approved" }, task: { recordingStatus: "Completed" } },
    reject: { submission: { recordedAudioApprovalStatus: "Rejected" }, task: { recordingStatus: "In Progress" } },
    remove: {
      submission: { recordedAudio: null, recordedAudioApprovalStatus: "No translation audio" },
      task: { recordingStatus: "In Progress" },
    },
  },
  messages: {
    approve: "Translation Audio file approved successfully.",
    reject: "Translation Audio file rejected successfully.",
    remove: "Translation Audio file deleted successfully.",
  },
  notices: {
    approve: "approved the recorded audio",
    reject: "rejected the recorded audio",
    remove: "deleted the recorded audio",
  },
  link: NOTIFICATION_LINKS.translatedAudio,
};

/** A review as the reviewer asked it: the audio, the status they saw and (rejections) why. */
export interface ReviewRequest {
  audioId: string;
  /** The status the reviewer acted on; left out: Pending for approve and reject, the current status for delete. */
  expectedStatus?: TranscriptStatus | RecordingStatus | undefined;
  /** Why it was rejected (already trimmed and at most 1,000 characters); ignored for approve and delete. */
  reason?: string | undefined;
  /**
   * Decision 025 'Reassign to…': with a rejection, the active Staff member the task moves to
   * (left out: 'Return to {assignee}', the task stays). Refused with approve and delete.
   */
  reassignTo?: string | undefined;
  /** Decision 035: with a transcript rejection, the grid's segments to fix and what to fix in each. */
  segments?: { id: string; note: string }[] | undefined;
}

/** The status an action sets (undefined for delete, which may act on any present status). */
function targetStatus(output: ReviewedOutput, action: ReviewAction): string | undefined {
  return action === "remove" ? undefined : (output.changes[action].submission[output.column] ?? undefined);
}

/**
 * CONFLICT for a review whose expected status no longer holds, naming the current status:
 * 'The transcript is already Approved.' when it already has the status the action sets,
 * otherwise 'The transcript is now Rejected; refresh and try again.' (or '… has been deleted; …').
 */
function staleReview(output: ReviewedOutput, action: ReviewAction, current: Submission | undefined): AppError {
  if (!current || !output.present(current)) {
    return new AppError("CONFLICT", `The ${output.entity} has been deleted; refresh and try again.`);
  }
  const status = output.status(current);
  if (status === targetStatus(output, action)) {
    return new AppError("CONFLICT", `The ${output.entity} is already ${status}.`);
  }
  return new AppError("CONFLICT", `The ${output.entity} is now ${status}; refresh and try again.`);
}

/**
 * The notification text '{username} rejected the transcript for {filename}[{moved}][: {reason}]',
 * `moved` being ' and assigned it to you' or ' and reassigned it to {new}' (decision 025).
 */
function reviewNotice(
  user: SessionUser,
  output: ReviewedOutput,
  action: ReviewAction,
  filename: string,
  reason?: string,
  moved = "",
): string {
  return `${user.username} ${output.notices[action]} for ${filename}${moved}${reason ? `: ${reason}` : ""}`;
}

/**
 * An admin approves, rejects or deletes the transcript or recording of an audio (SPEC §4). The
 * status changes only from the one the reviewer acted on (`expectedStatus`; by default Pending
 * for approve and reject, the current status for delete), through one conditional UPDATE of the
 * submission (updateSubmissionIfStatus), so of two racing reviews exactly one wins (the audio
 * and task rows stay locked too, so a transcript and a recording review of one task never
 * compute is_complete from each other's stale status); an approval or rejection stamps the
 * output's review time, a deletion clears it (withReviewTimes). The winner,
 * in the same transaction: stage status and is_complete recomputed, a notification to every
 * active admin ('{username} approved the recorded audio for {filename}', ...), for approve and
 * reject one to the task's assignee (with ': {reason}' after a rejection with a reason, the
 * reason also stored as the admin's comment on the submission), for approve and reject a row in
 * `reviews` naming the version judged (decision 025), an audit entry and the live
 * events (the notifications; 'audio.changed' for admins and the audio's staff).
 * A rejection with `reassignTo` (decision 025 'Reassign to…') also moves the task to that staff
 * member in the same transaction (moveTask: submission, versions and comments stay; audit entry
 * 'reassign' on the task with from, to and the review), and instead of the assignee's notice
 * sends the new assignee '{admin} rejected the transcript for {filename} and assigned it to
 * you[: {reason}]' and the previous one '… and reassigned it to {new}[: {reason}]' (linking to
 * their Tasks page, as they may no longer open the audio); the previous assignee gets the live
 * 'audio.changed' too. Its message then ends ' The task is now assigned to {new}.'.
 * Throws FORBIDDEN for non-admins, NOT_FOUND 'Audio not found.', BAD_REQUEST with the output's
 * 'nothing submitted' message, BAD_REQUEST 'Please select a staff member to reassign.' (not an
 * active Staff account), 'This audio is already assigned to this staff member.' or 'Only a
 * rejection can reassign the task.', CONFLICT 'The transcript is already Approved.' / 'The
 * transcript is now Rejected; refresh and try again.' when the expected status does not hold
 * (nothing is written on any error). Returns the new approval status and the success message.
 */
export async function reviewOutput(
  deps: AppDeps,
  user: SessionUser,
  output: ReviewedOutput,
  request: ReviewRequest,
  action: ReviewAction,
): Promise<{ status: string; message: string }> {
  requireAdmin(user);
  if (request.reassignTo !== undefined && action !== "reject") {
    throw new AppError("BAD_REQUEST", REASSIGN_ONLY_ON_REJECT);
  }
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, request.audioId);
    const submission = task ? await findSubmissionByTask(trx, task.id) : undefined;
    if (!task || !submission || !output.present(submission)) {
      const absent = submission ? output.status(submission) : undefined;
      if (submission && request.expectedStatus !== undefined && request.expectedStatus !== absent) {
        throw staleReview(output, action, submission);
      }
      throw new AppError("BAD_REQUEST", output.missing);
    }
    const reassignee = request.reassignTo !== undefined ? await requireReassignee(trx, task, request.reassignTo) : null;
    const expected = request.expectedStatus ?? (action === "remove" ? output.status(submission) : "Pending");
    if (expected === targetStatus(output, action)) throw staleReview(output, action, submission);
    const won = await updateSubmissionIfStatus(
      trx,
      submission.id,
      { column: output.column, expected },
      withReviewTimes(output.changes[action].submission),
    );
    if (!won) throw staleReview(output, action, await findSubmissionByTask(trx, task.id));
    const result = await applyTransition(trx, task, won, { submission: {}, task: output.changes[action].task });
    const status = output.status(result.submission);
    if (output.entity === "transcript") {
      await recordReviewedTranslation(trx, audio, task, action, action === "reject" ? (request.segments ?? []) : []);
    }
    const reason = action === "reject" && request.reason ? request.reason : undefined;
    if (reason) await insertComment(trx, { submissionId: submission.id, text: reason, postedBy: user.id });
    if (action !== "remove") {
      await insertReview(trx, {
        submissionId: submission.id,
        output: output.entity,
        action,
        reviewerId: user.id,
        reason,
      });
    }
    await notifyAdmins(trx, {
      senderId: user.id,
      message: reviewNotice(user, output, action, audio.filename),
      link: output.link,
      audioId: audio.id,
    });
    if (reassignee) {
      await notifyUser(trx, {
        recipientId: reassignee.id,
        senderId: user.id,
        message: reviewNotice(user, output, action, audio.filename, reason, " and assigned it to you"),
        link: output.link,
        audioId: audio.id,
      });
      await notifyUser(trx, {
        recipientId: task.assignedTo,
        senderId: user.id,
        message: reviewNotice(
          user,
          output,
          action,
          audio.filename,
          reason,
          ` and reassigned it to ${reassignee.username}`,
        ),
        link: NOTIFICATION_LINKS.tasks,
        audioId: audio.id,
      });
    } else if (action !== "remove") {
      await notifyUser(trx, {
        recipientId: task.assignedTo,
        senderId: user.id,
        message: reviewNotice(user, output, action, audio.filename, reason),
        link: output.link,
        audioId: audio.id,
      });
    }
    await insertAuditEntry(trx, user.id, action, output.entity, submission.id, {
      audioId: audio.id,
      status,
      from: expected,
      ...(reason ? { reason } : {}),
      ...(reassignee ? { reassignedTo: reassignee.id } : {}),
    });
    if (reassignee) {
      await moveTask(trx, user, result.task, reassignee, {
        audioId: audio.id,
        review: { output: output.entity, action, submissionId: submission.id },
      });
    }
    await recordAudioEvent(trx, "audio.changed", audio.id, reassignee ? { alsoTo: [task.assignedTo] } : {});
    if (action !== "remove") {
      await recordWebhookEvent(trx, `${output.entity}.${action === "approve" ? "approved" : "rejected"}`, async () => ({
        submission: await submissionPayload(trx, submission.id),
        review: { status, reviewed_by: user.id, reason: reason ?? null, reassigned_to: reassignee?.id ?? null },
      }));
    }
    const moved = reassignee ? ` The task is now assigned to ${reassignee.username}.` : "";
    return { status, message: `${output.messages[action]}${moved}` };
  });
  return publishAfter(deps, change);
}

/** Which output of a submission a REST review acts on. */
export type ReviewedKind = "transcript" | "recording";

/**
 * SPEC §7.1 PUT /api/updatesubmissions/{id}/{x}: reviewOutput for the audio of submission
 * `submissionId` (found through its task), acting as `user`. Same rules, answers and errors as
 * reviewOutput, plus NOT_FOUND 'Submission not found.' for an unknown (or malformed) id;
 * FORBIDDEN for non-admins comes first. Returns the new approval status and the success message.
 */
export async function reviewSubmission(
  deps: AppDeps,
  user: SessionUser,
  submissionId: string,
  kind: ReviewedKind,
  action: ReviewAction,
  request: Omit<ReviewRequest, "audioId">,
): Promise<{ status: string; message: string }> {
  requireAdmin(user);
  const found = isUuid(submissionId) ? await findSubmissionWithAudio(deps.db, submissionId) : undefined;
  if (!found) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
  const output = kind === "transcript" ? TRANSCRIPT_REVIEW : RECORDING_REVIEW;
  return reviewOutput(deps, user, output, { ...request, audioId: found.audioId }, action);
}
