import { describe, expect, it } from "vitest";
import { reportRange, type Period } from "./period";

/** Noon on 15 January 2026 in the browser's own time zone. */
const TODAY = new Date(2026, 0, 15, 12);
const custom = (from: string, to: string): Period => ({ kind: "custom", from, to });

describe("reportRange (decision 011: the Team Engagement Report's period)", () => {
  it("all time asks for no bounds", () => {
    expect(reportRange({ kind: "all", from: "", to: "" }, TODAY)).toEqual({
      ok: true,
      input: {},
      label: "All time",
      slug: "all-time",
    });
  });

  it("this month runs from its first day to the next month's first", () => {
    expect(reportRange({ kind: "thisMonth", from: "", to: "" }, TODAY)).toEqual({
      ok: true,
      input: { from: "2026-01-01", to: "2026-02-01" },
      label: "This month (January 2026)",
      slug: "2026-01",
    });
    const lastDay = reportRange({ kind: "thisMonth", from: "", to: "" }, new Date(2026, 11, 31, 23, 59));
    expect(lastDay).toMatchObject({
      input: { from: "2026-12-01", to: "2027-01-01" },
      label: "This month (December 2026)",
    });
  });

  it("last month is the month before, across a new year too", () => {
    expect(reportRange({ kind: "lastMonth", from: "", to: "" }, TODAY)).toEqual({
      ok: true,
      input: { from: "2025-12-01", to: "2026-01-01" },
      label: "Last month (December 2025)",
      slug: "2025-12",
    });
  });

  it("a custom range includes its To day: it is sent as the next day", () => {
    // dashboard.spec.ts: a range from today to today holds today's approvals.
    expect(reportRange(custom("2026-01-15", "2026-01-15"), TODAY)).toEqual({
      ok: true,
      input: { from: "2026-01-15", to: "2026-01-16" },
      label: "15 Jan 2026 to 15 Jan 2026",
      slug: "2026-01-15-to-2026-01-15",
    });
    expect(reportRange(custom("2026-02-01", "2026-02-28"), TODAY)).toMatchObject({
      input: { from: "2026-02-01", to: "2026-03-01" },
    });
  });

  it("a custom range may leave one end open", () => {
    expect(reportRange(custom(" 2026-02-01 ", ""), TODAY)).toEqual({
      ok: true,
      input: { from: "2026-02-01" },
      label: "1 Feb 2026 to now",
      slug: "2026-02-01-to-now",
    });
    expect(reportRange(custom("", "2026-02-10"), TODAY)).toEqual({
      ok: true,
      input: { to: "2026-02-11" },
      label: "The start to 10 Feb 2026",
      slug: "start-to-2026-02-10",
    });
  });

  it("says why a custom range cannot be asked for", () => {
    expect(reportRange(custom("", " "), TODAY)).toEqual({ ok: false, error: "Choose a From date, a To date or both." });
    expect(reportRange(custom("01/02/2026", ""), TODAY)).toEqual({ ok: false, error: "Enter dates as YYYY-MM-DD." });
    expect(reportRange(custom("2026-02-01", "tomorrow"), TODAY)).toEqual({
      ok: false,
      error: "Enter dates as YYYY-MM-DD.",
    });
    expect(reportRange(custom("2026-02-10", "2026-02-01"), TODAY)).toEqual({
      ok: false,
      error: "From must be on or before To.",
    });
  });
});
