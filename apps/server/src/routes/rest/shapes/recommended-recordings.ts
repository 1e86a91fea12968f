import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID, EXAMPLE_USER_ID, ZPagination, ZRestUserRef, restUserRef } from "./common";
import { ZRestTaskCard, restTaskCard } from "./tasks";

type RecommendedRecording = RouterOutputs["recommendations"]["list"]["items"][number];

/**
 * SPEC §3 Recommended recording: `{ _id, taskId: {…}, recommended_to, submission: {…} }`; the task
 * and the submission's statuses are the task card's (shapes/tasks.ts).
 */
const ZRestRecommendedRecording = z.object({
  _id: z.string(),
  taskId: ZRestTaskCard.omit({ submission: true }),
  recommended_to: ZRestUserRef,
  submission: ZRestTaskCard.shape.submission,
});

const EXAMPLE_RECOMMENDED_RECORDING = {
  _id: "7a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
  taskId: {
    _id: EXAMPLE_ID,
    audio_id: {
      _id: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e",
      filename: "interview-07",
      category: "Control",
      duration_seconds: 3723.4,
    },
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

/** The REST recommended recording of a procedure's row (the task mapped as a task card). */
function restRecommendedRecording(row: RecommendedRecording): z.output<typeof ZRestRecommendedRecording> {
  const { submission, ...taskId } = restTaskCard({
    ...row.task,
    transcriptStatus: row.transcriptStatus,
    recordingApprovalStatus: row.recordingApprovalStatus,
  });
  return { _id: row.id, taskId, recommended_to: restUserRef(row.recommendedTo), submission };
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
