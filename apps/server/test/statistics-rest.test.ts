import { afterAll, describe, expect, it } from "vitest";
import {
  EXPECTED_CARDS,
  EXPECTED_ENGAGEMENT,
  buildStatisticsFixture,
  expectedReportAllTime,
  expectedReportOctober,
} from "../../../packages/api/test/statistics-fixture";
import { createAppHarness, failed } from "./fixtures/app-harness";

// Issue 9, SPEC §7.1: GET /api/statistics, /api/user-engagement-overview and
// /api/team-performance-report answer the known fixture's figures (packages/api/test/
// statistics-fixture.ts) in the spec's shapes; every answer is checked against the OpenAPI document.

const h = await createAppHarness();
afterAll(() => h.close());
const f = await buildStatisticsFixture(h);
const [adminToken, staffToken] = await Promise.all([h.token(f.admin), h.token(f.alice)]);
const ids: Record<string, string> = {
  st_alice: f.alice.id,
  st_bob: f.bob.id,
  st_carol: f.carol.id,
  st_erin: f.erin.id,
};
const withIds = <T extends { username: string }>(rows: T[]) => rows.map((r) => ({ _id: ids[r.username], ...r }));

const PATHS = ["/api/statistics", "/api/user-engagement-overview", "/api/team-performance-report"];

describe("GET /api/statistics", () => {
  it("answers the three category records", async () => {
    const res = await h.call("GET", "/api/statistics", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { category: "Total Users", ...EXPECTED_CARDS.users },
      { category: "Tasks", ...EXPECTED_CARDS.tasks },
      { category: "Submissions", ...EXPECTED_CARDS.submissions },
    ]);
  });
});

describe("GET /api/user-engagement-overview", () => {
  it("answers one row per staff member", async () => {
    const res = await h.call("GET", "/api/user-engagement-overview", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(withIds(EXPECTED_ENGAGEMENT));
  });
});

describe("GET /api/team-performance-report", () => {
  it("all time, and with empty bounds", async () => {
    for (const url of ["/api/team-performance-report", "/api/team-performance-report?from=&to="]) {
      const res = await h.call("GET", url, adminToken);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(withIds(expectedReportAllTime(5000, 5000)));
    }
  });

  it("a period by review time: dates in APP_TIMEZONE, date-times as given", async () => {
    const local = await h.call("GET", "/api/team-performance-report?from=2026-10-01&to=2026-11-01", adminToken);
    expect(local.statusCode, local.body).toBe(200);
    expect(local.json()).toEqual(withIds(expectedReportOctober(5000, 5000, true)));
    const utc = await h.call(
      "GET",
      "/api/team-performance-report?from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z",
      adminToken,
    );
    expect(utc.statusCode, utc.body).toBe(200);
    expect(utc.json()).toEqual(withIds(expectedReportOctober(5000, 5000, false)));
  });

  it("a rate change shows at once", async () => {
    await h.caller(f.admin).statistics.setRates({ transcript: 12000, recording: 4500 });
    const res = await h.call("GET", "/api/team-performance-report", adminToken);
    expect(res.json()).toEqual(withIds(expectedReportAllTime(12000, 4500)));
  });

  it("400 for a malformed, impossible or reversed period", async () => {
    for (const query of ["from=2026-13-01", "to=yesterday", "from=2026-02-30", "from=2026-10-01%2000:00"]) {
      const res = await h.call("GET", `/api/team-performance-report?${query}`, adminToken);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ message: string }>().message, query).toMatch(/^(from|to) must be an ISO date/);
    }
    const reversed = await h.call("GET", "/api/team-performance-report?from=2026-11-01&to=2026-10-01", adminToken);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toEqual(failed("from must be before to."));
  });
});

describe("refusals", () => {
  it("403 for a staff token, 401 without one, on every path", async () => {
    for (const path of PATHS) {
      const staff = await h.call("GET", path, staffToken);
      expect(staff.statusCode, path).toBe(403);
      expect(staff.json()).toEqual(failed("Only administrators may do this."));
      const anonymous = await h.call("GET", path, null);
      expect(anonymous.statusCode, path).toBe(401);
    }
  });
});
