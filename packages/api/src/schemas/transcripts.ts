import { z } from "zod";
import {
  REVIEW_REASON_MAX_LENGTH,
  REVIEW_REASON_TOO_LONG,
  TRANSCRIPT_EMPTY,
  TRANSCRIPT_MAX_CHARS,
  TRANSCRIPT_TOO_LONG,
  SEGMENTS_MAX,
  TOO_MANY_SEGMENTS,
} from "@tafsiri/domain";
import { ZAudioIdInput, ZId, ZTranscriptStatus, ZUserRef } from "./common";
import { ZReassignInput } from "./tasks";

/** SPEC §2.12: the current translated transcript of an audio's submission. */
export const ZTranscript = z.object({
  status: ZTranscriptStatus,
  /** Current text, null when there is none. */
  text: z.string().nullable(),
  /** The .cha file name of the current version (SPEC §3). */
  fileName: z.string().nullable(),
  /** Signed URL of the current .cha file. */
  url: z.string().nullable(),
  updatedAt: z.string().nullable(),
  updatedBy: ZUserRef.nullable(),
});
export type Transcript = z.infer<typeof ZTranscript>;

/** SPEC §2.12, §5: at most TRANSCRIPT_MAX_CHARS characters, not blank. */
export const ZSaveTranscriptInput = z.object({
  audioId: ZId,
  text: z
    .string()
    .max(TRANSCRIPT_MAX_CHARS, TRANSCRIPT_TOO_LONG)
    .refine((t) => t.trim().length > 0, TRANSCRIPT_EMPTY),
});
export const ZSaveTranscriptOutput = z.object({ status: ZTranscriptStatus, fileName: z.string(), message: z.string() });
export const ZReviewOutput = z.object({ status: z.string(), message: z.string() });

/** Why an output was rejected (SPEC §4): trimmed, at most 1,000 characters; blank counts as no reason. */
export const ZReviewReason = z.string().trim().max(REVIEW_REASON_MAX_LENGTH, REVIEW_REASON_TOO_LONG);

/**
 * A transcript review (SPEC §4): the audio and, optionally, the status the reviewer saw
 * (`expectedStatus`); left out it means Pending for approve and reject, the current status for delete.
 */
export const ZTranscriptReviewInput = ZAudioIdInput.extend({ expectedStatus: ZTranscriptStatus.optional() });
/**
 * Decision 025 'Reassign to…': the active Staff member a rejection moves the task to (left out:
 * 'Return to {assignee}'); an empty id reads 'Please select a staff member to reassign.', another
 * non-uuid 'Unknown staff member.'.
 */
export const ZReassignTo = ZReassignInput.shape.staffId;

/**
 * A transcript rejection: a review with an optional reason (stored as a comment, sent to the
 * assignee) and optional `reassignTo` (decision 025).
 */
export const ZTranscriptRejectInput = ZTranscriptReviewInput.extend({
  reason: ZReviewReason.optional(),
  reassignTo: ZReassignTo.optional(),
  /**
   * Decision 035: the segments of the grid to fix, each with an optional note (at most 1,000
   * characters), marked for the staff member until the next review.
   */
  segments: z
    .array(z.object({ id: ZId, note: ZReviewReason.default("") }))
    .max(SEGMENTS_MAX, TOO_MANY_SEGMENTS)
    .optional(),
});

/**
 * Decision 024, "Who spoke, when": speech segments suggested for an audio's transcript, found by
 * voice activity detection: whole milliseconds from the recording's start, ordered, endMs > startMs.
 */
const ZSuggestedSegment = z.object({
  startMs: z.number().int().nonnegative(),
  endMs: z.number().int().positive(),
});
export const ZSuggestSegmentsOutput = z.object({ segments: z.array(ZSuggestedSegment) });
