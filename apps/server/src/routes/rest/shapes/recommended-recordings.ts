import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID, EXAMPLE_USER_ID, ZPagination, ZRestUserRef, restUserRef } from "./common";

type RecommendedRecording = RouterOutputs["recommendations"]["list"]["items"][number];

const ZStageStatus = z.string().meta({ examples: ["In Progress"] });

/** SPEC §3 Recommended recording: `{ _id, taskId: {…}, recommended_to, submission: {…} }`. */
export const ZRestRecommendedRecording = z.object({
  _id: z.string(),
  taskId: z.object({
    _id: z.string(),
    audio_id: z.object({
      _id: z.string(),
      filename: z.string().nullable(),
      category: z.enum(["Control", "Dementia"]).nullable(),
    }),
    assigned_to: ZRestUserRef,
    translation_status: ZStageStatus,
    recording_status: ZStageStatus,
    is_complete: z.boolean(),
  }),
  recommended_to: ZRestUserRef,
  submission: z.object({
    translation_script_approval_status: z.string(),
    recorded_audio_approval_status: z.string(),
  }),
});

const EXAMPLE_RECOMMENDED_RECORDING = {
  _id: "7a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
  taskId: {
    _id: EXAMPLE_ID,
    audio_id: { _id: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e", filename: "interview-07", category: "Control" },
    assigned_to: { _id: EXAMPLE_USER_ID, username: "amina" },
    translation_status: "Completed",
    recording_status: "In Progress",
    is_complete: false,
  },
  recommended_to: { _id: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a", username: "baraka" },
  submission: { translation_script_approval_status: "Pending", recorded_audio_approval_status: "No translation audio" },
} as const;

/** `{ recommendedRecordings, pagination: { totalPages } }` of the Recommended Recordings lists. */
export const ZRestRecommendedRecordingPage = z
  .object({ recommendedRecordings: z.array(ZRestRecommendedRecording), pagination: ZPagination })
  .meta({ examples: [{ recommendedRecordings: [EXAMPLE_RECOMMENDED_RECORDING], pagination: { totalPages: 2 } }] });

/** The REST recommended recording of a procedure's row. */
export function restRecommendedRecording(row: RecommendedRecording): z.output<typeof ZRestRecommendedRecording> {
  return {
    _id: row.id,
    taskId: {
      _id: row.task.id,
      audio_id: { _id: row.task.audioId, filename: row.task.filename, category: row.task.category },
      assigned_to: restUserRef(row.task.assignedTo),
      translation_status: row.task.translationStatus,
      recording_status: row.task.recordingStatus,
      is_complete: row.task.isComplete,
    },
    recommended_to: restUserRef(row.recommendedTo),
    submission: {
      translation_script_approval_status: row.transcriptStatus,
      recorded_audio_approval_status: row.recordingApprovalStatus,
    },
  };
}

/** The page answer from a procedure's page. */
export function restRecommendedRecordingPage(result: {
  items: RecommendedRecording[];
  totalPages: number;
}): z.output<typeof ZRestRecommendedRecordingPage> {
  return {
    recommendedRecordings: result.items.map(restRecommendedRecording),
    pagination: { totalPages: result.totalPages },
  };
}
