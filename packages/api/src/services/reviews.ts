import type { Submission, SubmissionUpdate } from "@tafsiri/db";
import { lockSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { lockAudioAccess, requireAdmin } from "./access";
import { publishAfter, recordAudioEvent } from "../live/record";
import { notifyAdmins } from "./notifications";
import { applyTransition, type StagePatch } from "./submissions";
import { NOTIFICATION_LINKS } from "./notification-links";

/** What an admin may do with a submitted transcript or recording (SPEC §2.12, §2.13). */
export type ReviewAction = "approve" | "reject" | "remove";

/** The SPEC §4 rules of one reviewed output (the transcript or the recording). */
interface ReviewedOutput {
  entity: string;
  /** Refusal when there is nothing to review. */
  missing: string;
  present(submission: Submission): boolean;
  status(submission: Submission): string;
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

/**
 * An admin approves, rejects or deletes the transcript or recording of an audio (SPEC §4), in one
 * transaction with is_complete recomputed, a notification to every active admin
 * ('{username} approved the recorded audio for {filename}', ...), an audit entry and the live
 * events (the admins' notifications; 'audio.changed' for admins and the audio's staff).
 * Throws FORBIDDEN for non-admins, NOT_FOUND 'Audio not found.', BAD_REQUEST with the output's
 * 'nothing submitted' message. Returns the new approval status and the success message.
 */
export async function reviewOutput(
  deps: AppDeps,
  user: SessionUser,
  output: ReviewedOutput,
  audioId: string,
  action: ReviewAction,
): Promise<{ status: string; message: string }> {
  requireAdmin(user);
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, audioId);
    const submission = task ? await lockSubmissionByTask(trx, task.id) : undefined;
    if (!task || !submission || !output.present(submission)) {
      throw new AppError("BAD_REQUEST", output.missing);
    }
    const result = await applyTransition(trx, task, submission, output.changes[action]);
    const status = output.status(result.submission);
    await notifyAdmins(trx, {
      senderId: user.id,
      message: `${user.username} ${output.notices[action]} for ${audio.filename}`,
      link: output.link,
      audioId: audio.id,
    });
    await insertAuditEntry(trx, user.id, action, output.entity, submission.id, { audioId: audio.id, status });
    await recordAudioEvent(trx, "audio.changed", audio.id);
    return { status, message: output.messages[action] };
  });
  return publishAfter(deps, change);
}
