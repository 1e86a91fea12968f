import { findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { findTranslatedRecording } from "@tafsiri/db/repositories/translated-recordings";
import type { AppDeps, SessionUser } from "../context";
import type { Recording } from "../schemas/recordings";
import { requireAudioAccess } from "./access";
import { signFileUrl } from "./file-urls";
import { waveformOf } from "../waveforms/waveform-info";

/**
 * SPEC §2.13: the current translated recording of an audio the caller may see: approval status
 * ('No translation audio' when there is none), signed URL, MIME type, waveform, recorder and upload time.
 * Throws NOT_FOUND / FORBIDDEN (see requireAudioAccess).
 */
export async function getRecording(deps: AppDeps, user: SessionUser, audioId: string): Promise<Recording> {
  const { task } = await requireAudioAccess(deps.db, user, audioId);
  const submission = task ? await findSubmissionByTask(deps.db, task.id) : undefined;
  const recording = submission?.recordedAudio
    ? await findTranslatedRecording(deps.db, submission.id, submission.recordedAudio)
    : undefined;
  return {
    status: submission?.recordedAudioApprovalStatus ?? "No translation audio",
    url: recording ? signFileUrl(deps.jwtSecret, recording.fileKey) : null,
    mimeType: recording?.mimeType ?? null,
    waveform: recording ? waveformOf(deps.jwtSecret, recording) : null,
    recordedBy:
      recording?.recordedById && recording.recordedByUsername
        ? { id: recording.recordedById, username: recording.recordedByUsername }
        : null,
    uploadedAt: recording?.createdAt.toISOString() ?? null,
  };
}
