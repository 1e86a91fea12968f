import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../src/context";
import { describeError } from "../src/errors/describe-error";
import { uploadRecording } from "../src/uploads/store-upload";
import { assignedAudio, harnessWithUsers, snapshot, tempWav, workState } from "./workflow-fixtures";

// Decision 025, bulk review: reviews.bulk approves or rejects many submissions' outputs, each its own
// review from Pending (SPEC §4, decision 009), skipping what another admin reviewed meanwhile.

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const admin2 = await h.createUser("Admin");

/** A submission of a new audio assigned to `assignee`: a Pending transcript and, when asked, a Pending recording. */
async function pendingWork(opts: { transcript?: boolean; recording?: boolean; assignee?: SessionUser } = {}) {
  const assignee = opts.assignee ?? staff;
  const audio = await assignedAudio(h, admin, assignee);
  if (opts.transcript !== false) {
    await h.caller(assignee).transcripts.save({ audioId: audio.id, text: `Habari ya ${audio.filename}` });
  }
  if (opts.recording) {
    await uploadRecording(h.deps, assignee, { audioId: audio.id, recordedBy: assignee.id, file: await tempWav(h) });
  }
  const { submission } = await workState(h, audio.id);
  if (!submission) throw new Error("no submission");
  return { audio, submissionId: submission.id };
}

/** Notifications `sender` sent to `recipient` since `since` (ms since epoch). */
async function sentBy(sender: SessionUser, recipient: SessionUser, since: Date) {
  return h.deps.db
    .selectFrom("notifications")
    .select(["message", "audioId"])
    .where("senderId", "=", sender.id)
    .where("recipientId", "=", recipient.id)
    .where("createdAt", ">=", since)
    .orderBy("createdAt")
    .execute();
}

describe("reviews.bulk (decision 025)", () => {
  it("approves nine of ten transcripts and skips the one another admin approved a moment before", async () => {
    const rows = [];
    for (let i = 0; i < 10; i += 1) rows.push(await pendingWork());
    const taken = rows[6]!;
    await h.caller(admin2).transcripts.approve({ audioId: taken.audio.id });
    const since = new Date();

    const answer = await h.caller(admin).reviews.bulk({
      submissionIds: rows.map((r) => r.submissionId),
      outputs: ["transcript"],
      action: "approve",
    });

    const nine = rows.filter((r) => r !== taken);
    expect(answer.done).toEqual(
      nine.map((r) => ({
        submissionId: r.submissionId,
        output: "transcript",
        status: "Approved",
        message: "Transcript approved successfully.",
      })),
    );
    expect(answer.skipped).toEqual([
      { submissionId: taken.submissionId, output: "transcript", reason: "The transcript is already Approved." },
    ]);
    for (const r of rows) {
      const s = await workState(h, r.audio.id);
      expect(s.submission?.translationScriptApprovalStatus).toBe("Approved");
      expect(s.task.translationStatus).toBe("Completed");
    }
    // Nine assignee notices, as nine single approvals would send, and none for the skipped one.
    const toAssignee = await sentBy(admin, staff, since);
    expect(toAssignee.map((n) => n.message).sort()).toEqual(
      nine.map((r) => `${admin.username} approved the transcript for ${r.audio.filename}`).sort(),
    );
    expect(toAssignee.some((n) => n.audioId === taken.audio.id)).toBe(false);
    // Every active admin hears of each approval too (the acting one included, as with a single review).
    expect(await sentBy(admin, admin2, since)).toHaveLength(9);
    expect(await sentBy(admin, admin, since)).toHaveLength(9);
    // The approval admin2 made stays theirs: one review row, by admin2.
    const reviews = await h.deps.db
      .selectFrom("reviews")
      .select(["submissionId", "reviewerId", "output", "action"])
      .where(
        "submissionId",
        "in",
        rows.map((r) => r.submissionId),
      )
      .execute();
    expect(reviews).toHaveLength(10);
    expect(reviews.find((r) => r.submissionId === taken.submissionId)?.reviewerId).toBe(admin2.id);
    expect(reviews.filter((r) => r.reviewerId === admin.id)).toHaveLength(9);
  }, 120_000);

  it("rejects transcripts and recordings with one reason, stored and sent per output", async () => {
    const a = await pendingWork({ recording: true });
    const b = await pendingWork({ recording: true, assignee: other });
    const since = new Date();

    const answer = await h.caller(admin).reviews.bulk({
      submissionIds: [a.submissionId, b.submissionId],
      outputs: ["recording", "transcript"],
      action: "reject",
      reason: "  Please check the names.  ",
    });

    // Transcript before recording, submission by submission, whatever order the outputs came in.
    expect(answer.done.map((d) => [d.submissionId, d.output, d.status])).toEqual([
      [a.submissionId, "transcript", "Rejected"],
      [a.submissionId, "recording", "Rejected"],
      [b.submissionId, "transcript", "Rejected"],
      [b.submissionId, "recording", "Rejected"],
    ]);
    expect(answer.done.map((d) => d.message)).toEqual([
      "Transcript rejected successfully.",
      "Translation Audio file rejected successfully.",
      "Transcript rejected successfully.",
      "Translation Audio file rejected successfully.",
    ]);
    expect(answer.skipped).toEqual([]);
    for (const { audio, who } of [
      { audio: a.audio, who: staff },
      { audio: b.audio, who: other },
    ]) {
      const s = await workState(h, audio.id);
      expect(s.submission?.translationScriptApprovalStatus).toBe("Rejected");
      expect(s.submission?.recordedAudioApprovalStatus).toBe("Rejected");
      expect(s.task.translationStatus).toBe("In Progress");
      expect(s.task.recordingStatus).toBe("In Progress");
      // Each assignee is told twice, with the reason.
      expect((await sentBy(admin, who, since)).map((n) => n.message).sort()).toEqual([
        `${admin.username} rejected the recorded audio for ${audio.filename}: Please check the names.`,
        `${admin.username} rejected the transcript for ${audio.filename}: Please check the names.`,
      ]);
    }
    const reviews = await h.deps.db
      .selectFrom("reviews")
      .select(["submissionId", "output", "action", "reason"])
      .where("submissionId", "in", [a.submissionId, b.submissionId])
      .orderBy("submissionId")
      .orderBy("output")
      .execute();
    expect(reviews).toHaveLength(4);
    expect(reviews.every((r) => r.action === "reject" && r.reason === "Please check the names.")).toBe(true);
    const comments = await h.deps.db
      .selectFrom("comments")
      .select(["submissionId", "text", "postedBy"])
      .where("submissionId", "in", [a.submissionId, b.submissionId])
      .execute();
    expect(comments).toHaveLength(4);
    expect(comments.every((c) => c.text === "Please check the names." && c.postedBy === admin.id)).toBe(true);
  });

  it("approves recordings, skipping a submission with none", async () => {
    const withTake = await pendingWork({ recording: true });
    const without = await pendingWork();
    const answer = await h.caller(admin).reviews.bulk({
      submissionIds: [withTake.submissionId, without.submissionId],
      outputs: ["recording"],
      action: "approve",
    });
    expect(answer).toEqual({
      message: "1 reviewed, 1 skipped.",
      done: [
        {
          submissionId: withTake.submissionId,
          output: "recording",
          status: "Approved",
          message: "Translation Audio file approved successfully.",
        },
      ],
      skipped: [{ submissionId: without.submissionId, output: "recording", reason: "No submission yet" }],
    });
    const s = await workState(h, withTake.audio.id);
    expect(s.submission?.recordedAudioApprovalStatus).toBe("Approved");
    // The transcript was not asked for, so it is still Pending.
    expect(s.submission?.translationScriptApprovalStatus).toBe("Pending");
    expect(s.task.recordingStatus).toBe("Completed");
  });

  it("mixed: both outputs of several submissions, each reported on its own, unknown and repeated ids", async () => {
    const full = await pendingWork({ recording: true });
    const recordingOnly = await pendingWork({ transcript: false, recording: true });
    const rejected = await pendingWork({ recording: true });
    await h.caller(admin2).transcripts.reject({ audioId: rejected.audio.id });
    const unknown = randomUUID();

    const answer = await h.caller(admin).reviews.bulk({
      submissionIds: [full.submissionId, recordingOnly.submissionId, unknown, rejected.submissionId, full.submissionId],
      outputs: ["recording", "transcript"],
      action: "approve",
    });

    expect(answer.done.map((d) => [d.submissionId, d.output, d.status])).toEqual([
      [full.submissionId, "transcript", "Approved"],
      [full.submissionId, "recording", "Approved"],
      [recordingOnly.submissionId, "recording", "Approved"],
      [rejected.submissionId, "recording", "Approved"],
    ]);
    expect(answer.skipped).toEqual([
      { submissionId: recordingOnly.submissionId, output: "transcript", reason: "No transcript submitted yet." },
      { submissionId: unknown, output: "transcript", reason: "Submission not found." },
      { submissionId: unknown, output: "recording", reason: "Submission not found." },
      {
        submissionId: rejected.submissionId,
        output: "transcript",
        reason: "The transcript is now Rejected; refresh and try again.",
      },
    ]);
    const s = await workState(h, full.audio.id);
    expect(s.task.isComplete).toBe(true);
    expect((await workState(h, rejected.audio.id)).submission?.translationScriptApprovalStatus).toBe("Rejected");
  });

  it("refuses staff, bad input and a reason with an approval, changing nothing", async () => {
    const mine = await pendingWork({ recording: true });
    const before = await snapshot(h);
    const valid = { submissionIds: [mine.submissionId], outputs: ["transcript" as const], action: "approve" as const };

    await expect(h.caller(staff).reviews.bulk(valid)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Only administrators may do this.",
    });
    await expect(h.caller(null).reviews.bulk(valid)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const refusals: Array<[unknown, string]> = [
      [{ ...valid, submissionIds: [] }, "Select at least one submission."],
      [{ ...valid, submissionIds: ["not-an-id"] }, "Unknown id."],
      [
        { ...valid, submissionIds: Array.from({ length: 101 }, () => randomUUID()) },
        "At most 100 submissions may be reviewed at once.",
      ],
      [{ ...valid, outputs: [] }, "Choose transcripts, recordings or both."],
      [{ ...valid, outputs: ["transcript", "recording", "transcript"] }, "Choose transcripts, recordings or both."],
      [{ ...valid, outputs: ["video"] }, "Outputs must be transcript or recording."],
      [{ ...valid, action: "remove" }, "The action must be approve or reject."],
      [{ ...valid, reason: "nice" }, "A reason may be given with a rejection only."],
      [{ ...valid, action: "reject", reason: "x".repeat(1001) }, "The reason may be at most 1,000 characters."],
    ];
    for (const [input, message] of refusals) {
      const error = await h
        .caller(admin)
        .reviews.bulk(input as never)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error && describeError(error), message).toMatchObject({ httpStatus: 400, message });
    }
    expect(await snapshot(h)).toEqual(before);
  });
});
