import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, fixture, uploadAudio } from "./fixtures/app-harness";

// Decision 025: POST /api/reviews/bulk, the bulk review of the Submissions page for integrators.

const { h, admin, staffA, staffB, adminToken, tokenA } = await appWithUsers();
afterAll(() => h.close());
const admin2 = await h.createUser("Admin");
const admin2Token = await h.token(admin2);
const wav = await fixture("hello.wav");

let counter = 0;

/** An audio assigned to staffA with a Pending transcript (and a Pending recording when asked), over REST. */
async function pendingWork(opts: { recording?: boolean } = {}) {
  counter += 1;
  const audio = await uploadAudio(h, adminToken, { name: `bulk_${counter}_${Date.now()}.wav`, content: wav });
  const taskId = await assignOverRest(h, adminToken, audio._id, staffA);
  await h.caller(staffA).transcripts.save({ audioId: audio._id, text: `Habari ${counter}` });
  if (opts.recording) {
    const res = await h.upload("AUDIOTRANSLATION", tokenA, [
      ["audioId", audio._id],
      ["recordedBy", staffA.id],
      ["file", { name: "take.wav", content: wav }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
  }
  const task = await h.call("GET", `/api/tasks/${taskId}`, adminToken);
  return {
    audioId: audio._id,
    filename: audio.filename,
    submissionId: task.json<{ submission: { _id: string } }>().submission._id,
  };
}

/** The submission row as stored. */
const stored = (id: string) =>
  h.deps.db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** Notifications `senderId` sent to `recipientId` since `since`. */
const sent = (senderId: string, recipientId: string, since: Date) =>
  h.deps.db
    .selectFrom("notifications")
    .select(["message", "audioId"])
    .where("senderId", "=", senderId)
    .where("recipientId", "=", recipientId)
    .where("createdAt", ">=", since)
    .execute();

const bulk = (token: string | null, body: unknown) => h.call("POST", "/api/reviews/bulk", token, body);

describe("POST /api/reviews/bulk (decision 025)", () => {
  it("approves nine of ten transcripts and lists the one another admin approved a moment before as skipped", async () => {
    const rows = [];
    for (let i = 0; i < 10; i += 1) rows.push(await pendingWork());
    const taken = rows[3]!;
    const first = await h.call("PUT", `/api/updatesubmissions/${taken.submissionId}/${admin2.id}`, admin2Token, {
      translation_script_approval_status: "Approved",
    });
    expect(first.statusCode, first.body).toBe(200);
    const since = new Date();

    const res = await bulk(adminToken, {
      submission_ids: rows.map((r) => r.submissionId),
      outputs: ["transcript"],
      action: "approve",
    });

    expect(res.statusCode, res.body).toBe(200);
    const nine = rows.filter((r) => r !== taken);
    expect(res.json()).toEqual({
      status: "success",
      success: true,
      message: "9 reviewed, 1 skipped.",
      done: nine.map((r) => ({
        submission_id: r.submissionId,
        output: "transcript",
        status: "Approved",
        message: "Transcript approved successfully.",
      })),
      skipped: [
        { submission_id: taken.submissionId, output: "transcript", reason: "The transcript is already Approved." },
      ],
    });
    for (const r of rows) expect((await stored(r.submissionId)).translationScriptApprovalStatus).toBe("Approved");
    const toAssignee = await sent(admin.id, staffA.id, since);
    expect(toAssignee.map((n) => n.audioId).sort()).toEqual(nine.map((r) => r.audioId).sort());
    expect(toAssignee.map((n) => n.message)).toContain(
      `${admin.username} approved the transcript for ${nine[0]!.filename}`,
    );
    expect(await sent(admin.id, admin2.id, since)).toHaveLength(9);
  }, 120_000);

  it("rejects both outputs with one reason, stored per output; unknown and repeated ids", async () => {
    const work = await pendingWork({ recording: true });
    const unknown = randomUUID();
    const since = new Date();
    const res = await bulk(adminToken, {
      submission_ids: [work.submissionId, unknown, work.submissionId.toUpperCase()],
      outputs: ["recording", "transcript"],
      action: "reject",
      reason: "Names are misspelt.",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: "2 reviewed, 2 skipped.",
      done: [
        { submission_id: work.submissionId, output: "transcript", status: "Rejected" },
        { submission_id: work.submissionId, output: "recording", status: "Rejected" },
      ],
      skipped: [
        { submission_id: unknown, output: "transcript", reason: "Submission not found." },
        { submission_id: unknown, output: "recording", reason: "Submission not found." },
      ],
    });
    const row = await stored(work.submissionId);
    expect([row.translationScriptApprovalStatus, row.recordedAudioApprovalStatus]).toEqual(["Rejected", "Rejected"]);
    const comments = await h.deps.db
      .selectFrom("comments")
      .select("text")
      .where("submissionId", "=", work.submissionId)
      .execute();
    expect(comments.map((c) => c.text)).toEqual(["Names are misspelt.", "Names are misspelt."]);
    const reviews = await h.deps.db
      .selectFrom("reviews")
      .select(["output", "reason"])
      .where("submissionId", "=", work.submissionId)
      .orderBy("output")
      .execute();
    expect(reviews).toEqual([
      { output: "recording", reason: "Names are misspelt." },
      { output: "transcript", reason: "Names are misspelt." },
    ]);
    expect((await sent(admin.id, staffA.id, since)).map((n) => n.message).sort()).toEqual([
      `${admin.username} rejected the recorded audio for ${work.filename}: Names are misspelt.`,
      `${admin.username} rejected the transcript for ${work.filename}: Names are misspelt.`,
    ]);
    // Not staffB's work: nothing reached them.
    expect(await sent(admin.id, staffB.id, since)).toEqual([]);
  });

  it("approves recordings only, leaving the transcripts Pending", async () => {
    const a = await pendingWork({ recording: true });
    const b = await pendingWork();
    const res = await bulk(adminToken, {
      submission_ids: [a.submissionId, b.submissionId],
      outputs: ["recording"],
      action: "approve",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      done: [{ submission_id: a.submissionId, output: "recording", status: "Approved" }],
      skipped: [{ submission_id: b.submissionId, output: "recording", reason: "No submission yet" }],
    });
    const row = await stored(a.submissionId);
    expect([row.translationScriptApprovalStatus, row.recordedAudioApprovalStatus]).toEqual(["Pending", "Approved"]);
  });
});
