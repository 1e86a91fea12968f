import { z } from "zod";
import { APPROVAL_STATUSES } from "@tafsiri/db";
import { ZId, ZRecordingStatus, ZTranscriptStatus } from "./common";
import { COMMENT_MAX_LENGTH, COMMENT_TOO_LONG, ZComment } from "./comments";

/**
 * SPEC §3 Submission (one per task) with its comments, oldest first. `translationScript` and
 * `recordedAudio` are storage keys (readable through a signed link, SPEC §7.2), null when unset.
 */
export const ZSubmission = z.object({
  id: z.string(),
  taskId: z.string(),
  audioId: z.string(),
  /** ISO time of the last transcript save (the submission's creation until then). */
  submissionDate: z.string(),
  translationScript: z.string().nullable(),
  recordedAudio: z.string().nullable(),
  transcriptStatus: ZTranscriptStatus,
  recordingApprovalStatus: ZRecordingStatus,
  approvalStatus: z.enum(APPROVAL_STATUSES),
  /** The staff member who recorded the translated audio, null when none. */
  recordedBy: z.string().nullable(),
  comments: z.array(ZComment),
});
export type SubmissionDetail = z.infer<typeof ZSubmission>;

export const ZSubmissionIdInput = z.object({ submissionId: ZId });
export const ZTaskSubmissionInput = z.object({ taskId: ZId });

/**
 * SPEC §7.1 POST /api/createsubmissions: the task's submission, created when there is none.
 * `comment` (optional) is added as a comment, trimmed; blank means none, over 5,000 characters is refused.
 */
export const ZEnsureSubmissionInput = z.object({
  taskId: ZId,
  comment: z.string().trim().max(COMMENT_MAX_LENGTH, COMMENT_TOO_LONG).optional(),
});
export type EnsureSubmissionInput = z.infer<typeof ZEnsureSubmissionInput>;

/** SPEC §7.1 GET /api/checksubmissions/{id}: whether the task has a submission, and the submission (null when none). */
export const ZSubmissionCheck = z.object({ exists: z.boolean(), submission: ZSubmission.nullable() });
export type SubmissionCheck = z.infer<typeof ZSubmissionCheck>;
