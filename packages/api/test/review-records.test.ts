import { afterAll, describe, expect, it } from "vitest";
import { backfillReviews } from "../../../migrations/20261210000000_reviews";
import { uploadRecording } from "../src/uploads/store-upload";
import { assignedAudio, harnessWithUsers, tempWav } from "./workflow-fixtures";

// Decision 025: every approval and rejection leaves a row in `reviews` naming the version judged,
// who judged it and when that version was saved; deletions and refused reviews leave none.

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());

/** The reviews of the audio's submission, oldest first. */
async function reviewsOf(audioId: string) {
  return h.deps.db
    .selectFrom("reviews")
    .innerJoin("submissions", "submissions.id", "reviews.submissionId")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .where("tasks.audioId", "=", audioId)
    .select([
      "reviews.output",
      "reviews.action",
      "reviews.reviewerId",
      "reviews.reason",
      "reviews.savedAt",
      "reviews.reviewedAt",
      "reviews.transcriptVersionId",
      "reviews.recordingId",
    ])
    .orderBy("reviews.reviewedAt")
    .execute();
}

describe("review records (decision 025)", () => {
  it("a rejected then approved transcript leaves two rows, each naming the version it judged", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "first words" });
    await h.caller(admin).transcripts.reject({ audioId: audio.id, reason: "Check the names." });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "second words" });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });

    const versions = await h.deps.db
      .selectFrom("transcriptVersions")
      .select(["id", "text", "createdAt"])
      .orderBy("createdAt")
      .where("text", "in", ["first words", "second words"])
      .execute();
    const rows = await reviewsOf(audio.id);
    expect(rows.map((r) => [r.output, r.action, r.reviewerId, r.reason])).toEqual([
      ["transcript", "reject", admin.id, "Check the names."],
      ["transcript", "approve", admin.id, null],
    ]);
    expect(rows.map((r) => r.transcriptVersionId)).toEqual(versions.map((v) => v.id));
    expect(rows.map((r) => r.savedAt.getTime())).toEqual(versions.map((v) => v.createdAt.getTime()));
    for (const r of rows) expect(r.reviewedAt.getTime()).toBeGreaterThanOrEqual(r.savedAt.getTime());
  });

  it("a recording review names the recording; a deletion and a refused review add nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    await h.caller(admin).recordings.approve({ audioId: audio.id });
    await expect(h.caller(admin).recordings.approve({ audioId: audio.id })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await h.caller(admin).recordings.remove({ audioId: audio.id, expectedStatus: "Approved" });

    const rows = await reviewsOf(audio.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ output: "recording", action: "approve", reviewerId: admin.id });
    const recording = await h.deps.db
      .selectFrom("translatedRecordings")
      .select(["id", "createdAt"])
      .where("id", "=", rows[0]?.recordingId ?? "")
      .executeTakeFirstOrThrow();
    expect(rows[0]?.savedAt.getTime()).toBe(recording.createdAt.getTime());
  });
});

describe("reviews made before the reviews table (migration 20261210000000)", () => {
  it("are rebuilt from the audit log with the same reviewer, action, reason and version", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "old words" });
    await h.caller(admin).transcripts.reject({ audioId: audio.id, reason: "Too short." });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "new words" });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    await h.caller(admin).recordings.reject({ audioId: audio.id });
    const written = await reviewsOf(audio.id);

    await h.deps.db.deleteFrom("reviews").execute();
    await backfillReviews(h.deps.db);
    const rebuilt = await reviewsOf(audio.id);
    const essentials = (rows: typeof written) =>
      rows.map((r) => [r.output, r.action, r.reviewerId, r.reason, r.transcriptVersionId, r.recordingId, r.savedAt]);
    expect(essentials(rebuilt)).toEqual(essentials(written));
  });
});
