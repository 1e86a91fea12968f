import type { Executor, Task } from "@tafsiri/db";
import { findAudioForPayload, findSubmissionForPayload } from "@tafsiri/db/repositories/webhook-payloads";
import type { Comment } from "../schemas/comments";

/**
 * Decision 037: each webhook event's `data` holds the thing it is about as the REST API shows it
 * (SPEC §3's field names: `_id`, `task_id`, `assigned_to`, …), read in the change's own
 * transaction, so it is what the change committed. docs/webhooks.md names the REST shape of each.
 */

/**
 * SPEC §3 Submission as GET /api/submissions/{id} shows it (its comments left out: `comment.added`
 * carries each), plus the audio it belongs to (`audio_id`), read in `trx`.
 */
export async function submissionPayload(trx: Executor, submissionId: string): Promise<Record<string, unknown>> {
  const row = await findSubmissionForPayload(trx, submissionId);
  return {
    _id: row.id,
    task_id: row.taskId,
    audio_id: row.audioId,
    submission_date: row.submissionDate.toISOString(),
    translation_script: row.translationScript,
    recorded_audio: row.recordedAudio,
    translation_script_approval_status: row.translationScriptApprovalStatus,
    recorded_audio_approval_status: row.recordedAudioApprovalStatus,
    approval_status: row.approvalStatus,
    recordedBy: row.recordedBy,
  };
}

/** SPEC §3 Task as POST /api/createtask answers it: `{ _id, audio_id, assigned_to }`. */
export function taskPayload(task: Pick<Task, "id" | "audioId" | "assignedTo">): Record<string, unknown> {
  return { _id: task.id, audio_id: task.audioId, assigned_to: task.assignedTo };
}

/**
 * A just uploaded audio as the Manage Audios row of GET /api/audios shows it (SPEC §2.18: not
 * assigned yet), with its languages (decision 035), read in `trx`.
 */
export async function audioPayload(trx: Executor, audioId: string): Promise<Record<string, unknown>> {
  const row = await findAudioForPayload(trx, audioId);
  return {
    _id: row.id,
    filename: row.filename,
    category: row.category,
    assigned_to: null,
    translation_status: null,
    recording_status: null,
    is_complete: null,
    hasTranscript: false,
    duration_seconds: row.durationSeconds,
    participant_code: row.participantCode,
    session_date: row.sessionDate,
    source_language: row.sourceLanguage,
    target_language: row.targetLanguage,
  };
}

/** SPEC §3 Comment as POST /api/submissions/{id}/comments answers it, with its submission and audio. */
export function commentPayload(
  comment: Comment,
  where: { submissionId: string; audioId: string },
): Record<string, unknown> {
  return {
    _id: comment.id,
    text: comment.text,
    postedBy: comment.author ? { _id: comment.author.id, username: comment.author.username } : null,
    postedAt: comment.postedAt,
    submission_id: where.submissionId,
    audio_id: where.audioId,
  };
}
