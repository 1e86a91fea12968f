import { adminProcedure, router } from "../trpc";
import { ZBulkReviewInput, ZBulkReviewOutput } from "../schemas/reviews";
import { bulkReview } from "../services/bulk-review";

export const reviewsRouter = router({
  /**
   * Decision 025, bulk review (admin): approve or reject the `outputs` ('transcript', 'recording')
   * of 1..100 `submissionIds` (deduplicated), each output its own review from Pending (SPEC §4,
   * decision 009), with one optional `reason` for a rejection stored per output. Answers
   * `{ message, done: [{ submissionId, output, status, message }], skipped: [{ submissionId, output, reason }] }`;
   * an output already reviewed, not submitted or of an unknown submission is skipped with the
   * server's message. FORBIDDEN for staff; BAD_REQUEST for a malformed id, none or over 100 ids,
   * an unknown output or action, a reason over 1,000 characters or a reason with an approval.
   */
  bulk: adminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/api/reviews/bulk",
        summary: "Approve or reject many submissions (admin)",
        description:
          "SPEC §4, decision 025. Approves or rejects the chosen outputs of up to 100 submissions. Each output of each " +
          "submission is its own review from Pending, exactly as PUT /api/updatesubmissions/{id}/{userId} would do " +
          "it (the same notifications, comment, audit entry and live events); one that is not Pending any more, has " +
          "nothing submitted or belongs to an unknown submission is listed under `skipped` with the reason ('The " +
          "transcript is already Approved.', 'No transcript submitted yet.', 'Submission not found.') and left as it " +
          "is. `done` and `skipped` follow the order asked, transcript before recording. 400 for a malformed id, " +
          "none or more than 100 ids, an unknown output or action, a reason over 1,000 characters or a reason with " +
          "an approval; 401; 403 for staff.",
        tags: ["Reviews"],
        snakeCase: true,
        done: true,
      },
    })
    .input(ZBulkReviewInput)
    .output(ZBulkReviewOutput)
    .mutation(({ ctx, input }) => bulkReview(ctx, ctx.user, input)),
});
