import type { Category } from "@tafsiri/db";
import {
  deleteAudio as deleteAudioRow,
  findAudioDetail,
  listAudioFileKeys,
  listAudiosWithTasks,
  listUnassignedAudios,
  setLastOpened,
  type UnassignedAudioRow,
} from "@tafsiri/db/repositories/audios";
import type { Page } from "@tafsiri/db/repositories/pagination";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import type { AudioDetail, ManagedAudio } from "../schemas/audios";
import { AppError } from "../errors/app-error";
import { AUDIO_NOT_FOUND, lockAudioAccess, requireAdmin, requireAudioAccess } from "./access";
import { audioAudience, publishAfter, recordAudioEvent } from "../live/record";
import { signFileUrl } from "./file-urls";
import { waveformOf } from "../waveforms/waveform-info";
import { dayIn } from "./participants";
import { participantBrief } from "./audio-participants";

const AUDIO_DELETED = "Audio deleted successfully.";

/**
 * SPEC §2.11: one audio the caller may see, with signed URLs (file and initial transcript), its
 * waveform (peaks URL and duration, ARCHITECTURE "Long recordings"), its task, its session day and
 * participant brief (decision 024: code, group, age in months at the session day or the upload
 * day in APP_TIMEZONE; nothing else of the participant) and, for admins only, who opened it last and when (ISO time; null for staff).
 * Throws NOT_FOUND 'Audio not found.' / FORBIDDEN 'You do not have access to this audio.'.
 */
export async function getAudio(deps: AppDeps, user: SessionUser, audioId: string): Promise<AudioDetail> {
  await requireAudioAccess(deps.db, user, audioId);
  const row = await findAudioDetail(deps.db, audioId);
  if (!row) throw new AppError("NOT_FOUND", AUDIO_NOT_FOUND);
  return {
    id: row.id,
    filename: row.filename,
    category: row.category,
    audioUrl: signFileUrl(deps.jwtSecret, row.fileKey),
    mimeType: row.mimeType,
    waveform: waveformOf(deps.jwtSecret, row),
    transcriptUrl: row.transcriptKey ? signFileUrl(deps.jwtSecret, row.transcriptKey) : null,
    task:
      row.taskId && row.translationStatus && row.recordingStatus && row.isComplete !== null
        ? {
            id: row.taskId,
            assignedTo:
              row.assignedToId && row.assignedToUsername
                ? { id: row.assignedToId, username: row.assignedToUsername }
                : null,
            translationStatus: row.translationStatus,
            recordingStatus: row.recordingStatus,
            isComplete: row.isComplete,
          }
        : null,
    lastOpened:
      user.role === "Admin" && row.lastOpenedById && row.lastOpenedByUsername && row.timeLastOpened
        ? { id: row.lastOpenedById, username: row.lastOpenedByUsername, at: row.timeLastOpened.toISOString() }
        : null,
    participant:
      row.participantCode && row.participantGroup
        ? participantBrief(
            {
              code: row.participantCode,
              studyGroup: row.participantGroup,
              birthDate: row.participantBirthDate,
              ageMonths: row.participantAgeMonths,
              ageRecordedOn: row.participantAgeRecordedOn,
            },
            row.sessionDate ?? dayIn(deps.timezone ?? "UTC", row.createdAt),
          )
        : null,
    sessionDate: row.sessionDate,
  };
}

/**
 * SPEC §4: the caller selected an audio. For an admin, records lastOpenedBy and timeLastOpened
 * (with an audit entry); for staff, changes nothing. Both need access to the audio
 * (NOT_FOUND / FORBIDDEN). Returns { ok: true }.
 */
export async function markAudioOpened(deps: AppDeps, user: SessionUser, audioId: string): Promise<{ ok: boolean }> {
  await deps.db.transaction().execute(async (trx) => {
    const { audio } = await requireAudioAccess(trx, user, audioId);
    if (user.role !== "Admin") return;
    await setLastOpened(trx, audio.id, user.id, new Date());
    await insertAuditEntry(trx, user.id, "open", "audio", audio.id);
  });
  return { ok: true };
}

/**
 * SPEC §2.18 Manage Audios: one page of a category's audios with their task, duration (seconds, null
 * while not known), linked participant's code and session day (decision 024) and own languages
 * (decision 035; null for the programme's), newest first, in one statement (admin).
 */
export function listManagedAudios(
  deps: AppDeps,
  user: SessionUser,
  q: { category: Category; page: number; limit: number },
): Promise<Page<ManagedAudio>> {
  requireAdmin(user);
  return listAudiosWithTasks(deps.db, q);
}

/**
 * SPEC §2.17 Assign Tasks: one page of a category's audios without a task, by filename, each with
 * its duration in seconds (null while not known) (admin).
 */
export function listUnassigned(
  deps: AppDeps,
  user: SessionUser,
  q: { category: Category; page: number; limit: number },
): Promise<Page<UnassignedAudioRow>> {
  requireAdmin(user);
  return listUnassignedAudios(deps.db, q);
}

/**
 * SPEC §2.18 Delete (admin): deletes the audio; its task, submission, transcript versions,
 * recordings, comments and recommendations go with it (cascade); notifications stay
 * (ARCHITECTURE). An 'audio.deleted' live event goes to the admins and to the staff who could
 * open it. After the commit its files are removed from storage: the audio, the initial
 * transcript, every transcript version and every recording. Throws NOT_FOUND 'Audio not found.'.
 */
export async function deleteAudio(deps: AppDeps, user: SessionUser, audioId: string): Promise<{ message: string }> {
  requireAdmin(user);
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio } = await lockAudioAccess(trx, user, audioId);
    const fileKeys = await listAudioFileKeys(trx, audio.id);
    const staffIds = await audioAudience(trx, audio.id);
    await deleteAudioRow(trx, audio.id);
    await insertAuditEntry(trx, user.id, "delete", "audio", audio.id, {
      filename: audio.filename,
      files: fileKeys.length,
    });
    await recordAudioEvent(trx, "audio.deleted", audio.id, { staffIds });
    return fileKeys;
  });
  const keys = await publishAfter(deps, change);
  await Promise.allSettled([...new Set(keys)].map((key) => deps.storage.delete(key)));
  return { message: AUDIO_DELETED };
}
