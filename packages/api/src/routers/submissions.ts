import { adminProcedure, authedProcedure, router } from "../trpc";
import {
  ZEnsureSubmissionInput,
  ZListSubmissionsInput,
  ZReviewQueueInput,
  ZReviewQueuePage,
  ZSubmission,
  ZSubmissionCheck,
  ZSubmissionIdInput,
  ZSubmissionListPage,
  ZTaskSubmissionInput,
} from "../schemas/submissions";
import {
  checkTaskSubmission,
  ensureTaskSubmission,
  getSubmission,
  listSubmissionPage,
} from "../services/submission-records";
import { reviewQueue } from "../services/review-queue";

export const submissionsRouter = router({
  /**
   * SPEC §2.7, §7.1 Submissions list: newest change first, 20 per page, filtered by `status`
   * ('needsReview', 'approved', 'rejected', 'all') with each filter's count. Admins all (or
   * `userId`'s), staff their own; FORBIDDEN 'You may only list your own submissions.' for staff
   * naming another `userId`.
   */
  list: authedProcedure
    .input(ZListSubmissionsInput)
    .output(ZSubmissionListPage)
    .query(({ ctx, input }) => listSubmissionPage(ctx, ctx.user, input)),
  /**
   * SPEC §3, §7.1 GET /api/submissions/{id}: one submission with its comments. Admins any, staff
   * one of an audio they may open. BAD_REQUEST 'Unknown id.'; NOT_FOUND 'Submission not found.';
   * FORBIDDEN 'You do not have access to this audio.'.
   */
  get: authedProcedure
    .input(ZSubmissionIdInput)
    .output(ZSubmission)
    .query(({ ctx, input }) => getSubmission(ctx, ctx.user, input.submissionId)),
  /**
   * SPEC §7.1 GET /api/checksubmissions/{id}: `{ exists, submission }` for task `taskId`
   * (submission null when none). BAD_REQUEST 'Unknown id.'; NOT_FOUND 'Task not found.'; FORBIDDEN.
   */
  check: authedProcedure
    .input(ZTaskSubmissionInput)
    .output(ZSubmissionCheck)
    .query(({ ctx, input }) => checkTaskSubmission(ctx, ctx.user, input.taskId)),
  /**
   * SPEC §3, §7.1 POST /api/createsubmissions: the task's submission (one per task: an existing
   * one is returned), created by the caller when there is none; a non-blank `comment` is added
   * as the caller's comment. BAD_REQUEST 'Unknown id.' / 'Comment is too long (at most 5,000
   * characters).'; NOT_FOUND 'Task not found.'; FORBIDDEN 'You do not have access to this audio.'.
   */
  ensure: authedProcedure
    .input(ZEnsureSubmissionInput)
    .output(ZSubmission)
    .mutation(({ ctx, input }) => ensureTaskSubmission(ctx, ctx.user, input)),
  /**
   * Decision 025 review mode (Admin): one submission of a Submissions filter ('needsReview'
   * default, 'approved', 'rejected', 'all') walked OLDEST CHANGE FIRST (updated_at, id), so new
   * submissions join the queue's end; `move` 'first' | 'next' | 'previous' | 'at' from `from`
   * (the `{ updatedAt, id }` of the item shown). Returns `{ item | null, position, total }`.
   * FORBIDDEN 'Only administrators may do this.'; BAD_REQUEST 'Unknown id.' for a malformed
   * `from.id`, 'Give the item to move from.' without `from`.
   */
  reviewQueue: adminProcedure
    .input(ZReviewQueueInput)
    .output(ZReviewQueuePage)
    .query(({ ctx, input }) => reviewQueue(ctx, input)),
});
