import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { ENGAGEMENT_META } from "#web/features/dashboard/lib/statistics-meta";
import { formatCount } from "#web/features/dashboard/lib/format";
import { StatsLoading, StatsProblem } from "./stats-problem";
import { ScrollRegion } from "./scroll-region";

const COLUMNS = ["User", "Tasks", "Completed", "Pending", "Submissions"] as const;

/**
 * SPEC §2.6 Staff overall Activity from `statistics.engagement`: one row per staff member
 * (user, tasks, completed, pending, submissions); 'No staff yet' when there is none.
 */
export function ActivityTable() {
  const trpc = useTRPC();
  const engagement = useQuery({ ...trpc.statistics.engagement.queryOptions(), meta: ENGAGEMENT_META });

  const body = () => {
    if (!engagement.data) {
      return (
        <tr>
          <td colSpan={COLUMNS.length}>
            {engagement.isError ? (
              <StatsProblem onRetry={() => void engagement.refetch()} />
            ) : (
              <StatsLoading label="Loading activity…" />
            )}
          </td>
        </tr>
      );
    }
    if (engagement.data.length === 0) {
      return (
        <tr>
          <td colSpan={COLUMNS.length} className="empty-state">
            No staff yet
          </td>
        </tr>
      );
    }
    return engagement.data.map((row) => (
      <tr key={row.id}>
        <th scope="row" className="dash-user">
          {row.username}
        </th>
        <td className="num">{formatCount(row.tasks)}</td>
        <td className="num">{formatCount(row.completed)}</td>
        <td className="num">{formatCount(row.pending)}</td>
        <td className="num">{formatCount(row.submissions)}</td>
      </tr>
    ));
  };

  return (
    <section className="card dash-panel" aria-labelledby="dash-activity-title">
      <h2 className="section-title" id="dash-activity-title">
        Staff overall Activity
      </h2>
      <ScrollRegion label="Staff overall Activity">
        <table className="table dash-table" aria-labelledby="dash-activity-title">
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className={column === "User" ? undefined : "num"}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{body()}</tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
