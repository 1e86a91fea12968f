import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ZCommentText, ZEnsureSubmissionInput } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { pagedDescription, sendPageLinks } from "./paging";
import { DONE, EXAMPLE_ID, EXAMPLE_USER_ID, ZPageQuery, ZPathId, answers } from "./shapes/common";
import {
  ZRestCommentAdded,
  ZRestSubmissionAnswer,
  ZRestSubmissionCheck,
  ZRestSubmissionCreated,
  ZRestSubmissionPage,
  restComment,
  restSubmission,
  restSubmissionPage,
} from "./shapes/submissions";
import { COMMENT_EMPTY } from "@tafsiri/domain";

/** A field integrators send that the server does not trust: accepted and ignored (the author is the caller). */
const ignoredUserId = (field: string) =>
  z
    .string()
    .nullable()
    .optional()
    .meta({ description: `Ignored: the ${field} is always the signed-in caller.` });

const ZCreateSubmissionBody = z
  .object({
    task_id: ZEnsureSubmissionInput.shape.taskId,
    by: ignoredUserId("creator"),
    comments: ZEnsureSubmissionInput.shape.comment,
  })
  .meta({ examples: [{ task_id: EXAMPLE_ID, by: EXAMPLE_USER_ID, comments: "Started on the translation." }] });

const ZAddCommentBody = z
  .object({
    comments: z.object({ text: ZCommentText, postedBy: ignoredUserId("author") }, { error: COMMENT_EMPTY }),
  })
  .meta({ examples: [{ comments: { text: "Please check the second sentence.", postedBy: EXAMPLE_USER_ID } }] });

/** The list's filters as integrators spell them (the procedure's 'needsReview' is 'needs_review' here). */
const REST_FILTERS = { needs_review: "needsReview", approved: "approved", rejected: "rejected", all: "all" } as const;

const ZSubmissionListQuery = ZPageQuery.extend({
  status: z
    .enum(["needs_review", "approved", "rejected", "all"], {
      error: "status must be one of needs_review, approved, rejected, all.",
    })
    .optional()
    .meta({
      description:
        "needs_review: a transcript or a recording is Pending; approved / rejected: the submission's approval_status; " +
        "all (the default).",
    }),
});

/**
 * SPEC §7.1, §9: the submission lists' calls ask for 10 a page by default; the web app's
 * Submissions page asks submissions.list for its 20 itself, so only REST's default is 10.
 */
const REST_SUBMISSIONS_PAGE_SIZE = 10;

/** The procedure's list input from the query (and the user of /usersubmissions/{userId}). */
function listInput(query: z.output<typeof ZSubmissionListQuery>, userId?: string) {
  return {
    page: query.page,
    limit: query.limit ?? REST_SUBMISSIONS_PAGE_SIZE,
    status: query.status === undefined ? undefined : REST_FILTERS[query.status],
    userId,
  };
}

const SUBMISSIONS = ["Submissions"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §7.1 submission paths: create (one per task), read one, check a task's, comment on one. */
export const submissionRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/submissions",
    {
      schema: {
        summary: "List submissions",
        description:
          "SPEC §2.7, §5, §7.1, §9. Admins get every submission, staff their own (of tasks assigned to them); newest " +
          "change first, with `status` as a filter and the count of each filter. 400 for an unknown status, 401 " +
          `without a session. ${pagedDescription(REST_SUBMISSIONS_PAGE_SIZE)}`,
        tags: SUBMISSIONS,
        security: BEARER,
        querystring: ZSubmissionListQuery,
        response: answers(ZRestSubmissionPage),
      },
    },
    async (req, reply) => {
      const page = await req.caller.submissions.list(listInput(req.query));
      sendPageLinks(req, reply, req.query.page, page.totalPages);
      return restSubmissionPage(page);
    },
  );

  app.get(
    "/api/usersubmissions/:userId",
    {
      schema: {
        summary: "List one user's submissions",
        description:
          "SPEC §2.7, §5, §7.1. The submissions of tasks assigned to user {userId}, as GET /api/submissions: admins " +
          "may list anyone's, staff only their own (403 'You may only list your own submissions.'). 400 'Unknown id.' " +
          `for a malformed id, or a bad status; 401 without a session. ${pagedDescription(REST_SUBMISSIONS_PAGE_SIZE)}`,
        tags: SUBMISSIONS,
        security: BEARER,
        params: z.object({ userId: ZPathId }),
        querystring: ZSubmissionListQuery,
        response: answers(ZRestSubmissionPage),
      },
    },
    async (req, reply) => {
      const page = await req.caller.submissions.list(listInput(req.query, req.params.userId));
      sendPageLinks(req, reply, req.query.page, page.totalPages);
      return restSubmissionPage(page);
    },
  );

  app.post(
    "/api/createsubmissions",
    {
      schema: {
        summary: "Create a task's submission",
        description:
          "SPEC §3, §7.1. The task's submission, created by the caller when there is none (one per task: an existing " +
          "one is answered as is). `by` is ignored (the creator is the caller); `comments`, when not blank, is added as " +
          "the caller's comment and notifies the other side. The caller must be allowed to open the task's audio (403). " +
          "400 'Unknown id.' or 'Comment is too long (at most 5,000 characters).', 404 'Task not found.', 401.",
        tags: SUBMISSIONS,
        security: BEARER,
        body: ZCreateSubmissionBody,
        response: answers(ZRestSubmissionCreated),
      },
    },
    async (req) => {
      const submission = await req.caller.submissions.ensure({
        taskId: req.body.task_id,
        comment: req.body.comments,
      });
      return { ...DONE, submission: restSubmission(submission) };
    },
  );

  app.get(
    "/api/submissions/:id",
    {
      schema: {
        summary: "Get a submission",
        description:
          "SPEC §3, §7.1. One submission with its comments, oldest first (`postedBy` null for a deleted account). " +
          "Admins any; staff one of an audio they may open (403). 400 'Unknown id.', 404 'Submission not found.', 401.",
        tags: SUBMISSIONS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: answers(ZRestSubmissionAnswer),
      },
    },
    async (req) => ({
      submission: restSubmission(await req.caller.submissions.get({ submissionId: req.params.id })),
    }),
  );

  app.post(
    "/api/submissions/:id/comments",
    {
      schema: {
        summary: "Comment on a submission",
        description:
          "SPEC §2.14, §3, §5, §7.1. Adds `comments.text` (trimmed, plain text) as the caller's comment; `postedBy` is " +
          "ignored (the author is the caller). An admin's comment notifies the task's assignee, a staff member's the " +
          "admins. 400 'Comment is empty.', 'Comment is too long (at most 5,000 characters).' or 'Unknown id.', 403 for " +
          "a submission of an audio not yours, 404 'Submission not found.', 401.",
        tags: SUBMISSIONS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        body: ZAddCommentBody,
        response: answers(ZRestCommentAdded),
      },
    },
    async (req) => {
      const comment = await req.caller.comments.addToSubmission({
        submissionId: req.params.id,
        text: req.body.comments.text,
      });
      return { ...DONE, message: comment.message, comment: restComment(comment) };
    },
  );

  app.get(
    "/api/checksubmissions/:taskId",
    {
      schema: {
        summary: "Check a task's submission",
        description:
          "SPEC §7.1. `{ exists, submission }` for task {taskId}; `submission` is null when the task has none. The " +
          "caller must be allowed to open the task's audio (403). 400 'Unknown id.', 404 'Task not found.', 401.",
        tags: SUBMISSIONS,
        security: BEARER,
        params: z.object({ taskId: ZPathId }),
        response: answers(ZRestSubmissionCheck),
      },
    },
    async (req) => {
      const check = await req.caller.submissions.check({ taskId: req.params.taskId });
      return { exists: check.exists, submission: check.submission && restSubmission(check.submission) };
    },
  );
};
