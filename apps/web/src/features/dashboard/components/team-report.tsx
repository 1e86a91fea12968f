import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useTRPC } from "#web/lib/trpc";
import { downloadCsv } from "#web/lib/csv";
import { reportCsv } from "#web/features/dashboard/lib/csv";
import type { Period, ReportRange } from "#web/features/dashboard/lib/period";
import { PaymentRates } from "./payment-rates";
import { PeriodSelect } from "./period-select";
import { REPORT_COLUMNS, ReportRow } from "./report-row";
import { StatsLoading, StatsProblem } from "./stats-problem";
import { ScrollRegion } from "./scroll-region";

/**
 * SPEC §2.6 Team Engagement Report (decision 011): the payment rates with their in-place edit, a
 * period selector, 'Download CSV' of the rows shown, and the table from `statistics.teamReport`
 * for the period, each row expandable to its details. 'No staff yet' when there is none. The
 * period (`period`, its `range`) is the Dashboard's: the Reviews section follows it too.
 */
export function TeamReport({
  period,
  range,
  onPeriodChange,
}: {
  period: Period;
  range: ReportRange;
  onPeriodChange: (period: Period) => void;
}) {
  const trpc = useTRPC();
  const report = useQuery({
    ...trpc.statistics.teamReport.queryOptions(range.ok ? range.input : {}),
    enabled: range.ok,
    placeholderData: keepPreviousData,
    meta: { errorMessage: "Team report could not be loaded" },
  });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const toggle = (id: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const choosePeriod = (next: Period) => {
    // A custom range starts as this month so far, rather than as two empty fields.
    if (next.kind === "custom" && !next.from && !next.to) {
      const today = dayjs();
      next = { ...next, from: today.startOf("month").format("YYYY-MM-DD"), to: today.format("YYYY-MM-DD") };
    }
    onPeriodChange(next);
  };

  const rows = range.ok && !report.isPlaceholderData ? report.data : undefined;
  const download = () => {
    if (range.ok && rows) downloadCsv(`team-report-${range.slug}.csv`, reportCsv(rows));
  };

  const body = () => {
    if (!range.ok) {
      return (
        <tr>
          <td colSpan={REPORT_COLUMNS.length} className="empty-state">
            Choose a valid period to see the report.
          </td>
        </tr>
      );
    }
    if (!report.data) {
      return (
        <tr>
          <td colSpan={REPORT_COLUMNS.length}>
            {report.isError ? (
              <StatsProblem onRetry={() => void report.refetch()} />
            ) : (
              <StatsLoading label="Loading report…" />
            )}
          </td>
        </tr>
      );
    }
    if (report.data.length === 0) {
      return (
        <tr>
          <td colSpan={REPORT_COLUMNS.length} className="empty-state">
            No staff yet
          </td>
        </tr>
      );
    }
    return report.data.map((row) => (
      <ReportRow key={row.id} row={row} expanded={expanded.has(row.id)} onToggle={() => toggle(row.id)} />
    ));
  };

  return (
    <section className="card dash-panel" aria-labelledby="dash-report-title">
      <div className="dash-panel-header">
        <h2 className="section-title" id="dash-report-title">
          Team Engagement Report
        </h2>
        <button type="button" className="btn btn-sm" onClick={download} disabled={!rows || rows.length === 0}>
          Download CSV
        </button>
      </div>
      <PaymentRates />
      <PeriodSelect value={period} onChange={choosePeriod} error={range.ok ? undefined : range.error} />
      <ScrollRegion label="Team Engagement Report" busy={report.isFetching}>
        <table className="table dash-table" aria-labelledby="dash-report-title dash-report-period">
          <caption className="dash-caption" id="dash-report-period">
            {range.ok ? range.label : "No period"}
          </caption>
          <thead>
            <tr>
              {REPORT_COLUMNS.map((column) => (
                <th
                  key={column}
                  scope="col"
                  className={column === "Username" || column === "Details" ? undefined : "num"}
                >
                  {column === "Details" ? <span className="sr-only">Details</span> : column}
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
