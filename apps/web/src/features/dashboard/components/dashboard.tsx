import { useState } from "react";
import { reportRange, type Period } from "#web/features/dashboard/lib/period";
import { ActivityTable } from "./activity-table";
import { BalanceTable } from "./balance-table";
import { ReviewerFigures } from "./reviewer-figures";
import { SpeechMeasuresTable } from "./speech-measures-table";
import { StatCards } from "./stat-cards";
import { TeamReport } from "./team-report";
import { WorkLoad } from "./work-load";
import "#web/features/dashboard/dashboard.css";

/**
 * The Admin dashboard's statistics (SPEC §2.6): the three cards, Staff overall Activity,
 * Work Load, the Team Engagement Report, the Reviews of decision 025 (for the report's period), the
 * Study balance of decision 024 and, after it, the speech measures of decision 035. Each part loads
 * and fails on its own; the statistics follow task changes live (the live events refetch their
 * queries).
 */
export function Dashboard() {
  const [period, setPeriod] = useState<Period>({ kind: "all", from: "", to: "" });
  const range = reportRange(period);
  return (
    <div className="dash">
      <h2 className="sr-only">Overview</h2>
      <StatCards />
      <div className="dash-grid">
        <ActivityTable />
        <WorkLoad />
      </div>
      <TeamReport period={period} range={range} onPeriodChange={setPeriod} />
      <ReviewerFigures range={range} />
      <BalanceTable />
      <SpeechMeasuresTable />
    </div>
  );
}
