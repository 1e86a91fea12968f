import { z } from "zod";
import { ZParticipantBrief } from "./participants";
import {
  ZAudioIdInput,
  ZCategory,
  ZDurationSeconds,
  ZPageInput,
  ZStageStatus,
  ZUserRef,
  ZWaveform,
  page,
} from "./common";

/** SPEC §2.11 Audio view: one audio with signed URLs for its file and initial transcript. */
export const ZAudioDetail = z.object({
  id: z.string(),
  filename: z.string(),
  category: ZCategory,
  /** Short-lived signed URL of the audio file (supports Range). */
  audioUrl: z.string(),
  mimeType: z.string(),
  /** Its waveform: peaks to draw and the duration, so the player streams the file instead of decoding it. */
  waveform: ZWaveform,
  /** Signed URL of the initial transcript's plain text, or null when none was uploaded. */
  transcriptUrl: z.string().nullable(),
  task: z
    .object({
      id: z.string(),
      assignedTo: ZUserRef.nullable(),
      translationStatus: ZStageStatus,
      recordingStatus: ZStageStatus,
      isComplete: z.boolean(),
    })
    .nullable(),
  /** Admins only (null for staff): who opened it last (user id and username) and when (ISO time). */
  lastOpened: z.object({ id: z.string(), username: z.string(), at: z.string() }).nullable(),
  /** Decision 024: the participant it records, as much as staff may see (code, group, age then); null when not linked. */
  participant: ZParticipantBrief.nullable(),
  /** Decision 024: the recording session's day (YYYY-MM-DD), null when not known. */
  sessionDate: z.string().nullable(),
});
export type AudioDetail = z.infer<typeof ZAudioDetail>;

export const ZListAudiosInput = ZPageInput.extend({
  category: ZCategory,
  limit: z.number().int().min(1).max(100).default(50),
});

/** SPEC §2.18 Manage Audios row. Task fields are null when the audio is 'Not Assigned'. */
const ZManagedAudio = z.object({
  id: z.string(),
  filename: z.string(),
  category: ZCategory,
  assignedTo: ZUserRef.nullable(),
  translationStatus: ZStageStatus.nullable(),
  recordingStatus: ZStageStatus.nullable(),
  isComplete: z.boolean().nullable(),
  hasTranscript: z.boolean(),
  /** Seconds; null while not known yet (the 'Duration' column shows '—'). */
  durationSeconds: ZDurationSeconds,
  /** Decision 024: the linked participant's code and the session day; null when not linked. */
  participantCode: z.string().nullable(),
  sessionDate: z.string().nullable(),
  /** Decision 035: the audio's own source and target languages (ISO 639-3); null for the programme's. */
  sourceLanguage: z.string().nullable(),
  targetLanguage: z.string().nullable(),
});
export type ManagedAudio = z.infer<typeof ZManagedAudio>;
export const ZManagedAudioPage = page(ZManagedAudio);

/** SPEC §2.17 Assign Tasks row: an audio without a task, with its duration in seconds (null while not known). */
const ZUnassignedAudio = z.object({ id: z.string(), filename: z.string(), durationSeconds: ZDurationSeconds });
export const ZUnassignedAudioPage = page(ZUnassignedAudio);

export const ZDeleteAudioOutput = z.object({ message: z.string() });
export { ZAudioIdInput };
