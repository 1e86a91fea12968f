import { ActivityTable } from "./activity-table";
import { StatCards } from "./stat-cards";
import { TeamReport } from "./team-report";
import { WorkLoad } from "./work-load";

/**
 * The Admin dashboard's statistics (SPEC §2.6, issue 9): the three cards, Staff overall Activity,
 * Work Load and the Team Engagement Report. Each part loads and fails on its own; all of them
 * follow task changes live (the live events refetch the statistics queries).
 */
export function Dashboard() {
  return (
    <div className="dash">
      <h2 className="sr-only">Overview</h2>
      <StatCards />
      <div className="dash-grid">
        <ActivityTable />
        <WorkLoad />
      </div>
      <TeamReport />
    </div>
  );
}
