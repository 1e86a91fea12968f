import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { uploadRecording } from "../src/uploads/store-upload";
import type { SessionUser } from "../src/context";
import { assignedAudio, harnessWithUsers, tempWav } from "./workflow-fixtures";

/**
 * Decision 025 review mode: submissions.reviewQueue walks a Submissions filter oldest change
 * first, one item at a time, keeping its place when items are reviewed meanwhile.
 */

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const second = await h.createUser("Admin");
const q = (user: SessionUser = admin) => h.caller(user).submissions.reviewQueue;

/** A new audio assigned to `who` with a saved (Pending) transcript; its audio id. */
async function pendingTranscript(who: SessionUser = staff, text = "Habari ya asubuhi"): Promise<string> {
  const audio = await assignedAudio(h, admin, who);
  await h.caller(who).transcripts.save({ audioId: audio.id, text });
  return audio.id;
}

/** The audio ids of the whole queue of `filter`, walked with 'next' from the first item. */
async function walk(filter: "needsReview" | "approved" | "rejected" | "all" = "needsReview") {
  const seen: Array<{ audioId: string; position: number; total: number }> = [];
  let page = await q()({ filter, move: "first" });
  while (page.item) {
    seen.push({ audioId: page.item.audioId, position: page.position, total: page.total });
    page = await q()({ filter, move: "next", from: { updatedAt: page.item.updatedAt, id: page.item.id } });
  }
  expect(page).toMatchObject({ item: null, position: 0 });
  return seen;
}

describe("submissions.reviewQueue (decision 025)", () => {
  it("answers no item for an empty filter", async () => {
    for (const filter of ["needsReview", "approved", "rejected", "all"] as const) {
      expect(await q()({ filter, move: "first" })).toEqual({ item: null, position: 0, total: 0 });
    }
  });

  const ids: string[] = [];
  it("walks the filter oldest change first with its position and total; new submissions join the end", async () => {
    for (let i = 0; i < 4; i++) ids.push(await pendingTranscript(i % 2 ? other : staff, `text ${i}`));
    const first = await q()({});
    expect(first.item).toMatchObject({
      audioId: ids[0],
      staff: { id: staff.id, username: staff.username },
      transcriptStatus: "Pending",
      recordingStatus: "No translation audio",
      hasTranscript: true,
      hasRecording: false,
      latestReviews: { transcript: null, recording: null },
    });
    expect(first.item!.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(first).toMatchObject({ position: 1, total: 4 });
    expect(await walk()).toEqual(ids.map((audioId, i) => ({ audioId, position: i + 1, total: 4 })));
    // The Submissions page lists the same rows newest first.
    const list = await h.caller(admin).submissions.list({ status: "needsReview" });
    expect(list.items.map((s) => s.audioId)).toEqual([...ids].reverse());
    // A new submission joins the end: the total grows and it comes last.
    ids.push(await pendingTranscript(staff, "late"));
    const walked = await walk();
    expect(walked.map((s) => s.audioId)).toEqual(ids);
    expect(walked.at(-1)).toEqual({ audioId: ids[4], position: 5, total: 5 });
  });

  it("moves next, previous and at from the key of the item shown", async () => {
    const third = (await walk())[2]!;
    const shown = (
      await q()({ move: "at", from: { updatedAt: "2000-01-01T00:00:00Z", id: "00000000-0000-4000-8000-000000000000" } })
    ).item!;
    expect(shown.audioId).toBe(ids[0]); // an unknown id is only a key: 'at' lands on the next row
    const at3 = await q()({ move: "first" }).then(async (p) => {
      let page = p;
      while (page.item && page.item.audioId !== third.audioId)
        page = await q()({ move: "next", from: { updatedAt: page.item.updatedAt, id: page.item.id } });
      return page;
    });
    const key = { updatedAt: at3.item!.updatedAt, id: at3.item!.id };
    expect(await q()({ move: "at", from: key })).toEqual(at3);
    expect(await q()({ move: "previous", from: key })).toMatchObject({ item: { audioId: ids[1] }, position: 2 });
    expect(await q()({ move: "next", from: key })).toMatchObject({ item: { audioId: ids[3] }, position: 4 });
    const firstKey = (await q()({ move: "first" })).item!;
    expect(await q()({ move: "previous", from: { updatedAt: firstKey.updatedAt, id: firstKey.id } })).toEqual({
      item: null,
      position: 0,
      total: 5,
    });
  });

  it("keeps its place when the item shown is reviewed meanwhile, and says who reviewed it", async () => {
    // The first admin shows ids[1]; the second admin approves its transcript meanwhile: it leaves the filter.
    const start = await q()({ move: "first" });
    const shown = (await q()({ move: "next", from: { updatedAt: start.item!.updatedAt, id: start.item!.id } })).item!;
    expect(shown.audioId).toBe(ids[1]);
    await h.caller(second).transcripts.approve({ audioId: ids[1]! });
    const key = { updatedAt: shown.updatedAt, id: shown.id };
    // 'at' no longer finds it in 'needsReview' and lands on the next; 'next' too; the total dropped.
    expect(await q()({ move: "at", from: key })).toMatchObject({ item: { audioId: ids[2] }, position: 2, total: 4 });
    expect(await q()({ move: "next", from: key })).toMatchObject({ item: { audioId: ids[2] }, position: 2 });
    expect(await q()({ move: "previous", from: key })).toMatchObject({ item: { audioId: ids[0] }, position: 1 });
    // In 'all' it is still there (now last: its change is the newest), with the review that moved it.
    const all = await q()({ filter: "all", move: "at", from: key });
    expect(all).toMatchObject({ position: 5, total: 5 });
    expect(all.item).toMatchObject({
      audioId: ids[1],
      transcriptStatus: "Approved",
      latestReviews: {
        transcript: { action: "approve", reviewer: { id: second.id, username: second.username } },
        recording: null,
      },
    });
    expect(Date.parse(all.item!.latestReviews.transcript!.reviewedAt)).toBeGreaterThan(Date.parse(shown.updatedAt) - 1);
    // 'approved' holds it once both outputs are reviewed; a pending recording keeps it in 'needsReview'.
    expect((await q()({ filter: "approved" })).item).toBeNull();
    await uploadRecording(h.deps, staff, { audioId: ids[2]!, recordedBy: staff.id, file: await tempWav(h) });
    await h.caller(admin).transcripts.reject({ audioId: ids[2]!, reason: "Wrong language." });
    const rejected = await q()({ filter: "rejected" });
    expect(rejected).toMatchObject({
      item: {
        audioId: ids[2],
        transcriptStatus: "Rejected",
        recordingStatus: "Pending",
        hasRecording: true,
        latestReviews: { transcript: { action: "reject", reviewer: { id: admin.id } }, recording: null },
      },
      position: 1,
      total: 1,
    });
    // Still needs review (its recording), and now last in the queue.
    expect((await walk()).map((s) => s.audioId)).toEqual([ids[0], ids[3], ids[4], ids[2]]);
  });

  it("tells apart two items changed in the same millisecond (the key keeps microseconds)", async () => {
    const a = await pendingTranscript(staff, "same ms a");
    const b = await pendingTranscript(staff, "same ms b");
    await sql`update submissions set updated_at = '2030-01-01T00:00:00.000100Z' where task_id = (select id from tasks where audio_id = ${a})`.execute(
      h.deps.db,
    );
    await sql`update submissions set updated_at = '2030-01-01T00:00:00.000900Z' where task_id = (select id from tasks where audio_id = ${b})`.execute(
      h.deps.db,
    );
    const walked = (await walk()).map((s) => s.audioId);
    expect(walked.slice(-2)).toEqual([a, b]);
  });
});

describe("submissions.reviewQueue refuses bad callers and input (decision 025)", () => {
  const key = { updatedAt: "2026-12-10T10:00:00.000000Z", id: "00000000-0000-4000-8000-000000000000" };
  it("refuses staff and anonymous callers", async () => {
    await expect(q(staff)({ move: "first" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Only administrators may do this.",
    });
    await expect(h.caller(null).submissions.reviewQueue({ move: "first" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });

  it("refuses malformed ids, times, moves, filters and a missing key with 400", async () => {
    const bad: Array<[unknown, string]> = [
      [{ move: "next", from: { ...key, id: "not-an-id" } }, "Unknown id."],
      [{ move: "at", from: { ...key, id: "' OR '1'='1" } }, "Unknown id."],
      [{ move: "next", from: { ...key, id: "x".repeat(100_000) } }, "Unknown id."],
      [{ move: "next", from: { ...key, id: 42 } }, "Unknown id."],
      [{ move: "next", from: { ...key, updatedAt: "yesterday" } }, "updatedAt must be an ISO 8601 time."],
      [{ move: "next", from: { ...key, updatedAt: "9".repeat(100_000) } }, "updatedAt must be an ISO 8601 time."],
      [{ move: "next" }, "Give the item to move from."],
      [{ move: "sideways", from: key }, "Invalid option"],
      [{ filter: "mine", move: "first" }, "Invalid option"],
    ];
    for (const [input, message] of bad) {
      await expect(q()(input as never), JSON.stringify(input).slice(0, 80)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining(message),
      });
    }
  });
});
