import { z } from "zod";
import { COMMENT_MAX_LENGTH, COMMENT_TOO_LONG } from "@tafsiri/domain";
import { APPROVAL_STATUSES } from "@tafsiri/db";
import { SUBMISSION_FILTERS } from "@tafsiri/db/repositories/submission-list";
import { REVIEW_QUEUE_MOVES } from "@tafsiri/db/repositories/review-queue";
import {
  ZCategory,
  ZDurationSeconds,
  ZId,
  ZPageInput,
  ZRecordingStatus,
  ZTranscriptStatus,
  ZUserRef,
  page,
} from "./common";
import { ZComment } from "./comments";

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

/**
 * SPEC §2.7, §7.1 Submissions list: 20 per page (SPEC §9), newest first. `status` chooses a filter
 * (beyond SPEC §2.7): 'needsReview' (a transcript or recording Pending), 'approved', 'rejected' or 'all'.
 * Without `userId`, admins get every submission and staff their own (tasks assigned to them);
 * with it, that user's (staff may only name themselves).
 */
export const ZListSubmissionsInput = ZPageInput.extend({
  limit: ZPageInput.shape.limit.unwrap().default(20),
  status: z.enum(SUBMISSION_FILTERS).default("all"),
  userId: ZId.optional(),
});
export type ListSubmissionsInput = z.infer<typeof ZListSubmissionsInput>;

/** A row of the Submissions table (SPEC §2.7): its audio, the assignee ('Staff'), both outputs and their statuses. */
const ZSubmissionListItem = z.object({
  id: z.string(),
  taskId: z.string(),
  audioId: z.string(),
  filename: z.string(),
  category: ZCategory,
  /** The audio's duration in seconds; null while not known yet (the 'Duration' column shows '—'). */
  durationSeconds: ZDurationSeconds,
  staff: ZUserRef.nullable(),
  /** ISO time of the last transcript save (the submission's creation until then). */
  submissionDate: z.string(),
  /** ISO time of the last change ('Last updated'). */
  updatedAt: z.string(),
  translationScript: z.string().nullable(),
  recordedAudio: z.string().nullable(),
  transcriptStatus: ZTranscriptStatus,
  recordingApprovalStatus: ZRecordingStatus,
  approvalStatus: z.enum(APPROVAL_STATUSES),
  recordedBy: z.string().nullable(),
  commentCount: z.number().int(),
});

/** One page of the Submissions list with the count of each filter in the caller's scope. */
export const ZSubmissionListPage = page(ZSubmissionListItem).extend({
  counts: z.object({
    needsReview: z.number().int(),
    approved: z.number().int(),
    rejected: z.number().int(),
    all: z.number().int(),
  }),
});
export type SubmissionListPage = z.infer<typeof ZSubmissionListPage>;

/** The message when a move other than 'first' comes without the key it starts from. */
const REVIEW_QUEUE_FROM_REQUIRED = "Give the item to move from.";
/** The message for a queue key whose time is not an ISO 8601 timestamp. */
const REVIEW_QUEUE_BAD_TIME = "updatedAt must be an ISO 8601 time.";

/**
 * Decision 025 review mode: which Submissions filter to walk (oldest change first) and where to.
 * `from` is the `{ updatedAt, id }` of the item shown (its updatedAt exactly as answered, with
 * microseconds); required for 'next', 'previous' and 'at'.
 */
export const ZReviewQueueInput = z
  .object({
    filter: z.enum(SUBMISSION_FILTERS).default("needsReview"),
    move: z.enum(REVIEW_QUEUE_MOVES).default("first"),
    from: z
      .object({
        updatedAt: z
          .string()
          .max(40, REVIEW_QUEUE_BAD_TIME)
          .pipe(z.iso.datetime({ offset: true, message: REVIEW_QUEUE_BAD_TIME })),
        id: ZId,
      })
      .optional(),
  })
  .refine((v) => v.move === "first" || v.from !== undefined, { message: REVIEW_QUEUE_FROM_REQUIRED, path: ["from"] });
export type ReviewQueueInput = z.infer<typeof ZReviewQueueInput>;

/** The latest approval or rejection of one output: who did it and when (ISO). */
const ZLatestReview = z.object({
  action: z.enum(["approve", "reject"]),
  reviewer: ZUserRef.nullable(),
  reviewedAt: z.string(),
});

/** One submission in review mode (decision 025): its audio, staff, both outputs' statuses and latest reviews. */
const ZReviewQueueItem = z.object({
  id: z.string(),
  taskId: z.string(),
  audioId: z.string(),
  filename: z.string(),
  category: ZCategory,
  durationSeconds: ZDurationSeconds,
  staff: ZUserRef.nullable(),
  /** ISO time of the last change, UTC with microseconds: send it back unchanged as `from.updatedAt`. */
  updatedAt: z.string(),
  transcriptStatus: ZTranscriptStatus,
  recordingStatus: ZRecordingStatus,
  hasTranscript: z.boolean(),
  hasRecording: z.boolean(),
  latestReviews: z.object({ transcript: ZLatestReview.nullable(), recording: ZLatestReview.nullable() }),
});

/** The queue's answer: the item (null when the move lands on none), its 1-based position (0 when none), the filter's count. */
export const ZReviewQueuePage = z.object({
  item: ZReviewQueueItem.nullable(),
  position: z.number().int(),
  total: z.number().int(),
});
export type ReviewQueuePage = z.infer<typeof ZReviewQueuePage>;
