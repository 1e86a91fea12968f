import { adminProcedure, router } from "../trpc";
import { ZBulkReviewInput, ZBulkReviewOutput } from "../schemas/reviews";
import { bulkReview } from "../services/bulk-review";

export const reviewsRouter = router({
  /**
   * Decision 025, bulk review (admin): approve or reject the `outputs` ('transcript', 'recording')
   * of 1..100 `submissionIds` (deduplicated), each output its own review from Pending (SPEC §4,
   * decision 009), with one optional `reason` for a rejection stored per output. Answers
   * `{ done: [{ submissionId, output, status, message }], skipped: [{ submissionId, output, reason }] }`;
   * an output already reviewed, not submitted or of an unknown submission is skipped with the
   * server's message. FORBIDDEN for staff; BAD_REQUEST for a malformed id, none or over 100 ids,
   * an unknown output or action, a reason over 1,000 characters or a reason with an approval.
   */
  bulk: adminProcedure
    .input(ZBulkReviewInput)
    .output(ZBulkReviewOutput)
    .mutation(({ ctx, input }) => bulkReview(ctx, ctx.user, input)),
});
