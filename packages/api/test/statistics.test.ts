import { afterAll, describe, expect, it } from "vitest";
import { dashboardCounts } from "@tafsiri/db/repositories/statistics";
import { createHarness } from "../src/testing/harness";
import { appRouter } from "../src/root";
import { createCallerFactory } from "../src/trpc";
import { periodInstant } from "../src/services/statistics";
import {
  EXPECTED_CARDS,
  EXPECTED_ENGAGEMENT,
  TIME_ZONE,
  buildStatisticsFixture,
  expectedReportAllTime,
  expectedReportOctober,
} from "./statistics-fixture";
import { uploadRecording } from "../src/uploads/store-upload";
import { approvedWork, assignedAudio, tempWav, workState } from "./workflow-fixtures";

// Decision 011: the Dashboard's cards, Staff overall Activity and Team Engagement Report (SPEC §2.6,
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

/** Gives the translated recording of `audioId` a duration, as the server's waveform job does. */
async function setRecordingDuration(audioId: string, seconds: number): Promise<void> {
  const { submission } = await workState(h, audioId);
  await h.deps.db
    .updateTable("translatedRecordings")
    .set({ durationSeconds: seconds })
    .where("submissionId", "=", submission!.id)
    .execute();
}

describe("statistics.overview (SPEC §2.6 cards)", () => {
  it("counts active users by role, tasks by completion, and today's and yesterday's submissions in Kampala", async () => {
    await expect(asAdmin.statistics.overview()).resolves.toEqual({
      ...EXPECTED_CARDS,
      timeZone: TIME_ZONE,
      programmeName: "Tafsiri",
    });
  });

  it("carries the programme's name for the welcome banner (PROGRAMME_NAME, SPEC §1)", async () => {
    const named = createCallerFactory(appRouter)({ ...h.deps, programmeName: "Memory Voices Study", user: f.admin });
    await expect(named.statistics.overview()).resolves.toMatchObject({ programmeName: "Memory Voices Study" });
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
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 5000, recording: 5000, audioMinute: 0 });
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
      rates: { transcript: 12000, recording: 4500, audioMinute: 0 },
    });
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 4500, audioMinute: 0 });
    await expect(asAdmin.statistics.teamReport({})).resolves.toEqual(withIds(expectedReportAllTime(12000, 4500)));
    await expect(asAdmin.statistics.teamReport({ from: "2026-10-01", to: "2026-11-01" })).resolves.toEqual(
      withIds(expectedReportOctober(12000, 4500, true)),
    );
    await asAdmin.statistics.setRates({ recording: 6000 });
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 6000, audioMinute: 0 });
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

describe("statistics.teamReport audio minutes and the rate per audio minute", () => {
  it("adds audio minutes × the rate per audio minute to the payment; 0 (the default) leaves it per item", async () => {
    await expect(asAdmin.statistics.setRates({ audioMinute: 100 })).resolves.toEqual({
      message: "Payment rates updated successfully.",
      rates: { transcript: 12000, recording: 6000, audioMinute: 100 },
    });
    // alice 11.5 min → 1,150; bob 2.01 → 201; carol 62.0567 → 6,206 (exact minutes, the sum rounded).
    await expect(asAdmin.statistics.teamReport({})).resolves.toEqual(withIds(expectedReportAllTime(12000, 6000, 100)));
    const [alice, bob, carol] = await asAdmin.statistics.teamReport({});
    expect([alice!.payment, bob!.payment, carol!.payment]).toEqual([19_150, 18_201, 24_206]);
    await expect(asAdmin.statistics.teamReport({ from: "2026-10-01", to: "2026-11-01" })).resolves.toEqual(
      withIds(expectedReportOctober(12000, 6000, true, 100)),
    );
    await asAdmin.statistics.setRates({ audioMinute: 0 });
    await expect(asAdmin.statistics.teamReport({})).resolves.toEqual(withIds(expectedReportAllTime(12000, 6000)));
    const audits = await h.deps.db
      .selectFrom("auditLog")
      .select(["entityId", "detail"])
      .where("entity", "=", "setting")
      .where("entityId", "=", "audio_minute_rate_ugx")
      .orderBy("id")
      .execute();
    expect(audits).toEqual([
      { entityId: "audio_minute_rate_ugx", detail: { from: null, to: 100 } },
      { entityId: "audio_minute_rate_ugx", detail: { from: 100, to: 0 } },
    ]);
  });

  it("counts a duration that arrives after the approval, and a changed or removed recording, at once", async () => {
    const minutesOf = async (period: { from?: string; to?: string } = {}) => {
      const row = (await asAdmin.statistics.teamReport(period)).find((r) => r.id === f.erin.id)!;
      return [row.transcriptAudioMinutes, row.recordingAudioMinutes, row.audioMinutes, row.approvedWithoutDuration];
    };
    const audio = await assignedAudio(h, f.admin, f.erin);
    await h.caller(f.erin).transcripts.save({ audioId: audio.id, text: "Habari." });
    await uploadRecording(h.deps, f.erin, { audioId: audio.id, recordedBy: f.erin.id, file: await tempWav(h) });
    await asAdmin.transcripts.approve({ audioId: audio.id });
    await asAdmin.recordings.approve({ audioId: audio.id });
    // Approved before the waveform job ran: no minutes yet, two approved outputs without a duration.
    expect(await minutesOf()).toEqual([0, 0, 0, 2]);
    const today = new Date().toISOString().slice(0, 10);
    await h.deps.db.updateTable("audios").set({ durationSeconds: 245.3 }).where("id", "=", audio.id).execute();
    const [audioMinutes, recordingMinutes] = [245_300 / 60_000, 3_723_400 / 60_000];
    expect(await minutesOf()).toEqual([audioMinutes, 0, audioMinutes, 1]);
    await setRecordingDuration(audio.id, 3723.4);
    const both = [audioMinutes, recordingMinutes, (245_300 + 3_723_400) / 60_000, 0];
    expect(await minutesOf()).toEqual(both);
    // The same through a period: today's reviews (from the partial days at its ends).
    expect(await minutesOf({ from: `${today}T00:00:00Z` })).toEqual(both);
    expect(await minutesOf({ to: "2026-01-01" })).toEqual([0, 0, 0, 0]);
    // The recording removed: its minutes go.
    await asAdmin.recordings.remove({ audioId: audio.id });
    expect(await minutesOf()).toEqual([audioMinutes, 0, audioMinutes, 0]);
    // The transcript's audio becomes undecodable (null again).
    await h.deps.db.updateTable("audios").set({ durationSeconds: null }).where("id", "=", audio.id).execute();
    expect(await minutesOf()).toEqual([0, 0, 0, 1]);
    await asAdmin.audios.delete({ audioId: audio.id });
    expect(await minutesOf()).toEqual([0, 0, 0, 0]);
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
      () => asStaff.statistics.setRates({ audioMinute: 1_000 }),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN", message: "Only administrators may do this." });
    }
    await expect(h.caller(null).statistics.overview()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(h.caller(null).statistics.setRates({ audioMinute: 1_000 })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 6000, audioMinute: 0 });
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
      { audioMinute: -1 },
      { audioMinute: 1.5 },
      { audioMinute: 100_000_001 },
      { audioMinute: Number.POSITIVE_INFINITY },
      { audioMinute: Number.NaN },
      { audioMinute: "100" },
      { audioMinute: null },
      { audioMinute: 100, transcript: 0 },
    ]) {
      await expect(asAdmin.statistics.setRates(input as never), JSON.stringify(input)).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    }
    await expect(asAdmin.statistics.setRates({ audioMinute: -1 })).rejects.toThrow(
      "The rate per audio minute must be a whole number of UGX from 0 (none) to 100,000,000.",
    );
    await expect(asAdmin.statistics.setRates({})).rejects.toThrow(
      "Give at least one rate: per transcript, per recording or per audio minute.",
    );
    await expect(asAdmin.statistics.rates()).resolves.toEqual({ transcript: 12000, recording: 6000, audioMinute: 0 });
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

describe("the payment's rounding (raw SQL in numeric, dashboard.spec's figures)", () => {
  it("pays a half UGX up: 1:02:03.4 and 4:05.3 approved are 66.145 minutes, × 100 UGX = 6,614.5, paid 6,615", async () => {
    const staff = await h.createUser("Staff");
    const audio = await approvedWork(h, f.admin, staff);
    await h.deps.db.updateTable("audios").set({ durationSeconds: 3723.4 }).where("id", "=", audio.id).execute();
    await setRecordingDuration(audio.id, 245.3);
    const { transcript, recording } = await asAdmin.statistics.rates();
    await asAdmin.statistics.setRates({ audioMinute: 100 });
    try {
      const row = (await asAdmin.statistics.teamReport({})).find((r) => r.id === staff.id)!;
      expect(row.audioMinutes).toBeCloseTo(66.145, 9);
      // A half rounded to even (float8's round) would pay 1 UGX less here.
      expect(row.payment).toBe(transcript + recording + 6615);
    } finally {
      await asAdmin.statistics.setRates({ audioMinute: 0 });
    }
  });
});
