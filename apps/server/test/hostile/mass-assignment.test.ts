import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import type { SessionUser } from "@tafsiri/api";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { assignOverRest, createAppHarness, fixture, uploadAudio } from "../fixtures/app-harness";
import { ownedWorld, trpcCall } from "../fixtures/hostile-world";

/**
 * Hostile suite, attack: mass assignment. A client adds the fields the server owns to an
 * ordinary body (a role, an id, an active flag, a session version, a password hash, an author,
 * an approval status, an assignee, a completion flag) hoping they are written as sent. Each such
 * field is ignored: the request does what it would have done without it, and the row holds what
 * the server decided.
 */

const h = await createAppHarness({ loginRateLimit: 1_000 });
afterAll(() => h.close());
const w = await ownedWorld(h);
const { admin, owner, attacker, other } = w;
const wav = await fixture("hello.wav");

/** Every server-owned field of every table, as a client might spell it, with hostile values. */
const FORGED = {
  _id: randomUUID(),
  id: randomUUID(),
  role: "Admin",
  isAdmin: true,
  active: false,
  isActive: false,
  session_version: 99,
  sessionVersion: 99,
  password_hash: "$argon2id$v=19$m=65536,t=3,p=4$forged$forged",
  passwordHash: "$argon2id$v=19$m=65536,t=3,p=4$forged$forged",
  created_by: other.id,
  createdBy: other.id,
  createdAt: "2000-01-01T00:00:00.000Z",
  created_at: "2000-01-01T00:00:00.000Z",
  assigned_to: attacker.id,
  assignedTo: attacker.id,
  status: "Approved",
  approval_status: "Approved",
  approvalStatus: "Approved",
  is_complete: true,
  isComplete: true,
  uploadedBy: other.id,
  recommendedBy: other.id,
  recommended_by: other.id,
  senderId: other.id,
  isRead: true,
  image: "https://evil.example/pixel.png",
};

async function userRow(user: { id: string }) {
  return h.deps.db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
}

/** A fresh audio assigned to `staff` (no submission yet); its id and task id. */
async function freshTask(staff: SessionUser): Promise<{ audioId: string; taskId: string }> {
  const { _id } = await uploadAudio(h, w.adminToken, { name: `fresh-${randomUUID().slice(0, 8)}.wav`, content: wav });
  return { audioId: _id, taskId: await assignOverRest(h, w.adminToken, _id, staff) };
}

async function submissionOfTask(taskId: string) {
  return h.deps.db.selectFrom("submissions").selectAll().where("taskId", "=", taskId).executeTakeFirstOrThrow();
}

const recent = (date: Date) => expect(Date.now() - date.getTime()).toBeLessThan(60_000);

describe("accounts: role, active flag, session version, password hash", () => {
  it("a staff member signing in with role: 'Admin' in the body is still Staff (REST and tRPC)", async () => {
    const body = { email: owner.email, password: TEST_PASSWORD, ...FORGED };
    const res = await h.call("POST", "/auth/login", null, body);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ token: string; user: { role: string; _id: string } }>();
    expect(answer.user).toMatchObject({ role: "Staff", _id: owner.id });
    expect(decodeJwt(answer.token)).toMatchObject({ sub: owner.id, role: "Staff" });

    const trpc = await trpcCall(h, null, "accounts.login", body);
    expect(trpc.status, trpc.body).toBe(200);
    expect((trpc.data as { user: { role: string } }).user.role).toBe("Staff");
    // The staff token still cannot do what admins do.
    const list = await h.call("GET", "/auth/users", answer.token);
    expect(list.statusCode).toBe(403);
  });

  it("registering an account ignores the id, active flag, session version, password hash and image sent", async () => {
    const res = await h.call("POST", "/auth/register", w.adminToken, {
      ...FORGED,
      username: "mass-new",
      email: "mass-new@example.test",
      password: "Str0ng-pass!",
      role: "Staff",
      adminpassword: TEST_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<{ user: { _id: string } }>().user;
    expect([FORGED._id, FORGED.id]).not.toContain(created._id);
    const row = await userRow({ id: created._id });
    expect(row).toMatchObject({ role: "Staff", active: true, sessionVersion: 1, image: null });
    expect(row.passwordHash).not.toBe(FORGED.passwordHash);
    recent(row.createdAt);
    // The password sent is the one that works.
    expect(
      (await h.call("POST", "/auth/login", null, { email: "mass-new@example.test", password: "Str0ng-pass!" }))
        .statusCode,
    ).toBe(200);

    const trpc = await trpcCall(h, w.adminToken, "accounts.register", {
      ...FORGED,
      username: "mass-trpc",
      email: "mass-trpc@example.test",
      password: "Str0ng-pass!",
      role: "Staff",
      adminPassword: TEST_PASSWORD,
    });
    expect(trpc.status, trpc.body).toBe(200);
    const trpcRow = await userRow({ id: (trpc.data as { id: string }).id });
    expect(trpcRow).toMatchObject({ role: "Staff", active: true, sessionVersion: 1, image: null });
  });

  it("editing an account without a password changes no session version, hash, id or active flag", async () => {
    const before = await userRow(other);
    const res = await h.call("PUT", "/auth/editprofile", w.adminToken, {
      ...FORGED,
      userId: other.id,
      username: other.username,
      email: other.email,
      role: "Staff",
      adminpassword: TEST_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await userRow(other)).toEqual(before);

    const trpc = await trpcCall(h, w.adminToken, "accounts.edit", {
      ...FORGED,
      userId: other.id,
      username: other.username,
      email: other.email,
      role: "Staff",
      adminPassword: TEST_PASSWORD,
    });
    expect(trpc.status, trpc.body).toBe(200);
    expect(await userRow(other)).toEqual(before);
  });
});

describe("work: authors, approval statuses, assignees", () => {
  it("a transcript saved with status 'Approved' and another author is Pending and the caller's", async () => {
    const { audioId, taskId } = await freshTask(attacker);
    const res = await trpcCall(h, w.attackerToken, "transcripts.save", {
      ...FORGED,
      audioId,
      text: "my work",
      translationScriptApprovalStatus: "Approved",
      fileName: "../../escape.cha",
    });
    expect(res.status, res.body).toBe(200);
    expect(res.data).toMatchObject({ status: "Pending" });
    const submission = await submissionOfTask(taskId);
    expect(submission).toMatchObject({
      createdBy: attacker.id,
      translationScriptApprovalStatus: "Pending",
      approvalStatus: "Pending",
    });
    const version = await h.deps.db
      .selectFrom("transcriptVersions")
      .selectAll()
      .where("submissionId", "=", submission.id)
      .executeTakeFirstOrThrow();
    expect(version.createdBy).toBe(attacker.id);
    expect(version.fileName).not.toContain("..");
    expect(version.fileKey).not.toContain("..");
    const task = await h.deps.db.selectFrom("tasks").selectAll().where("id", "=", taskId).executeTakeFirstOrThrow();
    expect(task).toMatchObject({ assignedTo: attacker.id, isComplete: false, translationStatus: "In Progress" });
  });

  it("POST /api/createsubmissions with another creator, statuses and an id creates the caller's Pending submission", async () => {
    const { taskId } = await freshTask(attacker);
    const res = await h.call("POST", "/api/createsubmissions", w.attackerToken, {
      ...FORGED,
      task_id: taskId,
      by: other.id,
      translation_script_approval_status: "Approved",
      recorded_audio_approval_status: "Approved",
      translation_script: "injected",
      recorded_audio: "audios/other.wav",
    });
    expect(res.statusCode, res.body).toBe(200);
    const submission = await submissionOfTask(taskId);
    expect([FORGED._id, FORGED.id]).not.toContain(submission.id);
    expect(submission).toMatchObject({
      createdBy: attacker.id,
      translationScript: null,
      recordedAudio: null,
      translationScriptApprovalStatus: "No transcript",
      recordedAudioApprovalStatus: "No translation audio",
      approvalStatus: "Pending",
    });
  });

  it("a comment posted as someone else, or aimed at another submission, is the caller's on their own", async () => {
    const { audioId, taskId } = await freshTask(attacker);
    const rest = await h.call("POST", "/api/createsubmissions", w.attackerToken, { task_id: taskId });
    const submissionId = rest.json<{ submission: { _id: string } }>().submission._id;
    const viaRest = await h.call("POST", `/api/submissions/${submissionId}/comments`, w.attackerToken, {
      ...FORGED,
      comments: { ...FORGED, text: "rest comment", postedBy: other.id, submissionId: w.owned.submissionId },
    });
    expect(viaRest.statusCode, viaRest.body).toBe(200);
    const viaTrpc = await trpcCall(h, w.attackerToken, "comments.add", {
      ...FORGED,
      audioId,
      text: "trpc comment",
      postedBy: other.id,
      authorId: other.id,
      submissionId: w.owned.submissionId,
    });
    expect(viaTrpc.status, viaTrpc.body).toBe(200);
    const comments = await h.deps.db
      .selectFrom("comments")
      .select(["submissionId", "postedBy", "text"])
      .where("text", "in", ["rest comment", "trpc comment"])
      .orderBy("text")
      .execute();
    expect(comments).toEqual([
      { submissionId, postedBy: attacker.id, text: "rest comment" },
      { submissionId, postedBy: attacker.id, text: "trpc comment" },
    ]);
  });

  it("uploads sent with 'Approved' statuses and another uploader are Pending and the caller's", async () => {
    const { audioId, taskId } = await freshTask(attacker);
    const recording = await h.upload("AUDIOTRANSLATION", w.attackerToken, [
      ["audioId", audioId],
      ["recordedBy", attacker.id],
      ["recorded_audio_approval_status", "Approved"],
      ["uploadedBy", other.id],
      ["status", "Approved"],
      ["file", { name: "take.wav", content: wav }],
    ]);
    expect(recording.statusCode, recording.body).toBe(200);
    expect(recording.json()).toMatchObject({ recorded_audio_approval_status: "Pending" });
    const transcript = await h.upload("TRANSLATED_TRANSCRIPT", w.attackerToken, [
      ["audioId", audioId],
      ["translation_script_approval_status", "Approved"],
      ["createdBy", other.id],
      ["file", { name: "t.cha", content: "*PAR: habari\n" }],
    ]);
    expect(transcript.statusCode, transcript.body).toBe(200);
    expect(transcript.json()).toMatchObject({ translation_script_approval_status: "Pending" });

    const submission = await submissionOfTask(taskId);
    expect(submission).toMatchObject({
      translationScriptApprovalStatus: "Pending",
      recordedAudioApprovalStatus: "Pending",
      approvalStatus: "Pending",
    });
    const take = await h.deps.db
      .selectFrom("translatedRecordings")
      .select(["uploadedBy", "recordedBy"])
      .where("submissionId", "=", submission.id)
      .executeTakeFirstOrThrow();
    expect(take).toEqual({ uploadedBy: attacker.id, recordedBy: attacker.id });
  });

  it("a notification sent with isRead, an id and a date is a new unread one", async () => {
    const message = `hello ${randomUUID()}`;
    const res = await trpcCall(h, w.attackerToken, "notifications.create", {
      ...FORGED,
      senderId: attacker.id,
      recipientId: owner.id,
      message,
      link: "/Audios",
    });
    expect(res.status, res.body).toBe(200);
    const row = await h.deps.db
      .selectFrom("notifications")
      .selectAll()
      .where("message", "=", message)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ recipientId: owner.id, senderId: attacker.id, isRead: false });
    expect([FORGED._id, FORGED.id]).not.toContain(row.id);
    recent(row.createdAt);
  });

  it("a recommendation sent with another recommender is the caller's", async () => {
    const { audioId, taskId } = await freshTask(attacker);
    await h.caller(attacker).transcripts.save({ audioId, text: "done" });
    const res = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, w.attackerToken, {
      ...FORGED,
      recommended_to: other.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const trpc = await trpcCall(h, w.attackerToken, "recommendations.create", {
      ...FORGED,
      audioId,
      staffId: owner.id,
    });
    expect(trpc.status, trpc.body).toBe(200);
    const rows = await h.deps.db
      .selectFrom("recommendations")
      .select(["recommendedTo", "recommendedBy"])
      .where("taskId", "=", taskId)
      .orderBy("recommendedTo")
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.recommendedBy).toBe(attacker.id);
    expect(rows.map((r) => r.recommendedTo).sort()).toEqual([other.id, owner.id].sort());
  });

  it("a staff member's path and body ids do not move a task to them or mark an audio opened in their name", async () => {
    const before = await h.deps.db
      .selectFrom("tasks")
      .selectAll()
      .where("id", "=", w.owned.taskId)
      .executeTakeFirstOrThrow();
    // The owner's own call, naming the attacker in the path and the body: the caller is the owner, nothing moves.
    const res = await h.call("PUT", `/api/updateaudios/${w.owned.id}/${attacker.id}`, w.ownerToken, FORGED);
    expect(res.statusCode, res.body).toBe(200);
    const ensured = await trpcCall(h, w.ownerToken, "submissions.ensure", { ...FORGED, taskId: w.owned.taskId });
    expect(ensured.status, ensured.body).toBe(200);
    expect(
      await h.deps.db.selectFrom("tasks").selectAll().where("id", "=", w.owned.taskId).executeTakeFirstOrThrow(),
    ).toEqual(before);
    const audio = await h.deps.db
      .selectFrom("audios")
      .select(["lastOpenedBy"])
      .where("id", "=", w.owned.id)
      .executeTakeFirstOrThrow();
    expect(audio.lastOpenedBy).not.toBe(attacker.id);
  });

  it("every staff account is as it was: no role, flag, version or hash came from a body", async () => {
    for (const user of [owner, attacker, other]) {
      const row = await userRow(user);
      expect(row).toMatchObject({ role: "Staff", active: true, image: null });
      expect(row.passwordHash).not.toBe(FORGED.passwordHash);
      expect(row.sessionVersion).not.toBe(99);
    }
  });
});

describe("admin calls: the server decides ids, keys, uploaders and completion", () => {
  it("POST /api/createtask with statuses, a completion flag and an id creates an In Progress task", async () => {
    const { _id } = await uploadAudio(h, w.adminToken, { name: "assign-me.wav", content: wav });
    const res = await h.call("POST", "/api/createtask", w.adminToken, {
      ...FORGED,
      audio_id: _id,
      assigned_to: owner.id,
      translation_status: "Completed",
      recording_status: "Completed",
    });
    expect(res.statusCode, res.body).toBe(200);
    const task = await h.deps.db.selectFrom("tasks").selectAll().where("audioId", "=", _id).executeTakeFirstOrThrow();
    expect([FORGED._id, FORGED.id]).not.toContain(task.id);
    expect(task).toMatchObject({
      assignedTo: owner.id,
      translationStatus: "In Progress",
      recordingStatus: "In Progress",
      isComplete: false,
    });
  });

  it("PUT /api/tasks/{id} with is_complete: true recomputes completion from the approvals", async () => {
    const res = await h.call("PUT", `/api/tasks/${w.owned.taskId}`, w.adminToken, {
      ...FORGED,
      translation_status: "Completed",
      recording_status: "Completed",
    });
    expect(res.statusCode, res.body).toBe(200);
    // Neither output is approved, so the task is not complete whatever the body said.
    expect(res.json()).toMatchObject({ task: { is_complete: false } });
    const task = await h.deps.db
      .selectFrom("tasks")
      .selectAll()
      .where("id", "=", w.owned.taskId)
      .executeTakeFirstOrThrow();
    expect(task.isComplete).toBe(false);
    expect(task.assignedTo).toBe(owner.id);
  });

  it("an AUDIO upload with an id, a storage key, a MIME type and an uploader keeps the server's", async () => {
    const res = await h.upload("AUDIO", w.adminToken, [
      ["category", "Control"],
      ["_id", FORGED._id],
      ["id", FORGED.id],
      ["fileKey", "../../outside.wav"],
      ["mimeType", "text/html"],
      ["uploadedBy", other.id],
      ["sizeBytes", "1"],
      ["file", { name: "keyed.wav", content: wav }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ _id: string }>()._id;
    expect([FORGED._id, FORGED.id]).not.toContain(id);
    const row = await h.deps.db.selectFrom("audios").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ mimeType: "audio/wav", uploadedBy: admin.id, sizeBytes: expect.anything() });
    expect(Number(row.sizeBytes)).toBe(wav.length);
    expect(row.fileKey).toMatch(/^audios\/[0-9a-f-]{36}\.wav$/);
  });

  it("a review with extra status fields changes only the reviewed output", async () => {
    const res = await h.call("PUT", `/api/updatesubmissions/${w.owned.submissionId}/${other.id}`, w.adminToken, {
      translation_script_approval_status: "Rejected",
      approval_status: "Approved",
      is_complete: true,
      recordedAudioApprovalStatus: "Approved",
    });
    expect(res.statusCode, res.body).toBe(200);
    const submission = await submissionOfTask(w.owned.taskId);
    expect(submission).toMatchObject({
      translationScriptApprovalStatus: "Rejected",
      recordedAudioApprovalStatus: "Pending",
    });
    expect(submission.approvalStatus).not.toBe("Approved");
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select("actorId")
      .where("action", "=", "reject")
      .where("entityId", "=", w.owned.submissionId)
      .execute();
    // The acting reviewer is the caller, not the {userId} of the path.
    expect(audit).toEqual([{ actorId: admin.id }]);
  });
});
