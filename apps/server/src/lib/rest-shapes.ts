import type { AudioDetail, ManagedAudio } from "@tafsiri/api/schemas/audios";
import type { UserRef } from "@tafsiri/api/schemas/common";
import type { TaskCard, TaskDetail } from "@tafsiri/api/schemas/tasks";

/**
 * Maps procedure results onto the documented REST shapes of SPEC §3 (`_id`, `assigned_to`,
 * `audio_id`, snake_case statuses). Pure functions: no rules, no data access.
 */

/** `{ _id, username }`, or null. */
export function restUserRef(user: UserRef | null): { _id: string; username: string } | null {
  return user ? { _id: user.id, username: user.username } : null;
}

/** SPEC §3 Task, from a task card (§2.8), with the audio and the submission's approval statuses embedded. */
export function restTaskCard(task: TaskCard) {
  return {
    _id: task.id,
    audio_id: { _id: task.audioId, filename: task.filename, category: task.category },
    assigned_to: restUserRef(task.assignedTo),
    translation_status: task.translationStatus,
    recording_status: task.recordingStatus,
    is_complete: task.isComplete,
    submission: {
      translation_script_approval_status: task.transcriptStatus,
      recorded_audio_approval_status: task.recordingApprovalStatus,
    },
  };
}

/** SPEC §3 Task of GET /api/tasks/{id}: a task card whose `submission` also carries its `_id` (null without a submission). */
export function restTask(task: TaskDetail) {
  const card = restTaskCard(task);
  return { ...card, submission: { _id: task.submissionId, ...card.submission } };
}

/** The task embedded in an audio detail, as a SPEC §3 Task (`audio_id` is the audio's id). */
export function restAudioTask(audio: AudioDetail) {
  if (!audio.task) return null;
  return {
    _id: audio.task.id,
    audio_id: audio.id,
    assigned_to: restUserRef(audio.task.assignedTo),
    translation_status: audio.task.translationStatus,
    recording_status: audio.task.recordingStatus,
    is_complete: audio.task.isComplete,
  };
}

/**
 * SPEC §3 Audio from an audio detail (§2.11): `audioUrl` and `transcript` are short-lived signed
 * URLs; `lastOpenedBy` / `timeLastOpened` are filled for admins only.
 */
export function restAudioDetail(audio: AudioDetail) {
  return {
    _id: audio.id,
    filename: audio.filename,
    category: audio.category,
    audioUrl: audio.audioUrl,
    mimeType: audio.mimeType,
    transcript: audio.transcriptUrl,
    task: restAudioTask(audio),
    lastOpenedBy: audio.lastOpened?.username ?? null,
    timeLastOpened: audio.lastOpened?.at ?? null,
  };
}

/** A Manage Audios row (§2.18); task fields are null when the audio is 'Not Assigned'. */
export function restManagedAudio(audio: ManagedAudio) {
  return {
    _id: audio.id,
    filename: audio.filename,
    category: audio.category,
    assigned_to: restUserRef(audio.assignedTo),
    translation_status: audio.translationStatus,
    recording_status: audio.recordingStatus,
    is_complete: audio.isComplete,
    hasTranscript: audio.hasTranscript,
  };
}
