import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../src/context";
import { describeError } from "../src/errors/describe-error";
import {
  assignedAudio,
  harnessWithUsers,
  newAudio,
  notificationsFor,
  recommend,
  snapshot,
  workState,
} from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const secondAdmin = await h.createUser("Admin");

const EMPTY = "Comment is empty.";
const TOO_LONG = "Comment is too long (at most 5,000 characters).";
const FEEDBACK = "/audiomanagement/feedback";

/** How a refused call answers on both APIs (status and message, through describeError). */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the call is refused").not.toBeNull();
  const { httpStatus, message } = describeError(error);
  return { httpStatus, message };
}

/** The live events recorded about an audio, as [kind, audience, recipientId], in id order. */
async function eventsAbout(audioId: string) {
  const rows = await h.deps.db
    .selectFrom("events")
    .select(["kind", "audience", "recipientId", "id"])
    .where("audioId", "=", audioId)
    .execute();
  return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((e) => [e.kind, e.audience, e.recipientId]);
}

/** The comment notifications `user` received about an audio, as [message, link, senderId]. */
async function commentNotices(user: SessionUser, audioId: string) {
  const rows = await notificationsFor(h, user, audioId);
  return rows.filter((n) => n.link === FEEDBACK).map((n) => [n.message, n.link, n.senderId]);
}

describe("comments.list (SPEC §2.14)", () => {
  it("is empty while the audio has no submission, or no task at all", async () => {
    const audio = await assignedAudio(h, admin, staff);
    expect(await h.caller(staff).comments.list({ audioId: audio.id })).toEqual([]);
    expect(await h.caller(admin).comments.list({ audioId: audio.id })).toEqual([]);
    const unassigned = await newAudio(h, admin);
    expect(await h.caller(admin).comments.list({ audioId: unassigned.id })).toEqual([]);
  });

  it("lists the submission's comments oldest first, with their authors", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const first = await h.caller(staff).comments.add({ audioId: audio.id, text: "First" });
    const second = await h.caller(admin).comments.add({ audioId: audio.id, text: "Second" });
    const third = await h.caller(staff).comments.add({ audioId: audio.id, text: "Third" });
    const list = await h.caller(admin).comments.list({ audioId: audio.id });
    expect(list).toEqual([first, second, third]);
    expect(list.map((c) => [c.text, c.author?.username])).toEqual([
      ["First", staff.username],
      ["Second", admin.username],
      ["Third", staff.username],
    ]);
    expect(new Date(list[0]!.postedAt).toISOString()).toBe(list[0]!.postedAt);
    expect(await h.caller(staff).comments.list({ audioId: audio.id })).toEqual(list);
  });

  it("shows a deleted author as null (the screen shows 'Unknown User')", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const gone = await h.createUser("Admin");
    await h.caller(gone).comments.add({ audioId: audio.id, text: "From an account that goes away" });
    await h.caller(staff).comments.add({ audioId: audio.id, text: "Still here" });
    await h.deps.db.deleteFrom("users").where("id", "=", gone.id).execute();
    const list = await h.caller(staff).comments.list({ audioId: audio.id });
    expect(list.map((c) => [c.text, c.author])).toEqual([
      ["From an account that goes away", null],
      ["Still here", { id: staff.id, username: staff.username }],
    ]);
  });
});

describe("comments.add (SPEC §2.14, §3, §5)", () => {
  it("creates the submission with the first comment, authored by the caller, text trimmed and stored as is", async () => {
    const audio = await assignedAudio(h, admin, staff);
    expect((await workState(h, audio.id)).submission).toBeUndefined();
    const text = "  <b>Habari</b> & 'karibu'\n  <script>alert(1)</script>  \n";
    const comment = await h.caller(staff).comments.add({ audioId: audio.id, text });
    expect(comment).toEqual({
      id: expect.any(String),
      text: "<b>Habari</b> & 'karibu'\n  <script>alert(1)</script>",
      author: { id: staff.id, username: staff.username },
      postedAt: expect.any(String),
    });
    const { submission } = await workState(h, audio.id);
    expect(submission).toMatchObject({ createdBy: staff.id, translationScriptApprovalStatus: "No transcript" });
    const stored = await h.deps.db
      .selectFrom("comments")
      .selectAll()
      .where("id", "=", comment.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ submissionId: submission!.id, text: comment.text, postedBy: staff.id });
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select(["actorId", "action", "entity", "entityId"])
      .where("action", "=", "comment")
      .where("entityId", "=", submission!.id)
      .execute();
    expect(audit).toEqual([{ actorId: staff.id, action: "comment", entity: "submission", entityId: submission!.id }]);
  });

  it("reuses the submission a saved transcript created", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" });
    const before = (await workState(h, audio.id)).submission!;
    await h.caller(admin).comments.add({ audioId: audio.id, text: "Looks good" });
    expect((await workState(h, audio.id)).submission).toEqual(before);
  });

  it("accepts 5,000 characters and refuses whitespace-only or longer text, writing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const state = await snapshot(h);
    const events = await eventsAbout(audio.id);
    for (const text of ["", "   ", " \n\t \r\n "]) {
      expect(await refusal(h.caller(staff).comments.add({ audioId: audio.id, text }))).toEqual({
        httpStatus: 400,
        message: EMPTY,
      });
    }
    expect(await refusal(h.caller(admin).comments.add({ audioId: audio.id, text: "x".repeat(5001) }))).toEqual({
      httpStatus: 400,
      message: TOO_LONG,
    });
    expect(await snapshot(h)).toEqual(state);
    expect(await eventsAbout(audio.id)).toEqual(events);
    const longest = await h.caller(staff).comments.add({ audioId: audio.id, text: ` ${"x".repeat(5000)} ` });
    expect(longest.text).toHaveLength(5000);
  });

  it("notifies the admins when staff comment", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).comments.add({ audioId: audio.id, text: "Done with the first half" });
    const notice = [`${staff.username} commented on ${audio.filename}`, FEEDBACK, staff.id];
    expect(await commentNotices(admin, audio.id)).toEqual([notice]);
    expect(await commentNotices(secondAdmin, audio.id)).toEqual([notice]);
    expect(await commentNotices(staff, audio.id)).toEqual([]);
    expect(await commentNotices(other, audio.id)).toEqual([]);
  });

  it("notifies the task's assignee when an admin comments", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(admin).comments.add({ audioId: audio.id, text: "Please check line 3" });
    expect(await commentNotices(staff, audio.id)).toEqual([
      [`${admin.username} commented on ${audio.filename}`, FEEDBACK, admin.id],
    ]);
    expect(await commentNotices(admin, audio.id)).toEqual([]);
    expect(await commentNotices(secondAdmin, audio.id)).toEqual([]);
    expect(await commentNotices(other, audio.id)).toEqual([]);
  });

  it("records 'audio.changed' for everyone who may see the audio", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await recommend(h, audio.id, other, staff);
    const before = (await eventsAbout(audio.id)).length;
    await h.caller(other).comments.add({ audioId: audio.id, text: "Recorded it" });
    const after = (await eventsAbout(audio.id)).slice(before);
    expect(after.filter(([kind]) => kind === "audio.changed")).toEqual(
      expect.arrayContaining([
        ["audio.changed", "admins", null],
        ["audio.changed", "user", staff.id],
        ["audio.changed", "user", other.id],
      ]),
    );
    expect(after.filter(([kind]) => kind === "audio.changed")).toHaveLength(3);
    expect(after.filter(([kind]) => kind === "notification.created")).toEqual(
      expect.arrayContaining([
        ["notification.created", "user", admin.id],
        ["notification.created", "user", secondAdmin.id],
      ]),
    );
  });

  it("refuses an audio that is not assigned yet", async () => {
    const unassigned = await newAudio(h, admin);
    const state = await snapshot(h);
    await expect(h.caller(admin).comments.add({ audioId: unassigned.id, text: "Hello" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is not assigned yet.",
    });
    expect(await snapshot(h)).toEqual(state);
  });
});

describe("comments: who may read and write (SPEC §6)", () => {
  it("refuses another staff member's audio (FORBIDDEN), writing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).comments.add({ audioId: audio.id, text: "Mine" });
    const state = await snapshot(h);
    await expect(h.caller(other).comments.list({ audioId: audio.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You do not have access to this audio.",
    });
    await expect(h.caller(other).comments.add({ audioId: audio.id, text: "Not mine" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You do not have access to this audio.",
    });
    const { submission } = await workState(h, audio.id);
    await expect(
      h.caller(other).comments.addToSubmission({ submissionId: submission!.id, text: "Not mine" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await snapshot(h)).toEqual(state);
  });

  it("lets a staff member the audio was recommended to read and comment", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await recommend(h, audio.id, other, staff);
    await h.caller(other).comments.add({ audioId: audio.id, text: "Recorded it" });
    expect((await h.caller(staff).comments.list({ audioId: audio.id })).map((c) => c.author?.id)).toEqual([other.id]);
  });

  it("answers unknown ids NOT_FOUND, malformed ones 'Unknown id.', and no session UNAUTHORIZED", async () => {
    const audio = await assignedAudio(h, admin, staff);
    for (const call of [
      () => h.caller(admin).comments.list({ audioId: crypto.randomUUID() }),
      () => h.caller(admin).comments.add({ audioId: crypto.randomUUID(), text: "Hello" }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "NOT_FOUND", message: "Audio not found." });
    }
    await expect(
      h.caller(admin).comments.addToSubmission({ submissionId: crypto.randomUUID(), text: "Hello" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Submission not found." });
    for (const call of [
      () => h.caller(admin).comments.list({ audioId: "not-an-id" }),
      () => h.caller(admin).comments.add({ audioId: "not-an-id", text: "Hello" }),
      () => h.caller(admin).comments.addToSubmission({ submissionId: "42", text: "Hello" }),
    ]) {
      expect(await refusal(call())).toEqual({ httpStatus: 400, message: "Unknown id." });
    }
    await expect(h.caller(null).comments.list({ audioId: audio.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(h.caller(null).comments.add({ audioId: audio.id, text: "Hi" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});

describe("comments.addToSubmission and submissions.* (SPEC §7.1)", () => {
  it("adds to a submission by id, notifying the other side", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const created = await h.caller(staff).submissions.ensure({ taskId: (await workState(h, audio.id)).task.id });
    const { message, ...comment } = await h.caller(admin).comments.addToSubmission({
      submissionId: created.id,
      text: " Nice ",
    });
    expect(message).toBe("Comment added.");
    expect(comment).toMatchObject({ text: "Nice", author: { id: admin.id, username: admin.username } });
    expect(await commentNotices(staff, audio.id)).toEqual([
      [`${admin.username} commented on ${audio.filename}`, FEEDBACK, admin.id],
    ]);
    expect((await h.caller(staff).submissions.get({ submissionId: created.id })).comments).toEqual([comment]);
  });

  it("ensure creates one submission per task, with an optional first comment, and check reports it", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const { task } = await workState(h, audio.id);
    expect(await h.caller(staff).submissions.check({ taskId: task.id })).toEqual({ exists: false, submission: null });
    const first = await h.caller(staff).submissions.ensure({ taskId: task.id, comment: "  Starting  " });
    expect(first).toMatchObject({
      taskId: task.id,
      audioId: audio.id,
      transcriptStatus: "No transcript",
      recordingApprovalStatus: "No translation audio",
      approvalStatus: "Pending",
      translationScript: null,
      recordedAudio: null,
      recordedBy: null,
      comments: [{ text: "Starting", author: { id: staff.id, username: staff.username } }],
    });
    const again = await h.caller(admin).submissions.ensure({ taskId: task.id, comment: "   " });
    expect(again).toEqual(first);
    expect(await h.caller(admin).submissions.check({ taskId: task.id })).toEqual({ exists: true, submission: first });
    await expect(h.caller(other).submissions.ensure({ taskId: task.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.caller(other).submissions.check({ taskId: task.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(other).submissions.get({ submissionId: first.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.caller(staff).submissions.ensure({ taskId: crypto.randomUUID() })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Task not found.",
    });
  });
});
