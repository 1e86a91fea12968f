import dayjs from "dayjs";

/** The periods the Team Engagement Report offers (decision 011). */
export type PeriodKind = "all" | "thisMonth" | "lastMonth" | "custom";

/** The chosen period; `from` and `to` (YYYY-MM-DD, both inclusive as typed) are used for "custom" only. */
export interface Period {
  kind: PeriodKind;
  from: string;
  to: string;
}

/** What a period asks of `statistics.teamReport`, or why it cannot be asked yet. */
export type ReportRange =
  { ok: true; input: { from?: string; to?: string }; label: string; slug: string } | { ok: false; error: string };

const ISO_DATE = "YYYY-MM-DD";
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function isDate(value: string): boolean {
  return DATE_PATTERN.test(value) && dayjs(value).isValid();
}

/**
 * The report's range for `period`, computed in the browser's local calendar from `today`: the
 * `teamReport` input ([from, to), ISO dates, `to` exclusive, so a custom To day is sent as the
 * next day), a label for the caption and a slug for the CSV file name. A custom range needs at
 * least one valid date and From on or before To.
 */
export function reportRange(period: Period, today: Date = new Date()): ReportRange {
  const monthStart = dayjs(today).startOf("month");
  switch (period.kind) {
    case "all":
      return { ok: true, input: {}, label: "All time", slug: "all-time" };
    case "thisMonth":
      return {
        ok: true,
        input: { from: monthStart.format(ISO_DATE), to: monthStart.add(1, "month").format(ISO_DATE) },
        label: `This month (${monthStart.format("MMMM YYYY")})`,
        slug: monthStart.format("YYYY-MM"),
      };
    case "lastMonth": {
      const lastStart = monthStart.subtract(1, "month");
      return {
        ok: true,
        input: { from: lastStart.format(ISO_DATE), to: monthStart.format(ISO_DATE) },
        label: `Last month (${lastStart.format("MMMM YYYY")})`,
        slug: lastStart.format("YYYY-MM"),
      };
    }
    case "custom": {
      const from = period.from.trim();
      const to = period.to.trim();
      if (!from && !to) return { ok: false, error: "Choose a From date, a To date or both." };
      if ((from && !isDate(from)) || (to && !isDate(to))) return { ok: false, error: "Enter dates as YYYY-MM-DD." };
      if (from && to && from > to) return { ok: false, error: "From must be on or before To." };
      const input: { from?: string; to?: string } = {};
      if (from) input.from = from;
      if (to) input.to = dayjs(to).add(1, "day").format(ISO_DATE);
      const show = (date: string) => dayjs(date).format("D MMM YYYY");
      return {
        ok: true,
        input,
        label: `${from ? show(from) : "The start"} to ${to ? show(to) : "now"}`,
        slug: `${from || "start"}-to-${to || "now"}`,
      };
    }
  }
}
