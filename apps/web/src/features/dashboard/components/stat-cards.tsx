import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { OVERVIEW_META } from "#web/features/dashboard/lib/statistics-meta";
import { formatCount } from "#web/features/dashboard/lib/format";
import { StatsLoading, StatsProblem } from "./stats-problem";

/** One card: a title, its total and the two figures it splits into. */
function StatCard({ title, parts }: { title: string; parts: [label: string, value: number][] }) {
  const id = `dash-card-${title.toLowerCase().replace(/\s+/g, "-")}`;
  const total = parts.reduce((sum, [, value]) => sum + value, 0);
  return (
    <section className="card dash-card" aria-labelledby={id}>
      <h3 className="dash-card-title" id={id}>
        {title}
      </h3>
      <p className="dash-card-total" aria-hidden="true">
        {formatCount(total)}
      </p>
      <dl className="dash-card-parts">
        {parts.map(([label, value]) => (
          <div key={label} className="dash-card-part">
            <dt>{label}</dt>
            <dd>{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * SPEC §2.6 cards from `statistics.overview`: Total Users (administrators, staff), Tasks
 * (completed, pending), Submissions (today, yesterday in the server's time zone). Each card
 * shows its total large; the parts say the same in words for assistive technology.
 */
export function StatCards() {
  const trpc = useTRPC();
  const overview = useQuery({ ...trpc.statistics.overview.queryOptions(), meta: OVERVIEW_META });

  if (!overview.data) {
    if (overview.isError) return <StatsProblem onRetry={() => void overview.refetch()} />;
    return <StatsLoading label="Loading statistics…" />;
  }
  const { users, tasks, submissions } = overview.data;
  return (
    <div className="dash-cards">
      <StatCard
        title="Total Users"
        parts={[
          ["Administrators", users.adminCount],
          ["Staff", users.staffCount],
        ]}
      />
      <StatCard
        title="Tasks"
        parts={[
          ["Completed", tasks.completed],
          ["Pending", tasks.pending],
        ]}
      />
      <StatCard
        title="Submissions"
        parts={[
          ["Today", submissions.today],
          ["Yesterday", submissions.yesterday],
        ]}
      />
    </div>
  );
}
