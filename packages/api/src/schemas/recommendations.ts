import { z } from "zod";
import {
  ZAudioIdInput,
  ZCategory,
  ZDurationSeconds,
  ZId,
  ZPageInput,
  ZRecordingStatus,
  ZStageStatus,
  ZTranscriptStatus,
  ZUserRef,
  page,
} from "./common";

export const STAFF_REQUIRED_FOR_RECOMMENDATION = "Please select a staff member";

/** SPEC §2.15: recommend the audio to a staff member (chosen in the dropdown; empty = none chosen). */
export const ZCreateRecommendationInput = z.object({
  audioId: ZId,
  staffId: z.string({ error: STAFF_REQUIRED_FOR_RECOMMENDATION }).min(1, STAFF_REQUIRED_FOR_RECOMMENDATION),
});
export type CreateRecommendationInput = z.infer<typeof ZCreateRecommendationInput>;
export const ZCreateRecommendationOutput = z.object({ message: z.string() });

/** Whether the audio's translation stage has a result, so it may be recommended (SPEC §4). */
export const ZRecommendationCheck = z.object({ ready: z.boolean() });

export { ZAudioIdInput };

/**
 * SPEC §2.9 Recommended Recordings page: without `recommendedTo`, admins get every
 * recommendation and staff those made to them; with it, that user's (staff may only name
 * themselves). 10 per page by default (SPEC §9).
 */
export const ZListRecommendedRecordingsInput = ZPageInput.extend({ recommendedTo: ZId.optional() });
export type ListRecommendedRecordingsInput = z.infer<typeof ZListRecommendedRecordingsInput>;

/** SPEC §3 Recommended recording: the task (audio, assignee, stage statuses), the recipient and the approval statuses. */
const ZRecommendedRecording = z.object({
  id: z.string(),
  task: z.object({
    id: z.string(),
    audioId: z.string(),
    filename: z.string().nullable(),
    category: ZCategory.nullable(),
    /** The audio's duration in seconds; null while not known yet. */
    durationSeconds: ZDurationSeconds,
    assignedTo: ZUserRef.nullable(),
    translationStatus: ZStageStatus,
    recordingStatus: ZStageStatus,
    isComplete: z.boolean(),
  }),
  recommendedTo: ZUserRef.nullable(),
  transcriptStatus: ZTranscriptStatus,
  recordingApprovalStatus: ZRecordingStatus,
});
export type RecommendedRecording = z.infer<typeof ZRecommendedRecording>;
export const ZRecommendedRecordingPage = page(ZRecommendedRecording);
