import { describe, expect, it } from "vitest";
import { dailyTotals } from "./review-days";

/** The API's day: each admin's reviews that day. */
const day = (date: string, ...reviews: number[]) => ({ day: date, counts: reviews.map((n) => ({ reviews: n })) });

describe("dailyTotals (decision 025: the Reviews chart's days)", () => {
  it("adds up the admins' reviews and fills the period's days without reviews with 0", () => {
    const days = [day("2026-01-02", 2, 1), day("2026-01-04", 1)];
    expect(dailyTotals(days, { from: "2026-01-01", to: "2026-01-06" }, "2026-01-20")).toEqual([
      { day: "2026-01-01", reviews: 0 },
      { day: "2026-01-02", reviews: 3 },
      { day: "2026-01-03", reviews: 0 },
      { day: "2026-01-04", reviews: 1 },
      { day: "2026-01-05", reviews: 0 },
    ]);
  });

  it("without a start, begins at the first day with reviews; it never runs past today", () => {
    const days = [day("2026-01-14", 2)];
    expect(dailyTotals(days, {}, "2026-01-16")).toEqual([
      { day: "2026-01-14", reviews: 2 },
      { day: "2026-01-15", reviews: 0 },
      { day: "2026-01-16", reviews: 0 },
    ]);
    expect(dailyTotals(days, { from: "2026-01-14", to: "2026-02-01" }, "2026-01-15")).toHaveLength(2);
  });

  it("gives today's row alone when the only reviews are today's", () => {
    expect(dailyTotals([day("2026-01-15", 2)], {}, "2026-01-15")).toEqual([{ day: "2026-01-15", reviews: 2 }]);
  });

  it("shows only the days with reviews over more than 400 days, or with no days to start from", () => {
    const days = [day("2024-01-01", 1), day("2026-01-01", 4)];
    expect(dailyTotals(days, {}, "2026-01-15")).toEqual([
      { day: "2024-01-01", reviews: 1 },
      { day: "2026-01-01", reviews: 4 },
    ]);
    expect(dailyTotals([], {}, "2026-01-15")).toEqual([]);
  });

  it("fills exactly 400 days, but not 401", () => {
    expect(dailyTotals([], { from: "2025-01-01", to: "2026-02-05" }, "2026-12-31")).toHaveLength(400);
    expect(dailyTotals([], { from: "2025-01-01", to: "2026-02-06" }, "2026-12-31")).toEqual([]);
  });

  it("a period that starts after today has no days to fill", () => {
    expect(dailyTotals([], { from: "2026-02-01", to: "2026-03-01" }, "2026-01-15")).toEqual([]);
  });
});
