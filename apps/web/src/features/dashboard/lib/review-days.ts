import dayjs from "dayjs";

/** A day of the Reviews chart: 'YYYY-MM-DD' and the reviews of all admins that day. */
export interface ReviewDayTotal {
  day: string;
  reviews: number;
}

/** Longest run of days the chart fills with zeros; a longer span shows only its days with reviews. */
const MAX_FILLED_DAYS = 400;

/**
 * The chart's days (decision 025): every day from the period's first day (or the first day with
 * reviews when the period has no start) to its last day (the day before `to`, or `today`,
 * whichever is earlier), days without reviews at 0, oldest first; only the days with reviews
 * when that span is longer than MAX_FILLED_DAYS or unknown. `days` are the API's days with reviews.
 */
export function dailyTotals(
  days: readonly { day: string; counts: readonly { reviews: number }[] }[],
  range: { from?: string; to?: string },
  today: string,
): ReviewDayTotal[] {
  const totals = days.map((d) => ({ day: d.day, reviews: d.counts.reduce((sum, c) => sum + c.reviews, 0) }));
  const first = range.from ?? totals[0]?.day;
  const periodLast = range.to ? dayjs(range.to).subtract(1, "day").format("YYYY-MM-DD") : today;
  const last = periodLast < today ? periodLast : today;
  if (!first || first > last) return totals;
  const span = dayjs(last).diff(dayjs(first), "day") + 1;
  if (span > MAX_FILLED_DAYS) return totals;
  const byDay = new Map(totals.map((t) => [t.day, t.reviews]));
  return Array.from({ length: span }, (_, i) => {
    const day = dayjs(first).add(i, "day").format("YYYY-MM-DD");
    return { day, reviews: byDay.get(day) ?? 0 };
  });
}
