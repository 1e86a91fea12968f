import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

// SPEC §4, §7.1 (decision 009): PUT /api/updatesubmissions/{id}/{userId} and PUT /api/tasks/{id}.

const { h, admin, staffA, staffB, adminToken, tokenA, tokenB } = await appWithUsers();
afterAll(() => h.close());

const DONE = { status: "success", success: true };

/** An audio assigned to staffA with a saved transcript; returns its ids. */
async function audioWithTranscript(filename: string) {
  const audioId = (await uploadAudio(h, adminToken, { name: `${filename}.wav`, content: await fixture("hello.wav") }))
    ._id;
  const taskId = await assignOverRest(h, adminToken, audioId, staffA);
  await h.caller(staffA).transcripts.save({ audioId, text: "Habari ya asubuhi" });
  const task = await h.call("GET", `/api/tasks/${taskId}`, adminToken);
  const submissionId = task.json<{ submission: { _id: string } }>().submission._id;
  return { audioId, taskId, submissionId, filename };
}

/** staffA uploads a translated recording of `audioId` over REST. */
async function uploadTake(audioId: string) {
  const res = await h.upload("AUDIOTRANSLATION", tokenA, [
    ["audioId", audioId],
    ["recordedBy", staffA.id],
    ["file", { name: "take.wav", content: await fixture("hello.wav") }],
  ]);
  expect(res.statusCode, res.body).toBe(200);
}

/** What a refused review must not change: the submission row, comments, notifications and audit entries. */
async function state(submissionId: string) {
  const db = h.deps.db;
  const n = async (table: "comments" | "notifications" | "auditLog") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    submission: await db.selectFrom("submissions").selectAll().where("id", "=", submissionId).executeTakeFirst(),
    comments: await n("comments"),
    notifications: await n("notifications"),
    audit: await n("auditLog"),
  };
}

const review = (submissionId: string, token: string | null, body: unknown, userId = admin.id) =>
  h.call("PUT", `/api/updatesubmissions/${submissionId}/${userId}`, token, body);

describe("PUT /api/updatesubmissions/{id}/{userId}", () => {
  it("rejects with a reason, approves, and deletes the transcript, answering its new status", async () => {
    const { audioId, submissionId, filename } = await audioWithTranscript("review_transcript");
    // {userId} names staffB: not trusted, the caller (admin) acts.
    const rejected = await review(
      submissionId,
      adminToken,
      { translation_script_approval_status: "Rejected", reason: " Missing a paragraph. " },
      staffB.id,
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toEqual({
      ...DONE,
      message: "Transcript rejected successfully.",
      translation_script_approval_status: "Rejected",
    });
    const comments = await h.deps.db
      .selectFrom("comments")
      .select(["text", "postedBy"])
      .where("submissionId", "=", submissionId)
      .execute();
    expect(comments).toEqual([{ text: "Missing a paragraph.", postedBy: admin.id }]);
    const notices = await h.deps.db
      .selectFrom("notifications")
      .select(["message", "senderId"])
      .where("recipientId", "=", staffA.id)
      .where("audioId", "=", audioId)
      .execute();
    expect(notices).toEqual([
      {
        message: `${admin.username} rejected the transcript for ${filename}: Missing a paragraph.`,
        senderId: admin.id,
      },
    ]);

    const again = await review(submissionId, adminToken, { translation_script_approval_status: "Rejected" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(failed("The transcript is already Rejected."));

    await h.caller(staffA).transcripts.save({ audioId, text: "Habari ya jioni" });
    const approved = await review(submissionId, adminToken, {
      translation_script_approval_status: "Approved",
      expectedStatus: "Pending",
    });
    expect(approved.json()).toEqual({
      ...DONE,
      message: "Transcript approved successfully.",
      translation_script_approval_status: "Approved",
    });
    const stale = await review(submissionId, adminToken, {
      translation_script_approval_status: "Rejected",
      expectedStatus: "Pending",
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual(failed("The transcript is now Approved; refresh and try again."));

    const deleted = await review(submissionId, adminToken, { translation_script: null });
    expect(deleted.json()).toEqual({
      ...DONE,
      message: "Transcript deleted successfully.",
      translation_script_approval_status: "No transcript",
    });
    const nothing = await review(submissionId, adminToken, { translation_script: null });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toEqual(failed("No transcript submitted yet."));
  });

  it("approves, rejects and deletes the recording", async () => {
    const { audioId, taskId, submissionId } = await audioWithTranscript("review_recording");
    await uploadTake(audioId);
    const approved = await review(submissionId, adminToken, { recorded_audio_approval_status: "Approved" });
    expect(approved.json()).toEqual({
      ...DONE,
      message: "Translation Audio file approved successfully.",
      recorded_audio_approval_status: "Approved",
    });
    const rejected = await review(submissionId, adminToken, {
      recorded_audio_approval_status: "Rejected",
      expectedStatus: "Approved",
      reason: "Too quiet.",
    });
    expect(rejected.json()).toEqual({
      ...DONE,
      message: "Translation Audio file rejected successfully.",
      recorded_audio_approval_status: "Rejected",
    });
    const staleDelete = await review(submissionId, adminToken, { recorded_audio: null, expectedStatus: "Pending" });
    expect(staleDelete.statusCode).toBe(409);
    expect(staleDelete.json()).toEqual(failed("The recording is now Rejected; refresh and try again."));
    const deleted = await review(submissionId, adminToken, { recorded_audio: null, expectedStatus: "Rejected" });
    expect(deleted.json()).toEqual({
      ...DONE,
      message: "Translation Audio file deleted successfully.",
      recorded_audio_approval_status: "No translation audio",
    });
    const task = await h.call("GET", `/api/tasks/${taskId}`, adminToken);
    expect(task.json()).toMatchObject({
      recording_status: "In Progress",
      submission: { recorded_audio_approval_status: "No translation audio" },
    });
  });

  it("refuses staff, anonymous callers, unknown and malformed ids and bodies of no accepted shape, changing nothing", async () => {
    const { submissionId } = await audioWithTranscript("review_hostile");
    const before = await state(submissionId);
    const body = { translation_script_approval_status: "Approved" };

    for (const [token, userId] of [
      [tokenA, staffA.id],
      [tokenB, staffB.id],
    ] as const) {
      const res = await review(submissionId, token, body, userId);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(failed("Only administrators may do this."));
    }
    const anonymous = await review(submissionId, null, body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().success).toBe(false);

    for (const id of [crypto.randomUUID(), "not-a-submission", "1%20OR%201=1"]) {
      const res = await review(id, adminToken, body);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(failed("Submission not found."));
    }

    const ONE =
      "Send one of translation_script_approval_status, recorded_audio_approval_status, translation_script: null or recorded_audio: null.";
    const refused: Array<[unknown, string]> = [
      [{}, ONE],
      [{ reason: "why" }, ONE],
      [{ translation_script_approval_status: "Approved", recorded_audio_approval_status: "Approved" }, ONE],
      [{ translation_script_approval_status: "Approved", translation_script: null }, ONE],
      [
        { translation_script_approval_status: "Pending" },
        "translation_script_approval_status must be Approved or Rejected.",
      ],
      [{ recorded_audio_approval_status: "approved" }, "recorded_audio_approval_status must be Approved or Rejected."],
      [{ translation_script: "" }, "translation_script may only be null (to delete the transcript)."],
      [{ recorded_audio: "x.wav" }, "recorded_audio may only be null (to delete the recording)."],
      [
        { translation_script_approval_status: "Rejected", reason: "x".repeat(1_001) },
        "The reason may be at most 1,000 characters.",
      ],
      [
        { translation_script_approval_status: "Approved", expectedStatus: "Done" },
        "expectedStatus must be No transcript, No translation audio, Pending, Approved or Rejected.",
      ],
      [[], "The request body must be a JSON object."],
    ];
    for (const [bad, message] of refused) {
      const res = await review(submissionId, adminToken, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toEqual(failed(message));
    }
    // A staff member's bad body is refused too; a good one by another staff member as well (above).
    expect((await review(submissionId, tokenB, {})).statusCode).toBe(400);
    expect(await state(submissionId)).toEqual(before);
  });

  it("a rejection with reassign_to moves the task: staffB's GET /api/tasks lists it, staffA's no longer (decision 025)", async () => {
    const { audioId, taskId, submissionId, filename } = await audioWithTranscript("review_reassign");
    const myTasks = async (token: string) =>
      (await h.call("GET", "/api/tasks?limit=100", token))
        .json<{ tasks: Array<{ _id: string }> }>()
        .tasks.map((t) => t._id);
    expect(await myTasks(tokenA)).toContain(taskId);
    expect(await myTasks(tokenB)).not.toContain(taskId);

    const res = await review(submissionId, adminToken, {
      translation_script_approval_status: "Rejected",
      reason: "Line 2 is missing.",
      reassign_to: staffB.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...DONE,
      message: `Transcript rejected successfully. The task is now assigned to ${staffB.username}.`,
      translation_script_approval_status: "Rejected",
    });
    expect(await myTasks(tokenB)).toContain(taskId);
    expect(await myTasks(tokenA)).not.toContain(taskId);
    const task = await h.call("GET", `/api/tasks/${taskId}`, tokenB);
    expect(task.json()).toMatchObject({
      assigned_to: { _id: staffB.id, username: staffB.username },
      submission: { _id: submissionId, translation_script_approval_status: "Rejected" },
    });
    expect((await h.call("GET", `/api/tasks/${taskId}`, tokenA)).statusCode).toBe(403);

    const notices = await h.deps.db
      .selectFrom("notifications")
      .select(["recipientId", "message"])
      .where("audioId", "=", audioId)
      .where("recipientId", "in", [staffA.id, staffB.id])
      .where("message", "like", `%rejected%`)
      .execute();
    const said = `${admin.username} rejected the transcript for ${filename}`;
    expect(notices).toEqual(
      expect.arrayContaining([
        { recipientId: staffB.id, message: `${said} and assigned it to you: Line 2 is missing.` },
        { recipientId: staffA.id, message: `${said} and reassigned it to ${staffB.username}: Line 2 is missing.` },
      ]),
    );
    expect(notices).toHaveLength(2);
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select("detail")
      .where("action", "=", "reassign")
      .where("entityId", "=", taskId)
      .executeTakeFirstOrThrow();
    expect(audit.detail).toMatchObject({ from: staffA.id, to: staffB.id, review: { output: "transcript" } });
  });

  it("refuses reassign_to from staff, malformed, unknown, not staff, the assignee, or without a rejection, changing nothing", async () => {
    const { submissionId, taskId } = await audioWithTranscript("review_reassign_hostile");
    const before = await state(submissionId);
    const tasks = async () => h.deps.db.selectFrom("tasks").selectAll().where("id", "=", taskId).execute();
    const taskBefore = await tasks();
    const rejectTo = (reassign_to: unknown) => ({ translation_script_approval_status: "Rejected", reassign_to });

    // A staff token (the assignee's or another's) is refused before anything is looked at.
    for (const [token, userId] of [
      [tokenA, staffA.id],
      [tokenB, staffB.id],
    ] as const) {
      const res = await review(submissionId, token, rejectTo(staffB.id), userId);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(failed("Only administrators may do this."));
    }
    expect((await review(submissionId, null, rejectTo(staffB.id))).statusCode).toBe(401);

    const refused: Array<[unknown, string]> = [
      [rejectTo(""), "Please select a staff member to reassign."],
      [rejectTo("not-a-user"), "Unknown staff member."],
      [rejectTo("1 OR 1=1"), "Unknown staff member."],
      [rejectTo("x".repeat(100_000)), "Unknown staff member."],
      [rejectTo(42), "Please select a staff member to reassign."],
      [rejectTo(crypto.randomUUID()), "Please select a staff member to reassign."],
      [rejectTo(admin.id), "Please select a staff member to reassign."],
      [rejectTo(staffA.id), "This audio is already assigned to this staff member."],
      [
        { translation_script_approval_status: "Approved", reassign_to: staffB.id },
        "Only a rejection can reassign the task.",
      ],
      [{ translation_script: null, reassign_to: staffB.id }, "Only a rejection can reassign the task."],
    ];
    for (const [bad, message] of refused) {
      const res = await review(submissionId, adminToken, bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 120)).toBe(400);
      expect(res.json()).toEqual(failed(message));
    }
    expect(await state(submissionId)).toEqual(before);
    expect(await tasks()).toEqual(taskBefore);
  });
});

describe("PUT /api/tasks/{id}", () => {
  it("sets a stage status and answers the task as GET /api/tasks/{id} does", async () => {
    const { taskId } = await audioWithTranscript("task_status");
    const res = await h.call("PUT", `/api/tasks/${taskId}`, adminToken, { translation_status: "Completed" });
    expect(res.statusCode, res.body).toBe(200);
    const task = (await h.call("GET", `/api/tasks/${taskId}`, adminToken)).json();
    expect(res.json()).toEqual({ ...DONE, message: "Task updated successfully.", task });
    expect(task).toMatchObject({
      translation_status: "Completed",
      recording_status: "In Progress",
      is_complete: false,
    });

    const recording = await h.call("PUT", `/api/tasks/${taskId}`, adminToken, { recording_status: "Completed" });
    expect(recording.json().task).toMatchObject({ recording_status: "Completed", is_complete: false });
    const back = await h.call("PUT", `/api/tasks/${taskId}`, adminToken, { translation_status: "In Progress" });
    expect(back.json().task).toMatchObject({ translation_status: "In Progress", recording_status: "Completed" });
  });

  it("refuses staff, anonymous callers, unknown and malformed ids and bad status values, changing nothing", async () => {
    const { taskId } = await audioWithTranscript("task_status_hostile");
    const read = async () => (await h.call("GET", `/api/tasks/${taskId}`, adminToken)).json();
    const before = await read();
    const body = { translation_status: "Completed" };

    for (const token of [tokenA, tokenB]) {
      const res = await h.call("PUT", `/api/tasks/${taskId}`, token, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(failed("Only administrators may do this."));
    }
    expect((await h.call("PUT", `/api/tasks/${taskId}`, null, body)).statusCode).toBe(401);
    for (const id of [crypto.randomUUID(), "not-a-task"]) {
      const res = await h.call("PUT", `/api/tasks/${id}`, adminToken, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(failed("Task not found."));
    }
    const refused: Array<[unknown, string]> = [
      [{}, "Send translation_status or recording_status."],
      [{ translation_status: "Done" }, "Status must be In Progress or Completed."],
      [{ recording_status: "completed" }, "Status must be In Progress or Completed."],
      [{ recording_status: 1 }, "Status must be In Progress or Completed."],
      [{ is_complete: true }, "Send translation_status or recording_status."],
    ];
    for (const [bad, message] of refused) {
      const res = await h.call("PUT", `/api/tasks/${taskId}`, adminToken, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toEqual(failed(message));
    }
    expect(await read()).toEqual(before);
  });
});
