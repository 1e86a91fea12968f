import { lazy, Suspense } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useTRPC } from "#web/lib/trpc";
import { formatCount } from "#web/features/dashboard/lib/format";
import type { ReportRange } from "#web/features/dashboard/lib/period";
import { dailyTotals } from "#web/features/dashboard/lib/review-days";
import { formatWait, spokenWait } from "#web/features/dashboard/lib/wait";
import { StatsLoading, StatsProblem } from "./stats-problem";
import { ScrollRegion } from "./scroll-region";

/** recharts is only fetched when the chart is first shown, never with the sign-in page. */
const ReviewsPerDayChart = lazy(() => import("./reviews-per-day-chart"));

/** The admin's IANA time zone, as the browser knows it (the period's dates are read in it too). */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** The median wait, or a dash that says 'none' to screen readers. */
function Wait({ seconds }: { seconds: number | null }) {
  if (seconds === null) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">none</span>
      </>
    );
  }
  return (
    <>
      <span aria-hidden="true">{formatWait(seconds)}</span>
      <span className="sr-only">{spokenWait(seconds)}</span>
    </>
  );
}

/**
 * Decision 025, the Dashboard's Reviews section for the period chosen in the Team Engagement
 * Report (`range`): from `statistics.reviewers`, a table with one row per admin (reviews, approved,
 * rejected, median wait from a version's save to its review, e.g. '3 h 20 min'), and the reviews
 * per day in the admin's time zone as a bar chart with the same figures per admin as a table
 * (behind 'Reviews per day as a table'). Live: the statistics refetch on every task change.
 * Loading, error ('Statistics could not be loaded.' with Retry) and empty ('No reviews in this
 * period.') states.
 */
export function ReviewerFigures({ range }: { range: ReportRange }) {
  const trpc = useTRPC();
  const timeZone = browserTimeZone();
  const input = { ...(range.ok ? range.input : {}), ...(timeZone ? { timeZone } : {}) };
  const figures = useQuery({
    ...trpc.statistics.reviewers.queryOptions(input),
    enabled: range.ok,
    placeholderData: keepPreviousData,
    meta: { errorMessage: "Reviewer figures could not be loaded" },
  });

  const content = () => {
    if (!range.ok) return <p className="empty-state">Choose a valid period to see the reviews.</p>;
    if (!figures.data) {
      if (figures.isError) return <StatsProblem onRetry={() => void figures.refetch()} />;
      return <StatsLoading label="Loading reviews…" />;
    }
    const { reviewers, days } = figures.data;
    const total = reviewers.reduce((sum, r) => sum + r.reviews, 0);
    if (total === 0) return <p className="empty-state">No reviews in this period.</p>;
    const active = reviewers.filter((r) => r.reviews > 0);
    const today = dayjs().format("YYYY-MM-DD");
    const chartDays = dailyTotals(days, range.input, today);
    return (
      <>
        <ScrollRegion label="Reviews per admin">
          <table className="table dash-table" aria-labelledby="dash-reviews-title dash-reviews-period">
            <caption className="dash-caption" id="dash-reviews-period">
              {range.label}
            </caption>
            <thead>
              <tr>
                <th scope="col">Admin</th>
                <th scope="col" className="num">
                  Reviews
                </th>
                <th scope="col" className="num">
                  Approved
                </th>
                <th scope="col" className="num">
                  Rejected
                </th>
                <th scope="col" className="num">
                  Median wait
                </th>
              </tr>
            </thead>
            <tbody>
              {reviewers.map((row) => (
                <tr key={row.id ?? "deleted"}>
                  <th scope="row" className="dash-user">
                    {row.id === null ? <em>{row.username}</em> : row.username}
                  </th>
                  <td className="num">{formatCount(row.reviews)}</td>
                  <td className="num">{formatCount(row.approvals)}</td>
                  <td className="num">{formatCount(row.rejections)}</td>
                  <td className="num">
                    <Wait seconds={row.medianWaitSeconds} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        <h3 className="dash-subtitle" id="dash-reviews-days-title">
          Reviews per day
        </h3>
        <div
          className="dash-chart dash-reviews-chart"
          aria-hidden="true"
          data-testid="reviews-per-day-chart"
          data-bars={chartDays.length}
        >
          <Suspense fallback={<StatsLoading label="Loading chart…" />}>
            <ReviewsPerDayChart days={chartDays} />
          </Suspense>
        </div>
        <details className="dash-reviews-days">
          <summary>Reviews per day as a table</summary>
          <ScrollRegion label="Reviews per day, per admin">
            <table className="table dash-table" aria-labelledby="dash-reviews-days-title dash-reviews-period">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  {active.map((r) => (
                    <th key={r.id ?? "deleted"} scope="col" className="num">
                      {r.username}
                    </th>
                  ))}
                  <th scope="col" className="num">
                    All admins
                  </th>
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.day}>
                    <th scope="row">
                      <time dateTime={d.day}>{dayjs(d.day).format("ddd D MMM YYYY")}</time>
                    </th>
                    {active.map((r) => (
                      <td key={r.id ?? "deleted"} className="num">
                        {formatCount(d.counts.find((c) => c.reviewerId === r.id)?.reviews ?? 0)}
                      </td>
                    ))}
                    <td className="num">{formatCount(d.counts.reduce((sum, c) => sum + c.reviews, 0))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <p className="muted dash-reviews-days-note">
            Days with reviews only; a day is midnight to midnight in {figures.data.timeZone}.
          </p>
        </details>
      </>
    );
  };

  return (
    <section className="card dash-panel" aria-labelledby="dash-reviews-title" aria-busy={figures.isFetching}>
      <h2 className="section-title" id="dash-reviews-title">
        Reviews
      </h2>
      <p className="muted dash-note">
        Approvals and rejections per admin in the Team Engagement Report&apos;s period. Median wait: how long a
        transcript or recording waited from its save to its review.
      </p>
      {content()}
    </section>
  );
}
