import { reviewerTotals, reviewsPerDay } from "@tafsiri/db/repositories/reviewer-figures";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import type { ReviewDay, ReviewerFigures, ReviewerFiguresInput } from "../schemas/reviewer-figures";
import { PERIOD_ORDER } from "../schemas/statistics";
import { requireAdmin } from "./access";
import { periodInstant } from "./statistics";

/**
 * Decision 025, the Dashboard's Reviews section: for the period [from, to) of review times (ISO
 * dates are midnight in `timeZone`, date-times as given, either bound open) and the admin's IANA
 * `timeZone` (default APP_TIMEZONE, else UTC):
 * - `reviewers`: per reviewer, reviews (approvals + rejections), approvals, rejections and the
 *   median wait in whole seconds (percentile_cont(0.5) of reviewed_at − saved_at: how long the
 *   judged version waited for its review; null without reviews). Every active admin has a row
 *   (zeros when idle), any other reviewer with reviews in the period too, and the reviews of
 *   accounts that are gone count under id null, 'Deleted account';
 * - `days`: each calendar day in `timeZone` with reviews, oldest first, with each reviewer's count.
 * Two SQL aggregates over `reviews` (index reviews_reviewed_at_idx), run at once. Throws FORBIDDEN
 * for non-admins, BAD_REQUEST 'from must be before to.' for an empty or reversed period.
 */
export async function getReviewerFigures(
  deps: AppDeps,
  user: SessionUser,
  input: ReviewerFiguresInput,
): Promise<ReviewerFigures> {
  requireAdmin(user);
  const timeZone = input.timeZone ?? deps.timezone ?? "UTC";
  const from = input.from === undefined ? undefined : periodInstant(input.from, timeZone);
  const to = input.to === undefined ? undefined : periodInstant(input.to, timeZone);
  if (from && to && from.getTime() >= to.getTime()) throw new AppError("BAD_REQUEST", PERIOD_ORDER);
  const [reviewers, counts] = await Promise.all([
    reviewerTotals(deps.db, { from, to }),
    reviewsPerDay(deps.db, { from, to, timeZone }),
  ]);
  const days: ReviewDay[] = [];
  for (const c of counts) {
    let last = days.at(-1);
    if (last?.day !== c.day) days.push((last = { day: c.day, counts: [] }));
    last.counts.push({ reviewerId: c.reviewerId, reviews: c.reviews });
  }
  return { reviewers, days, timeZone };
}
