import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import {
  DONE,
  EXAMPLE_ID,
  EXAMPLE_USER_ID,
  ZDoneFields,
  ZPagination,
  ZRestDurationSeconds,
  ZRestUserRef,
  restUserRef,
} from "./common";

type SubmissionDetail = RouterOutputs["submissions"]["get"];
type CommentItem = RouterOutputs["comments"]["add"];

/** SPEC §3 Comment: `postedBy` is `{ _id, username }`, or null when the account is gone ('Unknown User'). */
export const ZRestComment = z.object({
  _id: z.string(),
  text: z.string(),
  postedBy: ZRestUserRef,
  postedAt: z.string(),
});

const EXAMPLE_COMMENT = {
  _id: "6e5d4c3b-2a19-4f08-9e7d-6c5b4a392817",
  text: "Please check the second sentence.",
  postedBy: { _id: EXAMPLE_USER_ID, username: "amina" },
  postedAt: "2026-11-23T10:05:00.000Z",
};

/**
 * SPEC §3 Submission: `translation_script` and `recorded_audio` are storage keys (POST
 * /api/fetch-files turns one into a readable link), null when unset; `recordedBy` is a user id.
 */
export const ZRestSubmission = z.object({
  _id: z.string(),
  task_id: z.string(),
  submission_date: z.string(),
  translation_script: z.string().nullable(),
  recorded_audio: z.string().nullable(),
  translation_script_approval_status: z.string(),
  recorded_audio_approval_status: z.string(),
  approval_status: z.string(),
  recordedBy: z.string().nullable(),
  comments: z.array(ZRestComment),
});

const EXAMPLE_SUBMISSION = {
  _id: EXAMPLE_ID,
  task_id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  submission_date: "2026-11-23T09:30:00.000Z",
  translation_script: `transcripts/3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e/${EXAMPLE_ID}/interview-07_TRANSLATEDTRANSCRIPT_2026-11-23_09-30-00.cha`,
  recorded_audio: null,
  translation_script_approval_status: "Pending",
  recorded_audio_approval_status: "No translation audio",
  approval_status: "Pending",
  recordedBy: null,
  comments: [EXAMPLE_COMMENT],
};

/** `{ submission }` of GET /api/submissions/{id}. */
export const ZRestSubmissionAnswer = z
  .object({ submission: ZRestSubmission })
  .meta({ examples: [{ submission: EXAMPLE_SUBMISSION }] });

/** `{ status, success, submission }` of POST /api/createsubmissions. */
export const ZRestSubmissionCreated = z
  .object({ ...ZDoneFields, submission: ZRestSubmission })
  .meta({ examples: [{ ...DONE, submission: EXAMPLE_SUBMISSION }] });

/** `{ exists, submission }` of GET /api/checksubmissions/{id} (submission null when none). */
export const ZRestSubmissionCheck = z
  .object({ exists: z.boolean(), submission: ZRestSubmission.nullable() })
  .meta({ examples: [{ exists: true, submission: EXAMPLE_SUBMISSION }] });

/** `{ status, success, message, comment }` of POST /api/submissions/{id}/comments. */
export const ZRestCommentAdded = z
  .object({ ...ZDoneFields, message: z.string(), comment: ZRestComment })
  .meta({ examples: [{ ...DONE, message: "Comment added.", comment: EXAMPLE_COMMENT }] });

/** The REST comment of a procedure's comment. */
export function restComment(comment: CommentItem): z.output<typeof ZRestComment> {
  return { _id: comment.id, text: comment.text, postedBy: restUserRef(comment.author), postedAt: comment.postedAt };
}

/** The REST submission of submissions.get / submissions.ensure. */
export function restSubmission(s: SubmissionDetail): z.output<typeof ZRestSubmission> {
  return {
    _id: s.id,
    task_id: s.taskId,
    submission_date: s.submissionDate,
    translation_script: s.translationScript,
    recorded_audio: s.recordedAudio,
    translation_script_approval_status: s.transcriptStatus,
    recorded_audio_approval_status: s.recordingApprovalStatus,
    approval_status: s.approvalStatus,
    recordedBy: s.recordedBy,
    comments: s.comments.map(restComment),
  };
}

type SubmissionListItem = RouterOutputs["submissions"]["list"]["items"][number];

/**
 * A row of the Submissions list (SPEC §2.7, §3): the submission's fields with its task's audio
 * (with its length in seconds, null while not known) and assignee (`task_id` populated), the time
 * of its last change and its number of comments.
 */
const ZRestSubmissionListItem = ZRestSubmission.omit({ task_id: true, comments: true }).extend({
  task_id: z.object({
    _id: z.string(),
    audio_id: z.object({
      _id: z.string(),
      filename: z.string(),
      category: z.string(),
      duration_seconds: ZRestDurationSeconds,
    }),
    assigned_to: ZRestUserRef,
  }),
  updatedAt: z.string(),
  comments_count: z.number().int(),
});

const { comments: _comments, task_id: _taskId, ...EXAMPLE_SUBMISSION_FIELDS } = EXAMPLE_SUBMISSION;

/** `{ submissions, pagination: { totalPages }, counts }` of the Submissions lists. */
export const ZRestSubmissionPage = z
  .object({
    submissions: z.array(ZRestSubmissionListItem),
    pagination: ZPagination,
    counts: z
      .object({
        needs_review: z.number().int(),
        approved: z.number().int(),
        rejected: z.number().int(),
        all: z.number().int(),
      })
      .meta({ description: "How many submissions each `status` filter holds, in the caller's scope." }),
  })
  .meta({
    examples: [
      {
        submissions: [
          {
            ...EXAMPLE_SUBMISSION_FIELDS,
            task_id: {
              _id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
              audio_id: {
                _id: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e",
                filename: "interview-07",
                category: "Control",
                duration_seconds: 245.3,
              },
              assigned_to: { _id: EXAMPLE_USER_ID, username: "amina" },
            },
            updatedAt: "2026-11-23T09:30:00.000Z",
            comments_count: 1,
          },
        ],
        pagination: { totalPages: 3 },
        counts: { needs_review: 12, approved: 30, rejected: 4, all: 46 },
      },
    ],
  });

/** The REST row of a procedure's Submissions list row. */
function restSubmissionListItem(s: SubmissionListItem): z.output<typeof ZRestSubmissionListItem> {
  return {
    _id: s.id,
    task_id: {
      _id: s.taskId,
      audio_id: { _id: s.audioId, filename: s.filename, category: s.category, duration_seconds: s.durationSeconds },
      assigned_to: restUserRef(s.staff),
    },
    submission_date: s.submissionDate,
    updatedAt: s.updatedAt,
    translation_script: s.translationScript,
    recorded_audio: s.recordedAudio,
    translation_script_approval_status: s.transcriptStatus,
    recorded_audio_approval_status: s.recordingApprovalStatus,
    approval_status: s.approvalStatus,
    recordedBy: s.recordedBy,
    comments_count: s.commentCount,
  };
}

/** The page answer from submissions.list. */
export function restSubmissionPage(result: RouterOutputs["submissions"]["list"]): z.output<typeof ZRestSubmissionPage> {
  const { needsReview, ...counts } = result.counts;
  return {
    submissions: result.items.map(restSubmissionListItem),
    pagination: { totalPages: result.totalPages },
    counts: { needs_review: needsReview, ...counts },
  };
}
