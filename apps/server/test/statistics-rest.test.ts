import { afterAll, describe, expect, it } from "vitest";
import {
  EXPECTED_CARDS,
  EXPECTED_ENGAGEMENT,
  buildStatisticsFixture,
  expectedReportAllTime,
  expectedReportOctober,
} from "../../../packages/api/test/statistics-fixture";
import { createAppHarness, failed } from "./fixtures/app-harness";
import { trpcCall } from "./fixtures/hostile-world";

// SPEC §7.1, decision 011: GET /api/statistics, /api/user-engagement-overview and
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

const PATHS = [
  "/api/statistics",
  "/api/user-engagement-overview",
  "/api/team-performance-report",
  "/api/statistics/reviewers",
];

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

  it("audioMinutes of approved work, and a rate per audio minute in the payment once an admin sets one", async () => {
    const before = (await h.call("GET", "/api/team-performance-report", adminToken)).json<
      Array<{ username: string; audioMinutes: number; approvedWithoutDuration: number }>
    >();
    expect(before.map((r) => [r.username, r.audioMinutes, r.approvedWithoutDuration])).toEqual([
      ["st_alice", 11.5, 0],
      ["st_bob", 2.01, 1],
      ["st_carol", 3_723_400 / 60_000, 1],
      ["st_erin", 0, 0],
    ]);
    const set = await trpcCall(h, adminToken, "statistics.setRates", { audioMinute: 100 });
    expect(set.status, set.body).toBe(200);
    const res = await h.call("GET", "/api/team-performance-report", adminToken);
    expect(res.json()).toEqual(withIds(expectedReportAllTime(12000, 4500, 100)));
    const october = await h.call("GET", "/api/team-performance-report?from=2026-10-01&to=2026-11-01", adminToken);
    expect(october.json()).toEqual(withIds(expectedReportOctober(12000, 4500, true, 100)));
    expect((await trpcCall(h, adminToken, "statistics.setRates", { audioMinute: 0 })).status).toBe(200);
    expect((await h.call("GET", "/api/team-performance-report", adminToken)).json()).toEqual(
      withIds(expectedReportAllTime(12000, 4500)),
    );
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

describe("GET /api/statistics/reviewers (decision 025)", () => {
  it("answers the admin's eight reviews of the fixture (six approvals), today in Kampala, the median wait in seconds", async () => {
    const res = await h.call("GET", "/api/statistics/reviewers", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      reviewers: Array<{ id: string | null; username: string; reviews: number; medianWaitSeconds: number | null }>;
      days: Array<{ day: string; counts: Array<{ reviewerId: string | null; reviews: number }> }>;
      timeZone: string;
    }>();
    expect(body.timeZone).toBe("Africa/Kampala");
    expect(body.reviewers).toEqual([
      {
        id: f.admin.id,
        username: f.admin.username,
        reviews: 8,
        approvals: 6,
        rejections: 2,
        medianWaitSeconds: expect.any(Number),
      },
    ]);
    expect(body.reviewers[0]!.medianWaitSeconds).toBeGreaterThanOrEqual(0);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Kampala" }).format(new Date());
    expect(body.days).toEqual([{ day: today, counts: [{ reviewerId: f.admin.id, reviews: 8 }] }]);
    expect(body).toEqual(await h.caller(f.admin).statistics.reviewers());
  });

  it("a period and a time zone from the query; an empty period counts the admin at zero", async () => {
    const res = await h.call("GET", "/api/statistics/reviewers?from=2020-01-01&to=2020-02-01&timeZone=UTC", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      reviewers: [
        {
          id: f.admin.id,
          username: f.admin.username,
          reviews: 0,
          approvals: 0,
          rejections: 0,
          medianWaitSeconds: null,
        },
      ],
      days: [],
      timeZone: "UTC",
    });
    const blank = await h.call("GET", "/api/statistics/reviewers?from=&to=&timeZone=", adminToken);
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json<{ timeZone: string }>().timeZone).toBe("Africa/Kampala");
  });

  it("400 for a malformed or reversed period and an unknown time zone", async () => {
    for (const query of ["from=2026-13-01", "to=yesterday", "from=2026-10-01%2000:00", "from=" + "9".repeat(5000)]) {
      const res = await h.call("GET", `/api/statistics/reviewers?${query}`, adminToken);
      expect(res.statusCode, query.slice(0, 40)).toBe(400);
      expect(res.json<{ message: string }>().message, query.slice(0, 40)).toMatch(/^(from|to) must be an ISO date/);
    }
    const reversed = await h.call("GET", "/api/statistics/reviewers?from=2026-11-01&to=2026-10-01", adminToken);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toEqual(failed("from must be before to."));
    for (const zone of ["Mars%2FOlympus", "UTC'%3B%20drop%20table%20reviews%3B--", "A".repeat(300)]) {
      const res = await h.call("GET", `/api/statistics/reviewers?timeZone=${zone}`, adminToken);
      expect(res.statusCode, zone.slice(0, 40)).toBe(400);
      expect(res.json()).toEqual(failed("timeZone must be an IANA time zone such as Africa/Kampala or UTC."));
    }
  });
});

describe("the payment rates over HTTP (statistics.setRates): admin only, checked on the server", () => {
  const rates = async () => (await trpcCall(h, adminToken, "statistics.rates")).data;

  it("refuses a staff token (403) and no token (401), changing nothing", async () => {
    const now = await rates();
    const staff = await trpcCall(h, staffToken, "statistics.setRates", { audioMinute: 1_000 });
    expect(staff.status).toBe(403);
    expect(staff.error).toMatchObject({ message: "Only administrators may do this." });
    expect((await trpcCall(h, staffToken, "statistics.rates")).status).toBe(403);
    const anonymous = await trpcCall(h, null, "statistics.setRates", { audioMinute: 1_000, transcript: 1 });
    expect(anonymous.status).toBe(401);
    expect(await rates()).toEqual(now);
  });

  it("refuses a negative, fractional, oversized, non-numeric or missing rate (400 with the rule), changing nothing", async () => {
    const now = await rates();
    const rule = "The rate per audio minute must be a whole number of UGX from 0 (none) to 100,000,000.";
    for (const [input, message] of [
      [{ audioMinute: -1 }, rule],
      [{ audioMinute: 0.5 }, rule],
      [{ audioMinute: 100_000_001 }, rule],
      [{ audioMinute: 1e300 }, rule],
      [{ audioMinute: "100" }, rule],
      [{ audioMinute: "abc" }, rule],
      [{ audioMinute: null }, rule],
      [{ audioMinute: [100] }, rule],
      [{ transcript: -5 }, "A rate must be a positive whole number of UGX (at most 100,000,000)."],
      [{}, "Give at least one rate: per transcript, per recording or per audio minute."],
    ] as const) {
      const res = await trpcCall(h, adminToken, "statistics.setRates", input);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.error?.message, JSON.stringify(input)).toContain(message);
    }
    // Not JSON numbers at all: a body that is not JSON, NaN written out.
    const raw = await h.app.inject({
      method: "POST",
      url: "/trpc/statistics.setRates",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      payload: '{"audioMinute": NaN}',
    });
    expect(raw.statusCode).toBe(400);
    expect(await rates()).toEqual(now);
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
