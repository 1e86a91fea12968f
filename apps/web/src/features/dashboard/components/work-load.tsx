import { lazy, Suspense } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { ENGAGEMENT_META } from "#web/features/dashboard/lib/statistics-meta";
import { StatsLoading, StatsProblem } from "./stats-problem";

/** recharts is only fetched when the chart is first shown, never with the sign-in page. */
const WorkLoadChart = lazy(() => import("./work-load-chart"));

/**
 * SPEC §2.6 Work Load from `statistics.engagement`: a bar chart with one bar per user showing
 * completed of tasks (lazy, with a loading state), and the same figures as a visually hidden
 * table for assistive technology. 'No staff yet' when there is none.
 */
export function WorkLoad() {
  const trpc = useTRPC();
  const engagement = useQuery({ ...trpc.statistics.engagement.queryOptions(), meta: ENGAGEMENT_META });

  const content = () => {
    if (!engagement.data) {
      if (engagement.isError) return <StatsProblem onRetry={() => void engagement.refetch()} />;
      return <StatsLoading label="Loading work load…" />;
    }
    const rows = engagement.data;
    if (rows.length === 0) return <p className="empty-state">No staff yet</p>;
    return (
      <>
        <div className="dash-chart" aria-hidden="true" data-testid="work-load-chart" data-bars={rows.length}>
          <Suspense fallback={<StatsLoading label="Loading chart…" />}>
            <WorkLoadChart rows={rows} />
          </Suspense>
        </div>
        {/* A table ignores the 1px width of .sr-only, so a wrapper clips it: otherwise it widens the
            page at 375 px (WCAG 1.4.10). */}
        <div className="sr-only">
          <table>
            <caption>Work Load: tasks completed of tasks assigned, per user</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Completed</th>
                <th scope="col">Tasks</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row">{row.username}</th>
                  <td>{row.completed}</td>
                  <td>{row.tasks}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    );
  };

  return (
    <section className="card dash-panel" aria-labelledby="dash-workload-title">
      <h2 className="section-title" id="dash-workload-title">
        Work Load
      </h2>
      <p className="muted dash-note">Tasks completed of tasks assigned, per user.</p>
      {content()}
    </section>
  );
}
