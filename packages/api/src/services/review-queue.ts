/**
 * Review mode's queue (decision 025): one submission of a Submissions filter at a time, oldest
 * change first. The reviews themselves go through ./reviews (reviewOutput, decision 009).
 */
import { readReviewQueue, type LatestReview } from "@tafsiri/db/repositories/review-queue";
import type { AppDeps } from "../context";
import type { ReviewQueueInput, ReviewQueuePage } from "../schemas/submissions";

function latest(review: LatestReview | null) {
  return review && { ...review, reviewedAt: review.reviewedAt.toISOString() };
}

/**
 * Decision 025: the item of filter `input.filter` that `input.move` lands on from `input.from`
 * (see readReviewQueue: the queue walks the Submissions filter oldest change first, so new
 * submissions join its end), its 1-based position and the filter's count. Admin-only (the
 * router's adminProcedure). Returns `{ item: null, position: 0, total }` past either end or
 * for an empty filter.
 */
export async function reviewQueue(deps: AppDeps, input: ReviewQueueInput): Promise<ReviewQueuePage> {
  const answer = await readReviewQueue(deps.db, input);
  const item = answer.item;
  return {
    item: item && {
      ...item,
      latestReviews: {
        transcript: latest(item.latestReviews.transcript),
        recording: latest(item.latestReviews.recording),
      },
    },
    position: answer.position,
    total: answer.total,
  };
}
