import { afterAll, describe, expect, it } from "vitest";
import { createHarness } from "../src/testing/harness";
import type { ReviewerFigures } from "../src/schemas/reviewer-figures";
import { assignedAudio } from "./workflow-fixtures";

// Decision 025: the Dashboard's reviewer figures: per admin the reviews, approvals, rejections
// and the median time from a version's save to its review, and reviews per day in the admin's
// time zone, for a period, on a known set of reviews.

const h = await createHarness();
afterAll(() => h.close());
const boss = await h.createUser("Admin", { username: "rf_boss" });
const ana = await h.createUser("Admin", { username: "rf_ana" });
const ben = await h.createUser("Admin", { username: "Rf_ben" });
const gone = await h.createUser("Admin", { username: "rf_gone" });
const staff = await h.createUser("Staff", { username: "rf_staff" });
const asBoss = h.caller(boss);

// One submission for the known reviews to point at.
const audio = await assignedAudio(h, boss, staff);
await h.caller(staff).transcripts.save({ audioId: audio.id, text: "words" });
const { id: submissionId } = await h.deps.db
  .selectFrom("submissions")
  .innerJoin("tasks", "tasks.id", "submissions.taskId")
  .where("tasks.audioId", "=", audio.id)
  .select("submissions.id")
  .executeTakeFirstOrThrow();

/** The known reviews: reviewer, review time (UTC), seconds the judged version waited, action. */
const KNOWN: [string, string, number, "approve" | "reject"][] = [
  [ana.id, "2026-09-30T21:30:00Z", 600, "approve"], // 1 October 00:30 in Kampala
  [ana.id, "2026-10-05T10:00:00Z", 3600, "approve"],
  [ana.id, "2026-10-05T22:30:00Z", 1800, "reject"], // 6 October 01:30 in Kampala
  [ana.id, "2026-10-07T12:00:00Z", 43200, "approve"],
  [ana.id, "2026-10-31T21:30:00Z", 86400, "approve"], // 1 November 00:30 in Kampala
  [ben.id, "2026-10-06T06:00:00Z", 3600, "approve"],
  [ben.id, "2026-10-06T07:00:00Z", 60, "reject"],
  [ben.id, "2026-10-06T08:00:00Z", 7200, "approve"],
  [ben.id, "2026-11-02T10:00:00Z", 100, "approve"],
  [gone.id, "2026-10-08T10:00:00Z", 600, "approve"],
  [gone.id, "2026-10-09T10:00:00Z", 1000, "reject"],
];
await h.deps.db
  .insertInto("reviews")
  .values(
    KNOWN.map(([reviewerId, at, wait, action]) => ({
      submissionId,
      output: "transcript" as const,
      action,
      reviewerId,
      reviewedAt: new Date(at),
      savedAt: new Date(Date.parse(at) - wait * 1000),
    })),
  )
  .execute();
// rf_gone's account is removed: their reviews stay, under 'Deleted account'.
await h.deps.db.deleteFrom("users").where("id", "=", gone.id).execute();

const names: Record<string, string> = { [ana.id]: "rf_ana", [ben.id]: "Rf_ben", [boss.id]: "rf_boss" };

/** The days as `{ day: { username: reviews } }`, so the order of reviewer ids does not matter. */
function daysByName(figures: ReviewerFigures): Record<string, Record<string, number>> {
  return Object.fromEntries(
    figures.days.map((d) => [
      d.day,
      Object.fromEntries(
        d.counts.map((c) => [c.reviewerId === null ? "Deleted account" : names[c.reviewerId], c.reviews]),
      ),
    ]),
  );
}

/** The reviewer rows, without rows of admins other than this file's (none exist, but be exact about it). */
function row(id: string | null, username: string, reviews: number, approvals: number, median: number | null) {
  return { id, username, reviews, approvals, rejections: reviews - approvals, medianWaitSeconds: median };
}

describe("statistics.reviewers (decision 025)", () => {
  it("October in Kampala: totals, the median wait, and reviews per Kampala day, deleted accounts last", async () => {
    const figures = await asBoss.statistics.reviewers({
      from: "2026-10-01",
      to: "2026-11-01",
      timeZone: "Africa/Kampala",
    });
    expect(figures.timeZone).toBe("Africa/Kampala");
    expect(figures.reviewers).toEqual([
      // waits 600, 1800, 3600, 43200: the median is halfway between the middle two.
      row(ana.id, "rf_ana", 4, 3, 2700),
      row(ben.id, "Rf_ben", 3, 2, 3600),
      // An active admin without reviews still has a row.
      row(boss.id, "rf_boss", 0, 0, null),
      row(null, "Deleted account", 2, 1, 800),
    ]);
    expect(daysByName(figures)).toEqual({
      "2026-10-01": { rf_ana: 1 },
      "2026-10-05": { rf_ana: 1 },
      "2026-10-06": { rf_ana: 1, Rf_ben: 3 },
      "2026-10-07": { rf_ana: 1 },
      "2026-10-08": { "Deleted account": 1 },
      "2026-10-09": { "Deleted account": 1 },
    });
    expect(figures.days.map((d) => d.day)).toEqual([...figures.days.map((d) => d.day)].sort());
  });

  it("the same dates in UTC move the period's ends and the day lines", async () => {
    const figures = await asBoss.statistics.reviewers({ from: "2026-10-01", to: "2026-11-01", timeZone: "UTC" });
    expect(figures.reviewers).toEqual([
      row(ana.id, "rf_ana", 4, 3, 23400),
      row(ben.id, "Rf_ben", 3, 2, 3600),
      row(boss.id, "rf_boss", 0, 0, null),
      row(null, "Deleted account", 2, 1, 800),
    ]);
    expect(daysByName(figures)).toEqual({
      "2026-10-05": { rf_ana: 2 },
      "2026-10-06": { Rf_ben: 3 },
      "2026-10-07": { rf_ana: 1 },
      "2026-10-08": { "Deleted account": 1 },
      "2026-10-09": { "Deleted account": 1 },
      "2026-10-31": { rf_ana: 1 },
    });
  });

  it("without a time zone the deployment's is used (UTC here); date-time bounds are exact instants, to excluded", async () => {
    const byDefault = await asBoss.statistics.reviewers({ from: "2026-10-01", to: "2026-11-01" });
    expect(byDefault.timeZone).toBe("UTC");
    expect(byDefault.reviewers.find((r) => r.id === ana.id)?.medianWaitSeconds).toBe(23400);
    const morning = await asBoss.statistics.reviewers({
      from: "2026-10-06T06:00:00Z",
      to: "2026-10-06T08:00:00Z",
    });
    expect(morning.reviewers).toEqual([
      row(ana.id, "rf_ana", 0, 0, null),
      row(ben.id, "Rf_ben", 2, 1, 1830),
      row(boss.id, "rf_boss", 0, 0, null),
    ]);
    expect(daysByName(morning)).toEqual({ "2026-10-06": { Rf_ben: 2 } });
  });

  it("all time, and open ends", async () => {
    const all = await asBoss.statistics.reviewers();
    expect(all.reviewers).toEqual([
      row(ana.id, "rf_ana", 5, 4, 3600),
      // waits 60, 100, 3600, 7200
      row(ben.id, "Rf_ben", 4, 3, 1850),
      row(boss.id, "rf_boss", 0, 0, null),
      row(null, "Deleted account", 2, 1, 800),
    ]);
    expect(all.days.map((d) => d.day)).toEqual([
      "2026-09-30",
      "2026-10-05",
      "2026-10-06",
      "2026-10-07",
      "2026-10-08",
      "2026-10-09",
      "2026-10-31",
      "2026-11-02",
    ]);
    const fromNovember = await asBoss.statistics.reviewers({ from: "2026-11-01", timeZone: "UTC" });
    expect(fromNovember.reviewers.filter((r) => r.reviews > 0)).toEqual([row(ben.id, "Rf_ben", 1, 1, 100)]);
    const untilOctober = await asBoss.statistics.reviewers({ to: "2026-10-01", timeZone: "Africa/Kampala" });
    expect(daysByName(untilOctober)).toEqual({});
  });

  it("an empty period: every admin at zero, no days, no 'Deleted account' row", async () => {
    const figures = await asBoss.statistics.reviewers({ from: "2025-01-01", to: "2025-02-01" });
    expect(figures).toEqual({
      reviewers: [
        row(ana.id, "rf_ana", 0, 0, null),
        row(ben.id, "Rf_ben", 0, 0, null),
        row(boss.id, "rf_boss", 0, 0, null),
      ],
      days: [],
      timeZone: "UTC",
    });
  });

  it("a review made in the app counts at once for its reviewer, with the wait since the save", async () => {
    const work = await assignedAudio(h, boss, staff);
    await h.caller(staff).transcripts.save({ audioId: work.id, text: "to approve" });
    const savedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await h.caller(ben).transcripts.approve({ audioId: work.id });
    const figures = await asBoss.statistics.reviewers({ from: new Date(savedAt - 60_000).toISOString() });
    const benRow = figures.reviewers.find((r) => r.id === ben.id);
    expect(benRow).toMatchObject({ reviews: 1, approvals: 1, rejections: 0 });
    expect(benRow?.medianWaitSeconds).toBeGreaterThanOrEqual(1);
    expect(benRow?.medianWaitSeconds).toBeLessThan(60);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC" }).format(new Date());
    expect(daysByName(figures)[today]).toEqual({ Rf_ben: 1 });
  });
});

describe("statistics.reviewers refusals", () => {
  it("FORBIDDEN for staff, UNAUTHORIZED without a session", async () => {
    await expect(h.caller(staff).statistics.reviewers({})).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Only administrators may do this.",
    });
    await expect(h.caller(null).statistics.reviewers({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("BAD_REQUEST for malformed, reversed or empty periods and unknown or hostile time zones", async () => {
    for (const input of [
      { from: "2026-13-01" },
      { from: "2026-02-30" },
      { to: "yesterday" },
      { from: "2026-10-01T00:00:00" },
      { from: "2026-10-01".repeat(1000) },
      { from: 20261001 },
      { timeZone: "Mars/Olympus_Mons" },
      { timeZone: "UTC'; drop table reviews; --" },
      { timeZone: "" },
      { timeZone: "Africa/" + "K".repeat(10_000) },
      { timeZone: 3 },
    ]) {
      await expect(
        asBoss.statistics.reviewers(input as never),
        JSON.stringify(input).slice(0, 80),
      ).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    }
    for (const input of [
      { from: "2026-11-01", to: "2026-10-01" },
      { from: "2026-10-01", to: "2026-10-01" },
    ]) {
      await expect(asBoss.statistics.reviewers(input)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "from must be before to.",
      });
    }
    await expect(asBoss.statistics.reviewers({ timeZone: "Mars/Olympus_Mons" })).rejects.toThrow(
      "timeZone must be an IANA time zone such as Africa/Kampala or UTC.",
    );
    // Nothing was harmed.
    const count = await h.deps.db
      .selectFrom("reviews")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBeGreaterThanOrEqual(KNOWN.length);
  });
});
