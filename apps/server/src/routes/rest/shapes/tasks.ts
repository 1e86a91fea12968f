import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID, EXAMPLE_USER_ID, ZPagination, ZRestDurationSeconds, ZRestUserRef, restUserRef } from "./common";
import { CATEGORIES } from "@tafsiri/domain";

type TaskCard = RouterOutputs["tasks"]["list"]["items"][number];
type TaskDetail = RouterOutputs["tasks"]["get"];

const ZStageStatus = z.string().meta({ examples: ["In Progress"] });

/**
 * SPEC §3 Task from a task card (§2.8): the audio (with its length in seconds, null while not
 * known) and the submission's approval statuses embedded.
 */
export const ZRestTaskCard = z.object({
  _id: z.string(),
  audio_id: z.object({
    _id: z.string(),
    filename: z.string().nullable(),
    category: z.enum(CATEGORIES).nullable(),
    duration_seconds: ZRestDurationSeconds,
  }),
  assigned_to: ZRestUserRef,
  translation_status: ZStageStatus,
  recording_status: ZStageStatus,
  is_complete: z.boolean(),
  submission: z.object({
    translation_script_approval_status: z.string(),
    recorded_audio_approval_status: z.string(),
  }),
});

const EXAMPLE_TASK_CARD = {
  _id: EXAMPLE_ID,
  audio_id: {
    _id: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e",
    filename: "interview-07",
    category: "Control",
    duration_seconds: 245.3,
  },
  assigned_to: { _id: EXAMPLE_USER_ID, username: "amina" },
  translation_status: "Completed",
  recording_status: "In Progress",
  is_complete: false,
  submission: { translation_script_approval_status: "Pending", recorded_audio_approval_status: "No translation audio" },
} as const;

/** SPEC §3 Task of GET /api/tasks/{id}: the card plus the submission's `_id` (null without one). */
export const ZRestTask = ZRestTaskCard.extend({
  submission: ZRestTaskCard.shape.submission.extend({ _id: z.string().nullable() }),
}).meta({ examples: [{ ...EXAMPLE_TASK_CARD, submission: { _id: EXAMPLE_ID, ...EXAMPLE_TASK_CARD.submission } }] });

/** `{ tasks, pagination: { totalPages } }` of the task lists. */
export const ZRestTaskPage = z
  .object({ tasks: z.array(ZRestTaskCard), pagination: ZPagination })
  .meta({ examples: [{ tasks: [EXAMPLE_TASK_CARD], pagination: { totalPages: 3 } }] });

/** `{ _id, audio_id, assigned_to }` of a created or moved task. */
export const ZRestTaskRef = z.object({ _id: z.string(), audio_id: z.string(), assigned_to: z.string() });
export const EXAMPLE_TASK_REF = {
  _id: EXAMPLE_ID,
  audio_id: EXAMPLE_TASK_CARD.audio_id._id,
  assigned_to: EXAMPLE_USER_ID,
};

/** The REST task card of a procedure's task card. */
export function restTaskCard(task: TaskCard): z.output<typeof ZRestTaskCard> {
  return {
    _id: task.id,
    audio_id: {
      _id: task.audioId,
      filename: task.filename,
      category: task.category,
      duration_seconds: task.durationSeconds,
    },
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

/** The REST task of tasks.get. */
export function restTask(task: TaskDetail): z.output<typeof ZRestTask> {
  const card = restTaskCard(task);
  return { ...card, submission: { _id: task.submissionId, ...card.submission } };
}

/** `{ _id, audio_id, assigned_to }` from a procedure's task reference. */
export function restTaskRef(task: { id: string; audioId: string; assignedTo: string }): z.output<typeof ZRestTaskRef> {
  return { _id: task.id, audio_id: task.audioId, assigned_to: task.assignedTo };
}
