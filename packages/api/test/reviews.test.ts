import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../src/context";
import { updateSubmissionIfStatus } from "@tafsiri/db/repositories/submissions";
import { uploadRecording } from "../src/uploads/store-upload";
import { assignedAudio, harnessWithUsers, notificationsFor, snapshot, tempWav, workState } from "./workflow-fixtures";

// Decision 009: reviews never race (one conditional UPDATE decides), reject takes a reason, and the
// assignee hears of approvals and rejections (SPEC §4).

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const admin2 = await h.createUser("Admin");

const ROUNDS = 20;

/** Row count of a table, optionally filtered on one column. */
async function count(
  table: "notifications" | "auditLog" | "comments",
  where?: { column: "recipientId" | "entity" | "submissionId"; value: string },
): Promise<number> {
  let q = h.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as("n"));
  if (where) q = q.where(where.column as never, "=", where.value as never);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The new notifications, per admin and for the assignee, and the review audit entries of `entity`. */
async function tallies(entity: "transcript" | "recording") {
  const audits = await h.deps.db
    .selectFrom("auditLog")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("entity", "=", entity)
    .where("action", "in", ["approve", "reject"])
    .executeTakeFirstOrThrow();
  return {
    admin: await count("notifications", { column: "recipientId", value: admin.id }),
    admin2: await count("notifications", { column: "recipientId", value: admin2.id }),
    assignee: await count("notifications", { column: "recipientId", value: staff.id }),
    audits: Number(audits.n),
  };
}

/** Fires approve and reject together; expects exactly one winner and one CONFLICT naming the winner's status. */
async function race(approve: () => Promise<unknown>, reject: () => Promise<unknown>, entity: string) {
  const [a, r] = await Promise.allSettled([approve(), reject()]);
  const outcomes = [a, r].map((o) => o.status);
  expect(outcomes.sort()).toEqual(["fulfilled", "rejected"]);
  const winner = a.status === "fulfilled" ? "Approved" : "Rejected";
  const loser = (a.status === "rejected" ? a : r) as PromiseRejectedResult;
  expect(loser.reason).toMatchObject({
    code: "CONFLICT",
    message: `The ${entity} is now ${winner}; refresh and try again.`,
  });
  return winner;
}

describe("racing reviews (SPEC §4, decision 009)", () => {
  it(`transcript: ${ROUNDS} rounds of approve and reject together end with one winner each`, async () => {
    const audio = await assignedAudio(h, admin, staff);
    const caller = h.caller(admin);
    const winners: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      if (winners.at(-1) === "Approved") await caller.transcripts.remove({ audioId: audio.id });
      await h.caller(staff).transcripts.save({ audioId: audio.id, text: `round ${round}` });
      const before = await tallies("transcript");
      // Two admins at once, as two people would.
      const winner = await race(
        () => caller.transcripts.approve({ audioId: audio.id, expectedStatus: "Pending" }),
        () => h.caller(admin2).transcripts.reject({ audioId: audio.id, reason: `round ${round}` }),
        "transcript",
      );
      winners.push(winner);
      expect(await tallies("transcript")).toEqual({
        admin: before.admin + 1,
        admin2: before.admin2 + 1,
        assignee: before.assignee + 1,
        audits: before.audits + 1,
      });
      const s = await workState(h, audio.id);
      expect(s.submission?.translationScriptApprovalStatus).toBe(winner);
      expect(s.task.translationStatus).toBe(winner === "Approved" ? "Completed" : "In Progress");
    }
    const { submission } = await workState(h, audio.id);
    const rejections = winners.filter((w) => w === "Rejected").length;
    expect(await count("comments", { column: "submissionId", value: submission!.id })).toBe(rejections);
  });

  it(`recording: ${ROUNDS} rounds of approve and reject together end with one winner each`, async () => {
    const audio = await assignedAudio(h, admin, staff);
    const caller = h.caller(admin);
    let last: string | undefined;
    for (let round = 0; round < ROUNDS; round += 1) {
      if (last === "Approved") await caller.recordings.remove({ audioId: audio.id, expectedStatus: "Approved" });
      await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
      const before = await tallies("recording");
      last = await race(
        () => h.caller(admin2).recordings.approve({ audioId: audio.id }),
        () => caller.recordings.reject({ audioId: audio.id, expectedStatus: "Pending" }),
        "recording",
      );
      expect(await tallies("recording")).toEqual({
        admin: before.admin + 1,
        admin2: before.admin2 + 1,
        assignee: before.assignee + 1,
        audits: before.audits + 1,
      });
      const s = await workState(h, audio.id);
      expect(s.submission?.recordedAudioApprovalStatus).toBe(last);
      expect(s.task.recordingStatus).toBe(last === "Approved" ? "Completed" : "In Progress");
    }
  });

  it("the conditional UPDATE alone lets only one of two transactions change a Pending status", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "compare and set" });
    const { submission } = await workState(h, audio.id);
    const attempt = (status: "Approved" | "Rejected") =>
      h.deps.db
        .transaction()
        .execute((trx) =>
          updateSubmissionIfStatus(
            trx,
            submission!.id,
            { column: "translationScriptApprovalStatus", expected: "Pending" },
            { translationScriptApprovalStatus: status },
          ),
        );
    const results = await Promise.all([attempt("Approved"), attempt("Rejected")]);
    const won = results.filter((r) => r !== undefined);
    expect(won).toHaveLength(1);
    expect((await workState(h, audio.id)).submission?.translationScriptApprovalStatus).toBe(
      won[0]!.translationScriptApprovalStatus,
    );
  });

  it("two approvals together: one wins, the other hears it is already Approved", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "twice" });
    const before = await tallies("transcript");
    const results = await Promise.allSettled([
      h.caller(admin).transcripts.approve({ audioId: audio.id }),
      h.caller(admin2).transcripts.approve({ audioId: audio.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(loser.reason).toMatchObject({ code: "CONFLICT", message: "The transcript is already Approved." });
    expect((await tallies("transcript")).audits).toBe(before.audits + 1);
  });
});

describe("stale reviews change nothing (SPEC §4, decision 009)", () => {
  it("refuses approving what is Approved and rejecting what is Rejected with CONFLICT", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const caller = h.caller(admin);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "done" });
    await caller.transcripts.approve({ audioId: audio.id });
    const before = await snapshot(h);
    for (const expectedStatus of [undefined, "Approved", "Pending"] as const) {
      await expect(caller.transcripts.approve({ audioId: audio.id, expectedStatus })).rejects.toMatchObject({
        code: "CONFLICT",
        message: "The transcript is already Approved.",
      });
    }
    await expect(caller.transcripts.remove({ audioId: audio.id, expectedStatus: "Pending" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The transcript is now Approved; refresh and try again.",
    });
    expect(await snapshot(h)).toEqual(before);

    await caller.transcripts.reject({ audioId: audio.id, expectedStatus: "Approved" });
    const rejected = await snapshot(h);
    await expect(caller.transcripts.reject({ audioId: audio.id, expectedStatus: "Rejected" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The transcript is already Rejected.",
    });
    await expect(caller.transcripts.reject({ audioId: audio.id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await snapshot(h)).toEqual(rejected);

    await caller.transcripts.remove({ audioId: audio.id, expectedStatus: "Rejected" });
    const removed = await snapshot(h);
    await expect(caller.transcripts.approve({ audioId: audio.id, expectedStatus: "Rejected" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The transcript has been deleted; refresh and try again.",
    });
    await expect(caller.transcripts.approve({ audioId: audio.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "No transcript submitted yet.",
    });
    expect(await snapshot(h)).toEqual(removed);
  });

  it("refuses approving an Approved recording", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    await h.caller(admin).recordings.approve({ audioId: audio.id });
    const before = await snapshot(h);
    await expect(h.caller(admin2).recordings.approve({ audioId: audio.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The recording is already Approved.",
    });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("review with a reason (SPEC §4)", () => {
  const commentsOf = async (submissionId: string) =>
    h.deps.db
      .selectFrom("comments")
      .select(["text", "postedBy"])
      .where("submissionId", "=", submissionId)
      .orderBy("postedAt")
      .execute();

  it("stores a rejection's reason as the admin's comment and sends it to the assignee", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const f = audio.filename;
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "first try" });
    await expect(
      h.caller(admin).transcripts.reject({ audioId: audio.id, reason: "  The second paragraph is missing.  " }),
    ).resolves.toEqual({ status: "Rejected", message: "Transcript rejected successfully." });
    const { submission } = await workState(h, audio.id);
    expect(await commentsOf(submission!.id)).toEqual([
      { text: "The second paragraph is missing.", postedBy: admin.id },
    ]);

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "second try" });
    await h.caller(admin).transcripts.reject({ audioId: audio.id, reason: "   " });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "third try" });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });
    expect(await commentsOf(submission!.id)).toHaveLength(1);

    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: other.id, file: await tempWav(h) });
    await h.caller(admin).recordings.reject({ audioId: audio.id, reason: "Too quiet." });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: other.id, file: await tempWav(h) });
    await h.caller(admin).recordings.approve({ audioId: audio.id });

    const toAssignee = await notificationsFor(h, staff, audio.id);
    const transcriptLink = "/audiomanagement/trascript";
    const audioLink = "/audiomanagement/translatedaudio";
    expect(toAssignee.map((n) => [n.message, n.link, n.senderId, n.isRead])).toEqual([
      [
        `${admin.username} rejected the transcript for ${f}: The second paragraph is missing.`,
        transcriptLink,
        admin.id,
        false,
      ],
      [`${admin.username} rejected the transcript for ${f}`, transcriptLink, admin.id, false],
      [`${admin.username} approved the transcript for ${f}`, transcriptLink, admin.id, false],
      [`${admin.username} rejected the recorded audio for ${f}: Too quiet.`, audioLink, admin.id, false],
      [`${admin.username} approved the recorded audio for ${f}`, audioLink, admin.id, false],
    ]);
    // The admins' notifications of SPEC §4 stay as they were (no reason); the recorder is not the assignee.
    const toAdmin = (await notificationsFor(h, admin2, audio.id)).map((n) => n.message);
    expect(toAdmin).toContain(`${admin.username} rejected the transcript for ${f}`);
    expect(toAdmin.some((m) => m.includes("missing"))).toBe(false);
    expect(await notificationsFor(h, other, audio.id)).toEqual([]);
    expect(await count("comments", { column: "submissionId", value: submission!.id })).toBe(2);
  });

  it("refuses a reason over 1,000 characters, changing nothing, and accepts exactly 1,000", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "long" });
    const before = await snapshot(h);
    for (const reject of [h.caller(admin).transcripts.reject, h.caller(admin).recordings.reject]) {
      await expect(reject({ audioId: audio.id, reason: "x".repeat(1_001) })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("The reason may be at most 1,000 characters."),
      });
    }
    expect(await snapshot(h)).toEqual(before);
    await expect(
      h.caller(admin).transcripts.reject({ audioId: audio.id, reason: ` ${"y".repeat(1_000)} ` }),
    ).resolves.toMatchObject({ status: "Rejected" });
  });

  it("refuses reviews by staff", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "mine" });
    const before = await snapshot(h);
    await expect(h.caller(staff).transcripts.reject({ audioId: audio.id, reason: "no" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("tasks.setStatus (SPEC §4, §7.1 PUT api/tasks/{id})", () => {
  const taskOf = async (audioId: string) => (await workState(h, audioId)).task;

  it("sets the stage statuses, recomputes is_complete and refuses staff, unknown ids and bad values", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const task = await taskOf(audio.id);
    const caller = h.caller(admin);
    const out = await caller.tasks.setStatus({ taskId: task.id, translationStatus: "Completed" });
    expect(out).toMatchObject({
      message: "Task updated successfully.",
      task: { id: task.id, translationStatus: "Completed", recordingStatus: "In Progress", isComplete: false },
    });
    await caller.tasks.setStatus({ taskId: task.id, recordingStatus: "Completed", translationStatus: "In Progress" });
    expect(await taskOf(audio.id)).toMatchObject({ translationStatus: "In Progress", recordingStatus: "Completed" });

    // is_complete follows the approvals, whatever it held before.
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "t" });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    await caller.transcripts.approve({ audioId: audio.id });
    await caller.recordings.approve({ audioId: audio.id });
    await h.deps.db.updateTable("tasks").set({ isComplete: false }).where("id", "=", task.id).execute();
    await caller.tasks.setStatus({ taskId: task.id, recordingStatus: "Completed" });
    expect((await taskOf(audio.id)).isComplete).toBe(true);

    const before = await snapshot(h);
    const staffCaller = h.caller(staff as SessionUser);
    await expect(
      staffCaller.tasks.setStatus({ taskId: task.id, translationStatus: "Completed" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    for (const taskId of [crypto.randomUUID(), "not-a-task"]) {
      await expect(caller.tasks.setStatus({ taskId, translationStatus: "Completed" })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "Task not found.",
      });
    }
    await expect(
      caller.tasks.setStatus({ taskId: task.id, translationStatus: "Done" as "Completed" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Status must be In Progress or Completed."),
    });
    await expect(caller.tasks.setStatus({ taskId: task.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Send translation_status or recording_status."),
    });
    expect(await snapshot(h)).toEqual(before);
  });
});
