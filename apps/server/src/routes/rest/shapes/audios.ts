import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID, EXAMPLE_USER_ID, ZRestDurationSeconds, ZRestUserRef, restUserRef } from "./common";
import { ZRestParticipantBrief, restParticipantBrief } from "./participants";
import { CATEGORIES, type Category } from "@tafsiri/domain";

type AudioDetail = RouterOutputs["audios"]["get"];
type ManagedAudio = RouterOutputs["audios"]["list"]["items"][number];
type UnassignedAudio = RouterOutputs["audios"]["unassigned"]["items"][number];

const ZCategory = z.enum(CATEGORIES);

/** The task embedded in an audio (SPEC §3 Task; `audio_id` is the audio's id), or null. */
const ZRestAudioTask = z
  .object({
    _id: z.string(),
    audio_id: z.string(),
    assigned_to: ZRestUserRef,
    translation_status: z.string(),
    recording_status: z.string(),
    is_complete: z.boolean(),
  })
  .nullable();

/**
 * SPEC §3 Audio (§2.11): `audioUrl` and `transcript` are short-lived signed URLs;
 * `lastOpenedBy` (the user id, as SPEC §3 has it), `lastOpenedByUsername` and `timeLastOpened` are
 * filled for admins only; `duration_seconds` is null while the file's length is not known.
 */
export const ZRestAudio = z
  .object({
    _id: z.string(),
    filename: z.string(),
    category: ZCategory,
    audioUrl: z.string(),
    mimeType: z.string(),
    duration_seconds: ZRestDurationSeconds,
    transcript: z.string().nullable(),
    task: ZRestAudioTask,
    lastOpenedBy: z
      .string()
      .nullable()
      .meta({ description: "SPEC §3: the id of the user who opened it last (admins only; null for staff or nobody)." }),
    lastOpenedByUsername: z
      .string()
      .nullable()
      .meta({ description: "The username of `lastOpenedBy` (admins only; null for staff or nobody)." }),
    timeLastOpened: z.string().nullable(),
    /** Decision 024: the participant it records as staff may see it (code, group, age at the session), or null. */
    participant: ZRestParticipantBrief,
    session_date: z.string().nullable(),
  })
  .meta({
    examples: [
      {
        _id: EXAMPLE_ID,
        filename: "interview-07",
        category: "Control",
        audioUrl: "/files/audios/interview-07.wav?expires=1795000000&signature=3q2-7w",
        mimeType: "audio/wav",
        duration_seconds: 3723.4,
        transcript: null,
        task: {
          _id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
          audio_id: EXAMPLE_ID,
          assigned_to: { _id: EXAMPLE_USER_ID, username: "amina" },
          translation_status: "In Progress",
          recording_status: "In Progress",
          is_complete: false,
        },
        lastOpenedBy: "1c9d8e7f-6a5b-4c3d-8e2f-0a1b2c3d4e5f",
        lastOpenedByUsername: "admin",
        timeLastOpened: "2026-11-23T09:30:00.000Z",
        participant: { code: "P0042", group: "Control", age_months_at_recording: 866 },
        session_date: "2026-03-02",
      },
    ],
  });

/** A Manage Audios row (SPEC §2.18); task fields are null when the audio is 'Not Assigned'. */
export const ZRestManagedAudio = z.object({
  _id: z.string(),
  filename: z.string(),
  category: ZCategory,
  assigned_to: ZRestUserRef,
  translation_status: z.string().nullable(),
  recording_status: z.string().nullable(),
  is_complete: z.boolean().nullable(),
  hasTranscript: z.boolean(),
  duration_seconds: ZRestDurationSeconds,
  /** Decision 024: the linked participant's code and the session day; null when not linked. */
  participant_code: z.string().nullable(),
  session_date: z.string().nullable(),
});
export const ZRestManagedAudioList = z.array(ZRestManagedAudio).meta({
  examples: [
    [
      {
        _id: EXAMPLE_ID,
        filename: "interview-07",
        category: "Control",
        assigned_to: null,
        translation_status: null,
        recording_status: null,
        is_complete: null,
        hasTranscript: false,
        duration_seconds: 245.3,
        participant_code: "P0042",
        session_date: "2026-03-02",
      },
    ],
  ],
});

/** An Assign Tasks row (SPEC §2.17): an audio without a task, with its length in seconds (null while not known). */
export const ZRestUnassignedAudioList = z
  .array(
    z.object({ _id: z.string(), filename: z.string(), category: ZCategory, duration_seconds: ZRestDurationSeconds }),
  )
  .meta({
    examples: [
      [
        { _id: EXAMPLE_ID, filename: "interview-07", category: "Dementia", duration_seconds: 245.3 },
        {
          _id: "4d2e8f0b-3c5a-4b7d-9e1f-0a2b3c4d5e6f",
          filename: "interview-08",
          category: "Dementia",
          duration_seconds: null,
        },
      ],
    ],
  });

/** The REST Assign Tasks row of an audios.unassigned item of `category`. */
export function restUnassignedAudio(
  audio: UnassignedAudio,
  category: Category,
): z.output<typeof ZRestUnassignedAudioList>[number] {
  return { _id: audio.id, filename: audio.filename, category, duration_seconds: audio.durationSeconds };
}

/** The REST audio of audios.get. */
export function restAudio(audio: AudioDetail): z.output<typeof ZRestAudio> {
  const task = audio.task;
  return {
    _id: audio.id,
    filename: audio.filename,
    category: audio.category,
    audioUrl: audio.audioUrl,
    mimeType: audio.mimeType,
    duration_seconds: audio.waveform.durationSeconds,
    transcript: audio.transcriptUrl,
    task: task && {
      _id: task.id,
      audio_id: audio.id,
      assigned_to: restUserRef(task.assignedTo),
      translation_status: task.translationStatus,
      recording_status: task.recordingStatus,
      is_complete: task.isComplete,
    },
    lastOpenedBy: audio.lastOpened?.id ?? null,
    lastOpenedByUsername: audio.lastOpened?.username ?? null,
    timeLastOpened: audio.lastOpened?.at ?? null,
    participant: restParticipantBrief(audio.participant),
    session_date: audio.sessionDate,
  };
}

/** The REST Manage Audios row of an audios.list item. */
export function restManagedAudio(audio: ManagedAudio): z.output<typeof ZRestManagedAudio> {
  return {
    _id: audio.id,
    filename: audio.filename,
    category: audio.category,
    assigned_to: restUserRef(audio.assignedTo),
    translation_status: audio.translationStatus,
    recording_status: audio.recordingStatus,
    is_complete: audio.isComplete,
    hasTranscript: audio.hasTranscript,
    duration_seconds: audio.durationSeconds,
    participant_code: audio.participantCode,
    session_date: audio.sessionDate,
  };
}
