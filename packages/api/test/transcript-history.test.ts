import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { reviewedVersionsQuery, transcriptHistoryQuery } from "@tafsiri/db/repositories/transcript-versions";
import { TRANSCRIPT_HISTORY_LIMIT } from "../src/schemas/transcript-history";
import { assignedAudio, harnessWithUsers, newAudio, workState } from "./workflow-fixtures";

// Decision 025: transcripts.history lists every saved version with who saved it and how it was
// reviewed, and names the version last reviewed so the admin sees what changed since.

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());
const admin2 = await h.createUser("Admin");

const FIRST = "Nilienda sokoni jana asubuhi na mama yangu.";
const SECOND = "Nilienda dukani jana jioni na mama yangu.";

describe("transcripts.history (decision 025)", () => {
  it("save, reject, save with two words changed: both versions with their reviews; the rejected one was last reviewed", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: FIRST });
    await h.caller(admin2).transcripts.reject({ audioId: audio.id, reason: "Check the place and the time." });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: SECOND });

    const history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    expect(history.versions).toHaveLength(2);
    const [newer, older] = history.versions;
    expect(newer).toMatchObject({
      current: true,
      savedBy: { id: staff.id, username: staff.username },
      reviews: [],
    });
    expect(newer!.fileName).toMatch(new RegExp(`^${audio.filename}_TRANSLATEDTRANSCRIPT_.*\\.cha$`));
    expect(older).toMatchObject({
      current: false,
      savedBy: { id: staff.id, username: staff.username },
      reviews: [
        {
          action: "reject",
          reviewer: { id: admin2.id, username: admin2.username },
          reason: "Check the place and the time.",
        },
      ],
    });
    expect(Date.parse(newer!.savedAt)).toBeGreaterThanOrEqual(Date.parse(older!.savedAt));
    expect(Date.parse(older!.reviews[0]!.reviewedAt)).toBeGreaterThanOrEqual(Date.parse(older!.savedAt));

    expect(history.current).toEqual({ versionId: newer!.id, text: SECOND });
    expect(history.lastReviewed).toEqual({
      versionId: older!.id,
      text: FIRST,
      savedAt: older!.savedAt,
      review: older!.reviews[0],
    });
    // The same as transcripts.get shows as current.
    const current = await h.caller(admin).transcripts.get({ audioId: audio.id });
    expect(current.text).toBe(SECOND);
    expect(current.fileName).toBe(newer!.fileName);
  });

  it("never reviewed: no version last reviewed, each version 'not reviewed yet'", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: FIRST });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: SECOND });
    const history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    expect(history.lastReviewed).toBeNull();
    expect(history.current?.text).toBe(SECOND);
    expect(history.versions.map((v) => [v.current, v.reviews])).toEqual([
      [true, []],
      [false, []],
    ]);
  });

  it("reviewed and not saved again since: nothing changed, so no version last reviewed", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: FIRST });
    await h.caller(admin).transcripts.reject({ audioId: audio.id });
    let history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    expect(history.lastReviewed).toBeNull();
    expect(history.versions).toMatchObject([{ current: true, reviews: [{ action: "reject", reason: null }] }]);

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: SECOND });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });
    history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    expect(history.lastReviewed).toBeNull();
    expect(history.versions.map((v) => v.reviews.map((r) => r.action))).toEqual([["approve"], ["reject"]]);
  });

  it("approved, then reopened by a rejection from Approved (decision 009), then saved again: the diff is against that version", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: FIRST });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });
    await h
      .caller(admin2)
      .transcripts.reject({ audioId: audio.id, expectedStatus: "Approved", reason: "One more fix." });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: SECOND });

    const history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    const [newer, older] = history.versions;
    expect(older!.reviews.map((r) => [r.action, r.reviewer?.id, r.reason])).toEqual([
      ["reject", admin2.id, "One more fix."],
      ["approve", admin.id, null],
    ]);
    expect(history.lastReviewed).toMatchObject({ versionId: older!.id, text: FIRST, review: { action: "reject" } });
    expect(history.current).toEqual({ versionId: newer!.id, text: SECOND });
  });

  it("approved, then deleted by an admin (SPEC §4) and written anew: the diff is against the approved version", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: FIRST });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });
    await h.caller(admin).transcripts.remove({ audioId: audio.id });

    // Deleted: no current transcript; the approval stays in the history.
    let history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    expect(history.current).toBeNull();
    expect(history.versions).toMatchObject([{ current: false, reviews: [{ action: "approve" }] }]);

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: SECOND });
    history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    expect(history.versions.map((v) => v.current)).toEqual([true, false]);
    expect(history.lastReviewed).toMatchObject({
      versionId: history.versions[1]!.id,
      text: FIRST,
      review: { action: "approve", reviewer: { id: admin.id, username: admin.username } },
    });
    expect(history.current?.text).toBe(SECOND);
  });

  it("an audio not assigned yet, or with nothing saved, has an empty history", async () => {
    const unassigned = await newAudio(h, admin);
    const empty = { versions: [], lastReviewed: null, current: null };
    expect(await h.caller(admin).transcripts.history({ audioId: unassigned.id })).toEqual(empty);
    const assigned = await assignedAudio(h, admin, staff);
    expect(await h.caller(admin).transcripts.history({ audioId: assigned.id })).toEqual(empty);
  });

  it(`lists the newest ${TRANSCRIPT_HISTORY_LIMIT} versions of a long history, newest first`, async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "the current one" });
    const { submission } = await workState(h, audio.id);
    // Older versions, one a minute before the current one (rows only: the history reads no files).
    const start = Date.now() - 1_000 * 60 * 1_000;
    await h.deps.db
      .insertInto("transcriptVersions")
      .values(
        Array.from({ length: TRANSCRIPT_HISTORY_LIMIT + 5 }, (_, i) => ({
          submissionId: submission!.id,
          fileKey: `transcripts/${audio.id}/old-${i}/old.cha`,
          fileName: `old-${String(i).padStart(3, "0")}.cha`,
          text: `old ${i}`,
          createdBy: staff.id,
          createdAt: new Date(start + i * 60_000),
        })),
      )
      .execute();
    const history = await h.caller(admin).transcripts.history({ audioId: audio.id });
    expect(history.versions).toHaveLength(TRANSCRIPT_HISTORY_LIMIT);
    expect(history.versions[0]).toMatchObject({ current: true });
    expect(history.versions[1]!.fileName).toBe(`old-${TRANSCRIPT_HISTORY_LIMIT + 4}.cha`);
    expect(history.versions.at(-1)!.fileName).toBe("old-006.cha");
    const times = history.versions.map((v) => Date.parse(v.savedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("refuses staff (even the assignee), an unknown audio and a malformed id", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: FIRST });
    await expect(h.caller(staff).transcripts.history({ audioId: audio.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Only administrators may do this.",
    });
    await expect(
      h.caller(admin).transcripts.history({ audioId: "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Audio not found." });
    await expect(h.caller(admin).transcripts.history({ audioId: "not-an-id" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("reads through indexes only: both queries plan without a sequential scan when one is discouraged", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: FIRST });
    await h.caller(admin).transcripts.reject({ audioId: audio.id });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: SECOND });
    const { task } = await workState(h, audio.id);
    const plans = await h.deps.db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const text = async (query: { explain(): Promise<Array<Record<string, unknown>>> }) =>
          (await query.explain()).map((row) => Object.values(row).join(" ")).join("\n");
        return {
          history: await text(transcriptHistoryQuery(conn, task.id, TRANSCRIPT_HISTORY_LIMIT)),
          reviewed: await text(reviewedVersionsQuery(conn, task.id)),
        };
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
    expect(plans.history).not.toContain("Seq Scan");
    expect(plans.history).toContain("transcript_versions_submission_idx");
    expect(plans.history).toContain("reviews_transcript_version_idx");
    expect(plans.reviewed).not.toContain("Seq Scan");
    expect(plans.reviewed).toContain("reviews_submission_idx");
  });
});
