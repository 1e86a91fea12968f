import { afterAll, describe, expect, it } from "vitest";
import { dashboardCounts } from "@tafsiri/db/repositories/statistics";
import { createHarness } from "../src/testing/harness";
import { periodInstant } from "../src/services/statistics";
import {
  EXPECTED_CARDS,
  EXPECTED_ENGAGEMENT,
  TIME_ZONE,
  buildStatisticsFixture,
  expectedReportAllTime,
  expectedReportOctober,
} from "./statistics-fixture";
import { assignedAudio, workState } from "./workflow-fixtures";

// Issue 9: the Dashboard's cards, Staff overall Activity and Team Engagement Report (SPEC §2.6,
// §3) match a known fixture exactly, in a time zone other than UTC.

const h = await createHarness();
afterAll(() => h.close());
const f = await buildStatisticsFixture(h);
const asAdmin = h.caller(f.admin);
const asStaff = h.caller(f.alice);
const ids: Record<string, string> = {
  st_alice: f.alice.id,
  st_bob: f.bob.id,
  st_carol: f.carol.id,
  st_erin: f.erin.id,
};
const withIds = <T extends { username: string }>(rows: T[]) => rows.map((r) => ({ id: ids[r.username], ...r }));

describe("statistics.overview (SPEC §2.6 cards)", () => {
  it("counts active users by role, tasks by completion, and today's and yesterday's submissions in Kampala", async () => {
    await expect(asAdmin.statistics.overview()).resolves.toEqual({ ...EXPECTED_CARDS, timeZone: TIME_ZONE });
  });

  it("draws the day's line at midnight in the time zone, not in UTC", async () => {
    // Five minutes after midnight in Kampala (21:05 UTC the day before).
    const now = new Date(f.midnight + 5 * 60_000);
    await expect(dashboardCounts(h.deps.db, { timeZone: TIME_ZONE, now })).resolves.toMatchObject({
      today: 2,
      yesterday: 2,
    });
    // In UTC that instant is still the Kampala day before: M−1min and M+1min are both 'today'.
    await expect(dashboardCounts(h.deps.db, { timeZone: "UTC", now })).resolves.toMatchObject({
      today: 3,
      yesterday: 2,
    });
  });
});

describe("statistics.engagement (SPEC §2.6 Staff overall Activity)", () => {
  it("has one row per staff member with tasks, complete, pending and submissions", async () => {
    await expect(asAdmin.statistics.engagement()).resolves.toEqual(withIds(EXPECTED_ENGAGEMENT));
  });
});

describe("statistics.teamReport (SPEC §2.6 Team Engagement Report)", () => {
  it("all time: every count, the submissions percentage with 2 decimals and the payment at the default rates", async () => {
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 5000, recording: 5000 });
    await expect(asAdmin.statistics.teamReport({})).resolves.toEqual(withIds(expectedReportAllTime(5000, 5000)));
    await expect(asAdmin.statistics.teamReport()).resolves.toEqual(withIds(expectedReportAllTime(5000, 5000)));
  });

  it("a period counts reviews by review time, its dates midnight in APP_TIMEZONE", async () => {
    await expect(asAdmin.statistics.teamReport({ from: "2026-10-01", to: "2026-11-01" })).resolves.toEqual(
      withIds(expectedReportOctober(5000, 5000, true)),
    );
    await expect(
      asAdmin.statistics.teamReport({ from: "2026-10-01T00:00:00Z", to: "2026-11-01T00:00:00Z" }),
    ).resolves.toEqual(withIds(expectedReportOctober(5000, 5000, false)));
  });

  it("an open-ended period: from only, to only", async () => {
    const since = await asAdmin.statistics.teamReport({ from: "2026-11-01" });
    expect(since.map((r) => [r.username, r.completed, r.approvedRecordings, r.rejectedRecordings, r.payment])).toEqual([
      ["st_alice", 0, 0, 0, 0],
      ["st_bob", 1, 1, 1, 5000],
      ["st_carol", 0, 0, 0, 0],
      ["st_erin", 0, 0, 0, 0],
    ]);
    const before = await asAdmin.statistics.teamReport({ to: "2026-10-01" });
    expect(before.every((r) => r.payment === 0 && r.completed === 0)).toBe(true);
  });

  it("a rate change shows in the next report, audited", async () => {
    await expect(asAdmin.statistics.setRates({ transcript: 12000, recording: 4500 })).resolves.toEqual({
      message: "Payment rates updated successfully.",
      rates: { transcript: 12000, recording: 4500 },
    });
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 4500 });
    await expect(asAdmin.statistics.teamReport({})).resolves.toEqual(withIds(expectedReportAllTime(12000, 4500)));
    await expect(asAdmin.statistics.teamReport({ from: "2026-10-01", to: "2026-11-01" })).resolves.toEqual(
      withIds(expectedReportOctober(12000, 4500, true)),
    );
    await asAdmin.statistics.setRates({ recording: 6000 });
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 6000 });
    const audits = await h.deps.db
      .selectFrom("auditLog")
      .select(["actorId", "action", "entity", "entityId", "detail"])
      .where("entity", "=", "setting")
      .orderBy("id")
      .execute();
    expect(audits).toEqual([
      {
        actorId: f.admin.id,
        action: "set-rate",
        entity: "setting",
        entityId: "transcript_rate_ugx",
        detail: { from: 5000, to: 12000 },
      },
      {
        actorId: f.admin.id,
        action: "set-rate",
        entity: "setting",
        entityId: "recording_rate_ugx",
        detail: { from: 5000, to: 4500 },
      },
      {
        actorId: f.admin.id,
        action: "set-rate",
        entity: "setting",
        entityId: "recording_rate_ugx",
        detail: { from: 4500, to: 6000 },
      },
    ]);
  });
});

describe("refusals", () => {
  it("a staff member gets FORBIDDEN on every statistics procedure, an anonymous caller UNAUTHORIZED", async () => {
    const calls = [
      () => asStaff.statistics.overview(),
      () => asStaff.statistics.engagement(),
      () => asStaff.statistics.teamReport({}),
      () => asStaff.statistics.rates(),
      () => asStaff.statistics.setRates({ transcript: 1 }),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN", message: "Only administrators may do this." });
    }
    await expect(h.caller(null).statistics.overview()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 6000 });
  });

  it("refuses malformed, impossible and reversed periods", async () => {
    for (const input of [
      { from: "2026-13-01" },
      { from: "2026-02-30" },
      { to: "yesterday" },
      { from: "2026-10-01 00:00" },
      { from: "2026-10-01T00:00:00" },
    ]) {
      await expect(asAdmin.statistics.teamReport(input), JSON.stringify(input)).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    }
    for (const input of [
      { from: "2026-11-01", to: "2026-10-01" },
      { from: "2026-10-01", to: "2026-10-01" },
    ]) {
      await expect(asAdmin.statistics.teamReport(input)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "from must be before to.",
      });
    }
  });

  it("rates must be positive whole numbers of UGX, at least one given; nothing changes otherwise", async () => {
    for (const input of [
      { transcript: 0 },
      { recording: -5000 },
      { transcript: 12.5 },
      { transcript: 100_000_001 },
      { transcript: "5000" },
      {},
    ]) {
      await expect(asAdmin.statistics.setRates(input as never), JSON.stringify(input)).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    }
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 6000 });
  });
});

describe("review times (the report's period)", () => {
  it("an approval or rejection stamps the output's review time, a new submission or a deletion clears it", async () => {
    const audio = await assignedAudio(h, f.admin, f.erin);
    const reviewedAt = async () => {
      const { submission } = await workState(h, audio.id);
      return {
        transcript: submission?.transcriptReviewedAt ?? null,
        recording: submission?.recordingReviewedAt ?? null,
      };
    };
    await h.caller(f.erin).transcripts.save({ audioId: audio.id, text: "Draft." });
    expect(await reviewedAt()).toEqual({ transcript: null, recording: null });
    const before = Date.now();
    await asAdmin.transcripts.reject({ audioId: audio.id });
    const rejected = (await reviewedAt()).transcript;
    expect(rejected?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    await h.caller(f.erin).transcripts.save({ audioId: audio.id, text: "Second draft." });
    expect(await reviewedAt()).toEqual({ transcript: null, recording: null });
    await asAdmin.transcripts.approve({ audioId: audio.id });
    expect((await reviewedAt()).transcript).toBeInstanceOf(Date);
    const [erin] = (await asAdmin.statistics.teamReport({ from: new Date(before - 1000).toISOString() })).filter(
      (r) => r.id === f.erin.id,
    );
    expect(erin).toMatchObject({ approvedTranscripts: 1, translatedScripts: 1, payment: 12000 });
    await asAdmin.transcripts.remove({ audioId: audio.id });
    expect(await reviewedAt()).toEqual({ transcript: null, recording: null });
  });

  it("an ISO date is midnight in the time zone", () => {
    expect(periodInstant("2026-10-01", TIME_ZONE).toISOString()).toBe("2026-09-30T21:00:00.000Z");
    expect(periodInstant("2026-10-01", "UTC").toISOString()).toBe("2026-10-01T00:00:00.000Z");
    // Daylight saving: New York is UTC−4 on 1 July and UTC−5 on 1 December.
    expect(periodInstant("2026-07-01", "America/New_York").toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(periodInstant("2026-12-01", "America/New_York").toISOString()).toBe("2026-12-01T05:00:00.000Z");
    expect(periodInstant("2026-10-01T00:00:00+03:00", "UTC").toISOString()).toBe("2026-09-30T21:00:00.000Z");
  });
});
