import { z } from "zod";
import { ZAudioIdInput, ZRecordingStatus, ZUserRef, ZWaveform } from "./common";
import { ZReassignTo, ZReviewReason } from "./transcripts";

/** SPEC §2.13: the translated recording of an audio's submission. */
export const ZRecording = z.object({
  status: ZRecordingStatus,
  /** Signed URL of the recording (supports Range), null when there is none. */
  url: z.string().nullable(),
  mimeType: z.string().nullable(),
  /** The recording's waveform, null when there is no recording. */
  waveform: ZWaveform.nullable(),
  recordedBy: ZUserRef.nullable(),
  uploadedAt: z.string().nullable(),
});
export type Recording = z.infer<typeof ZRecording>;

/**
 * A recording review (SPEC §4): the audio and, optionally, the status the reviewer saw
 * (`expectedStatus`); left out it means Pending for approve and reject, the current status for delete.
 */
export const ZRecordingReviewInput = ZAudioIdInput.extend({ expectedStatus: ZRecordingStatus.optional() });
/**
 * A recording rejection: a review with an optional reason (stored as a comment, sent to the
 * assignee) and optional `reassignTo` (decision 025).
 */
export const ZRecordingRejectInput = ZRecordingReviewInput.extend({
  reason: ZReviewReason.optional(),
  reassignTo: ZReassignTo.optional(),
});
