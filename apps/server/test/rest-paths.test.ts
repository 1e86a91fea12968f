import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@tafsiri/api";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { appWithUsers, assignOverRest, failed, fixture, listFiles, uploadAudio } from "./fixtures/app-harness";

const { h, admin, staffA, staffB, adminToken, tokenA, tokenB } = await appWithUsers();
const wav = await fixture("hello.wav");
afterAll(() => h.close());

/** Uploads an audio through the REST path; returns its id. */
async function newAudio(filename: string, category: "Control" | "Dementia" = "Control"): Promise<string> {
  return (await uploadAudio(h, adminToken, { name: `${filename}.wav`, content: wav }, category))._id;
}

/**
 * Sets an audio's duration as the waveform job would (seconds), or marks it undecodable (null:
 * status 'failed', so no job picks it up meanwhile).
 */
async function setDuration(audioId: string, seconds: number | null): Promise<void> {
  await h.deps.db
    .updateTable("audios")
    .set({ durationSeconds: seconds, waveformStatus: seconds === null ? "failed" : "ready" })
    .where("id", "=", audioId)
    .execute();
}

/** Assigns through POST /api/createtask; returns the task id. */
const assign = (audioId: string, staff: SessionUser) => assignOverRest(h, adminToken, audioId, staff);

describe("/auth paths", () => {
  it("POST /auth/login answers a token and the user with _id, or 'failed' with the message", async () => {
    const ok = await h.call("POST", "/auth/login", null, { email: staffA.email, password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    const body = ok.json<{ token: string; user: { _id: string; role: string; token: string } }>();
    expect(body).toMatchObject({
      status: "success",
      user: { _id: staffA.id, username: staffA.username, role: "Staff" },
    });
    expect(body.user.token).toBe(body.token);
    const tasks = await h.call("GET", "/api/tasks", body.token);
    expect(tasks.statusCode).toBe(200);

    const wrong = await h.call("POST", "/auth/login", null, { email: staffA.email, password: "Wrong-pass1!" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(failed("Invalid email or password."));
    const empty = await h.call("POST", "/auth/login", null, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual(failed("Email is required"));
  });

  it("POST /auth/register lets an admin create an account, confirmed with the admin's password", async () => {
    const body = {
      username: "rest-new",
      email: "rest-new@example.test",
      password: "Str0ng!pass",
      role: "Staff",
      adminpassword: TEST_PASSWORD,
      adminEmail: admin.email,
    };
    const byStaff = await h.call("POST", "/auth/register", tokenA, body);
    expect(byStaff.statusCode).toBe(403);
    const wrongPassword = await h.call("POST", "/auth/register", adminToken, { ...body, adminpassword: "nope" });
    expect(wrongPassword.json()).toEqual(failed("Admin password is incorrect."));
    const ok = await h.call("POST", "/auth/register", adminToken, body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: "success",
      message: "Account for rest-new has been created successfully",
      user: { username: "rest-new" },
    });
    const login = await h.call("POST", "/auth/login", null, { email: body.email, password: body.password });
    expect(login.statusCode).toBe(200);
  });

  it("GET /auth/staff lists active staff as { _id, username } for signed-in users", async () => {
    const res = await h.call("GET", "/auth/staff", tokenA);
    expect(res.statusCode).toBe(200);
    const staff = res.json<Array<{ _id: string; username: string }>>();
    expect(staff).toEqual(
      expect.arrayContaining([
        { _id: staffA.id, username: staffA.username },
        { _id: staffB.id, username: staffB.username },
      ]),
    );
    expect(staff.some((s) => s._id === admin.id)).toBe(false);
    expect((await h.call("GET", "/auth/staff", null)).statusCode).toBe(401);
  });
});

describe("task paths", () => {
  let audioA: string;
  let taskA: string;
  let taskB: string;

  beforeAll(async () => {
    audioA = await newAudio("tasks-a", "Control");
    taskA = await assign(audioA, staffA);
    taskB = await assign(await newAudio("tasks-b", "Dementia"), staffB);
  });

  it("POST /api/createtask asks for a staff member and refuses staff callers and a second assignment", async () => {
    const audio = await newAudio("assign-checks");
    const missing = await h.call("POST", "/api/createtask", adminToken, { audio_id: audio });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(failed("Please select a staff member."));
    const byStaff = await h.call("POST", "/api/createtask", tokenA, { audio_id: audio, assigned_to: staffA.id });
    expect(byStaff.statusCode).toBe(403);
    const ok = await h.call("POST", "/api/createtask", adminToken, { audio_id: audio, assigned_to: staffA.id });
    expect(ok.json()).toMatchObject({
      status: "success",
      message: "Audio assigned successfully!",
      task: { audio_id: audio, assigned_to: staffA.id },
    });
    const again = await h.call("POST", "/api/createtask", adminToken, { audio_id: audio, assigned_to: staffB.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: "failed", success: false });
  });

  it("GET /api/tasks/{id} answers the task to admins and its assignee only", async () => {
    await setDuration(audioA, null);
    const byAdmin = await h.call("GET", `/api/tasks/${taskA}`, adminToken);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json()).toEqual({
      _id: taskA,
      audio_id: { _id: audioA, filename: "tasks-a", category: "Control", duration_seconds: null },
      assigned_to: { _id: staffA.id, username: staffA.username },
      translation_status: "In Progress",
      recording_status: "In Progress",
      is_complete: false,
      submission: {
        _id: null,
        translation_script_approval_status: "No transcript",
        recorded_audio_approval_status: "No translation audio",
      },
    });
    await setDuration(audioA, 3723.4);
    const byAssignee = await h.call("GET", `/api/tasks/${taskA}`, tokenA);
    expect(byAssignee.statusCode).toBe(200);
    expect(byAssignee.json().audio_id).toEqual({
      _id: audioA,
      filename: "tasks-a",
      category: "Control",
      duration_seconds: 3723.4,
    });

    const other = await h.call("GET", `/api/tasks/${taskA}`, tokenB);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(failed("You do not have access to this audio."));
    expect((await h.call("GET", `/api/tasks/${taskA}`, null)).statusCode).toBe(401);
    expect((await h.call("GET", `/api/tasks/${randomUUID()}`, adminToken)).json()).toEqual(failed("Task not found."));
    expect((await h.call("GET", "/api/tasks/not-an-id", adminToken)).statusCode).toBe(404);
  });

  it("GET /api/tasks/{id} embeds the submission's id and approval statuses once there is one", async () => {
    const audio = await newAudio("task-with-submission");
    const task = await assign(audio, staffA);
    await h.caller(staffA).transcripts.save({ audioId: audio, text: "translated words" });
    const submission = await h.deps.db
      .selectFrom("submissions")
      .select("id")
      .where("taskId", "=", task)
      .executeTakeFirstOrThrow();
    const res = await h.call("GET", `/api/tasks/${task}`, tokenA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      _id: task,
      translation_status: "In Progress",
      submission: {
        _id: submission.id,
        translation_script_approval_status: "Pending",
        recorded_audio_approval_status: "No translation audio",
      },
    });
  });

  it("GET /api/tasks/user/{id}?page&limit answers one user's tasks; staff may ask only for their own", async () => {
    const byAdmin = await h.call("GET", `/api/tasks/user/${staffB.id}?page=1&limit=10`, adminToken);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    const body = byAdmin.json<{
      tasks: Array<{ _id: string; assigned_to: { _id: string } }>;
      pagination: { totalPages: number };
    }>();
    expect(body.tasks.map((t) => t._id)).toContain(taskB);
    expect(body.tasks.every((t) => t.assigned_to._id === staffB.id)).toBe(true);
    expect(body.pagination.totalPages).toBe(1);
    expect(body.tasks.find((t) => t._id === taskB)).toMatchObject({
      audio_id: { filename: "tasks-b", category: "Dementia" },
      assigned_to: { _id: staffB.id, username: staffB.username },
      submission: {
        translation_script_approval_status: "No transcript",
        recorded_audio_approval_status: "No translation audio",
      },
    });

    const own = await h.call("GET", `/api/tasks/user/${staffA.id}?limit=1`, tokenA);
    expect(own.statusCode).toBe(200);
    const ownBody = own.json<{ tasks: Array<{ assigned_to: { _id: string } }>; pagination: { totalPages: number } }>();
    expect(ownBody.tasks).toHaveLength(1);
    expect(ownBody.tasks[0]?.assigned_to._id).toBe(staffA.id);
    expect(ownBody.pagination.totalPages).toBeGreaterThanOrEqual(2);

    const another = await h.call("GET", `/api/tasks/user/${staffB.id}`, tokenA);
    expect(another.statusCode).toBe(403);
    expect(another.json()).toEqual(failed("You may only list your own tasks."));
    expect((await h.call("GET", `/api/tasks/user/${staffA.id}`, null)).statusCode).toBe(401);
    const malformed = await h.call("GET", "/api/tasks/user/not-an-id", adminToken);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
    expect((await h.call("GET", `/api/tasks/user/${staffA.id}?limit=-1`, adminToken)).statusCode).toBe(400);
  });

  it("GET /api/tasks?page&limit answers { tasks, pagination } with all tasks for admins and own tasks for staff", async () => {
    const all = await h.call("GET", "/api/tasks?page=1&limit=100", adminToken);
    expect(all.statusCode).toBe(200);
    const body = all.json<{
      tasks: Array<{ _id: string; assigned_to: { _id: string } }>;
      pagination: { totalPages: number };
    }>();
    expect(body.tasks.map((t) => t._id)).toEqual(expect.arrayContaining([taskA, taskB]));
    expect(body.pagination.totalPages).toBe(1);
    expect(body.tasks.find((t) => t._id === taskA)).toMatchObject({
      audio_id: { _id: audioA, filename: "tasks-a", category: "Control" },
      assigned_to: { _id: staffA.id, username: staffA.username },
      is_complete: false,
      submission: {
        translation_script_approval_status: "No transcript",
        recorded_audio_approval_status: "No translation audio",
      },
    });

    const own = await h.call("GET", "/api/tasks", tokenB);
    const ownTasks = own.json<{ tasks: Array<{ _id: string; assigned_to: { _id: string } }> }>().tasks;
    expect(ownTasks.map((t) => t._id)).toEqual([taskB]);

    const paged = await h.call("GET", "/api/tasks?page=1&limit=1", adminToken);
    expect(paged.json<{ tasks: unknown[]; pagination: { totalPages: number } }>()).toMatchObject({
      tasks: [expect.anything()],
    });
    expect(paged.json<{ pagination: { totalPages: number } }>().pagination.totalPages).toBeGreaterThanOrEqual(2);

    const bad = await h.call("GET", "/api/tasks?page=zero", adminToken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(failed("page must be a positive whole number."));
    expect((await h.call("GET", "/api/tasks", null)).statusCode).toBe(401);
  });

  it("PUT /api/reassignAudio moves the task, asking for a staff member", async () => {
    const audio = await newAudio("reassign-me");
    const task = await assign(audio, staffA);
    const missing = await h.call("PUT", "/api/reassignAudio", adminToken, { audioId: audio });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(failed("Please select a staff member to reassign."));
    expect(
      (await h.call("PUT", "/api/reassignAudio", tokenA, { audioId: audio, newAssignedTo: staffB.id })).statusCode,
    ).toBe(403);

    const ok = await h.call("PUT", "/api/reassignAudio", adminToken, { audioId: audio, newAssignedTo: staffB.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      status: "success",
      message: "Audio reassigned successfully!",
      task: { _id: task, assigned_to: staffB.id },
    });
    expect((await h.call("GET", `/api/tasks/${task}`, tokenA)).statusCode).toBe(403);
    expect((await h.call("GET", `/api/tasks/${task}`, tokenB)).statusCode).toBe(200);
  });
});

describe("audio paths", () => {
  let control: string;
  let dementia: string;
  let unassignedControl: string;

  beforeAll(async () => {
    control = await newAudio("list-control", "Control");
    dementia = await newAudio("list-dementia", "Dementia");
    unassignedControl = await newAudio("list-unassigned", "Control");
    await assign(control, staffA);
    await assign(dementia, staffA);
    await setDuration(control, 245.3);
    await setDuration(unassignedControl, null);
  });

  it("GET /api/audios/control|dementia list a category's audios with their task (admins only)", async () => {
    const res = await h.call("GET", "/api/audios/control?limit=100", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["x-total-pages"]).toBe("1");
    const rows = res.json<Array<{ _id: string; category: string }>>();
    expect(rows.every((r) => r.category === "Control")).toBe(true);
    expect(rows.find((r) => r._id === control)).toMatchObject({
      filename: "list-control",
      assigned_to: { _id: staffA.id, username: staffA.username },
      translation_status: "In Progress",
      is_complete: false,
      hasTranscript: false,
      duration_seconds: 245.3,
    });
    expect(rows.find((r) => r._id === unassignedControl)).toMatchObject({
      assigned_to: null,
      translation_status: null,
      duration_seconds: null,
    });

    const dementiaRows = (await h.call("GET", "/api/audios/dementia", adminToken)).json<
      Array<{ _id: string; category: string }>
    >();
    expect(dementiaRows.map((r) => r._id)).toContain(dementia);
    expect(dementiaRows.every((r) => r.category === "Dementia")).toBe(true);
    expect((await h.call("GET", "/api/audios/control", tokenA)).statusCode).toBe(403);
  });

  it("GET /api/audios/controlwithouttasks|dementiawithouttasks list audios without a task", async () => {
    const res = await h.call("GET", "/api/audios/controlwithouttasks", adminToken);
    expect(res.statusCode).toBe(200);
    const rows = res.json<Array<{ _id: string }>>();
    expect(rows).toContainEqual({
      _id: unassignedControl,
      filename: "list-unassigned",
      category: "Control",
      duration_seconds: null,
    });
    await setDuration(unassignedControl, 3723.4);
    const known = (await h.call("GET", "/api/audios/controlwithouttasks", adminToken)).json<Array<{ _id: string }>>();
    expect(known.find((r) => r._id === unassignedControl)).toMatchObject({ duration_seconds: 3723.4 });
    await setDuration(unassignedControl, null);
    expect(rows.map((r) => r._id)).not.toContain(control);
    const dementiaRows = (await h.call("GET", "/api/audios/dementiawithouttasks", adminToken)).json<
      Array<{ _id: string }>
    >();
    expect(dementiaRows.map((r) => r._id)).not.toContain(dementia);
    expect((await h.call("GET", "/api/audios/dementiawithouttasks", tokenB)).statusCode).toBe(403);
  });

  it("GET /api/audios/{id} and PUT /api/updateaudios/{audio}/{user} record and show who opened it last", async () => {
    const before = (await h.call("GET", `/api/audios/${control}`, adminToken)).json();
    expect(before).toMatchObject({
      _id: control,
      filename: "list-control",
      category: "Control",
      duration_seconds: 245.3,
      transcript: null,
      lastOpenedBy: null,
      lastOpenedByUsername: null,
      timeLastOpened: null,
    });
    await setDuration(unassignedControl, null);
    expect((await h.call("GET", `/api/audios/${unassignedControl}`, adminToken)).json()).toMatchObject({
      duration_seconds: null,
    });
    expect(before.audioUrl).toMatch(/^\/files\/audios\//);
    expect(before.task).toMatchObject({ audio_id: control, assigned_to: { _id: staffA.id } });

    const opened = await h.call("PUT", `/api/updateaudios/${control}/${admin.id}`, adminToken, {
      lastOpenedBy: admin.id,
      timeLastOpened: new Date().toISOString(),
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ status: "success", success: true });
    const after = (await h.call("GET", `/api/audios/${control}`, adminToken)).json();
    expect(after.lastOpenedBy).toBe(admin.id);
    expect(after.lastOpenedByUsername).toBe(admin.username);
    expect(Date.parse(after.timeLastOpened)).toBeGreaterThan(Date.now() - 60_000);

    // Staff may open their own audio (nothing recorded) but not another's.
    expect((await h.call("PUT", `/api/updateaudios/${control}/${staffA.id}`, tokenA)).statusCode).toBe(200);
    expect((await h.call("GET", `/api/audios/${control}`, tokenA)).json().lastOpenedBy).toBeNull();
    expect((await h.call("PUT", `/api/updateaudios/${control}/${staffB.id}`, tokenB)).statusCode).toBe(403);
    expect((await h.call("GET", `/api/audios/${control}`, tokenB)).statusCode).toBe(403);
    expect((await h.call("GET", `/api/audios/${randomUUID()}`, adminToken)).json()).toEqual(failed("Audio not found."));
  });

  it("DELETE /api/audios/delete/{id} removes the audio, its task and its files (admins only)", async () => {
    const audio = await newAudio("delete-me");
    const task = await assign(audio, staffB);
    const filesBefore = await listFiles(h.filesDir);
    expect((await h.call("DELETE", `/api/audios/delete/${audio}`, tokenB)).statusCode).toBe(403);

    const res = await h.call("DELETE", `/api/audios/delete/${audio}`, adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: "Audio deleted successfully." });
    expect((await h.call("GET", `/api/audios/${audio}`, adminToken)).statusCode).toBe(404);
    expect((await h.call("GET", `/api/tasks/${task}`, adminToken)).statusCode).toBe(404);
    const filesAfter = await listFiles(h.filesDir);
    expect(filesAfter.length).toBe(filesBefore.length - 1);
    expect((await h.call("DELETE", `/api/audios/delete/${audio}`, adminToken)).statusCode).toBe(404);
  });
});
