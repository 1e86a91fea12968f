import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type TestHarness } from "../src/testing/harness";
import type { SessionUser } from "../src/context";
import { uploadRecording } from "../src/uploads/store-upload";
import {
  assignedAudio,
  harnessWithUsers,
  inactiveUser,
  newAudio,
  recommend,
  snapshot,
  tempWav,
  workState,
} from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const inactive = await inactiveUser(h, "Staff");

describe("tasks.assign (SPEC §2.17)", () => {
  it("creates an In Progress, incomplete task for the staff member with an audit entry", async () => {
    const audio = await newAudio(h, admin);
    const task = await h.caller(admin).tasks.assign({ audioId: audio.id, staffId: staff.id });
    expect(task).toMatchObject({ audioId: audio.id, assignedTo: staff.id });
    const { task: row, submission } = await workState(h, audio.id);
    expect(row).toMatchObject({
      id: task.id,
      translationStatus: "In Progress",
      recordingStatus: "In Progress",
      isComplete: false,
    });
    expect(submission).toBeUndefined();
    const audit = await h.deps.db.selectFrom("auditLog").selectAll().where("entityId", "=", task.id).execute();
    expect(audit).toEqual([expect.objectContaining({ action: "assign", entity: "task", actorId: admin.id })]);
  });

  it("refuses a missing, unknown, inactive or admin staff member, an assigned audio and an unknown audio, changing nothing", async () => {
    const audio = await newAudio(h, admin);
    const assigned = await assignedAudio(h, admin, staff);
    const before = await snapshot(h);
    const caller = h.caller(admin);
    await expect(caller.tasks.assign({ audioId: audio.id, staffId: "" })).rejects.toThrow(
      "Please select a staff member.",
    );
    for (const staffId of [crypto.randomUUID(), inactive.id, admin.id]) {
      await expect(caller.tasks.assign({ audioId: audio.id, staffId })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "Please select a staff member.",
      });
    }
    await expect(caller.tasks.assign({ audioId: assigned.id, staffId: other.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This audio is already assigned.",
    });
    await expect(caller.tasks.assign({ audioId: crypto.randomUUID(), staffId: staff.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Audio not found.",
    });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("tasks.bulkAssign (SPEC §2.17)", () => {
  it("assigns each row on its own and reports per row", async () => {
    const a = await newAudio(h, admin);
    const b = await newAudio(h, admin);
    const taken = await assignedAudio(h, admin, staff);
    const out = await h.caller(admin).tasks.bulkAssign({
      assignments: [
        { audioId: a.id, staffId: staff.id },
        { audioId: taken.id, staffId: other.id },
        { audioId: b.id, staffId: "" },
        { audioId: b.id, staffId: other.id },
      ],
    });
    expect(out.results).toEqual([
      { audioId: a.id, ok: true, message: null },
      { audioId: taken.id, ok: false, message: "This audio is already assigned." },
      { audioId: b.id, ok: false, message: "Please select a staff member." },
      { audioId: b.id, ok: true, message: null },
    ]);
    expect((await workState(h, a.id)).task.assignedTo).toBe(staff.id);
    expect((await workState(h, b.id)).task.assignedTo).toBe(other.id);
    expect((await workState(h, taken.id)).task.assignedTo).toBe(staff.id);
  });

  it("refuses an empty list or one without a valid row, changing nothing", async () => {
    const audio = await newAudio(h, admin);
    const before = await snapshot(h);
    const message = "No valid assignments to process.";
    await expect(h.caller(admin).tasks.bulkAssign({ assignments: [] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message,
    });
    await expect(
      h.caller(admin).tasks.bulkAssign({
        assignments: [
          { audioId: audio.id, staffId: "" },
          { audioId: "", staffId: staff.id },
        ],
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("tasks.reassign (SPEC §2.18)", () => {
  it("moves the task to another staff member and keeps its submission", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "draft" });
    const out = await h.caller(admin).tasks.reassign({ audioId: audio.id, staffId: other.id });
    expect(out).toMatchObject({ audioId: audio.id, assignedTo: other.id });
    const { task, submission } = await workState(h, audio.id);
    expect(task.assignedTo).toBe(other.id);
    expect(submission?.translationScriptApprovalStatus).toBe("Pending");
    await expect(h.caller(staff).audios.get({ audioId: audio.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(other).transcripts.get({ audioId: audio.id })).resolves.toMatchObject({ text: "draft" });
  });

  it("refuses an unassigned audio, the same assignee, a non-staff or missing staff member, changing nothing", async () => {
    const free = await newAudio(h, admin);
    const audio = await assignedAudio(h, admin, staff);
    const before = await snapshot(h);
    const caller = h.caller(admin);
    await expect(caller.tasks.reassign({ audioId: free.id, staffId: other.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is not assigned yet.",
    });
    await expect(caller.tasks.reassign({ audioId: audio.id, staffId: staff.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is already assigned to this staff member.",
    });
    await expect(caller.tasks.reassign({ audioId: audio.id, staffId: "" })).rejects.toThrow(
      "Please select a staff member to reassign.",
    );
    for (const staffId of [inactive.id, admin.id, crypto.randomUUID()]) {
      await expect(caller.tasks.reassign({ audioId: audio.id, staffId })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "Please select a staff member to reassign.",
      });
    }
    await expect(caller.tasks.reassign({ audioId: crypto.randomUUID(), staffId: other.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("tasks.list (SPEC §2.8)", () => {
  let lh: TestHarness;
  let ladmin: SessionUser;
  let alice: SessionUser;
  let bob: SessionUser;
  const aliceAudios: Array<{ id: string; filename: string }> = [];
  let bobAudio: { id: string; filename: string };

  beforeAll(async () => {
    lh = await createHarness();
    ladmin = await lh.createUser("Admin");
    alice = await lh.createUser("Staff");
    bob = await lh.createUser("Staff");
    for (let i = 0; i < 11; i += 1)
      aliceAudios.push(await assignedAudio(lh, ladmin, alice, { category: i % 2 ? "Dementia" : "Control" }));
    bobAudio = await assignedAudio(lh, ladmin, bob);
    await lh.caller(bob).transcripts.save({ audioId: bobAudio.id, text: "bob's words" });
    await uploadRecording(lh.deps, bob, { audioId: bobAudio.id, recordedBy: alice.id, file: await tempWav(lh) });
    await lh.caller(ladmin).transcripts.approve({ audioId: bobAudio.id });
    await lh.deps.db.updateTable("audios").set({ durationSeconds: 3723.4 }).where("id", "=", bobAudio.id).execute();
  });
  afterAll(() => lh.close());

  it("shows admins every task, newest first, 10 per page by default", async () => {
    const page1 = await lh.caller(ladmin).tasks.list({});
    expect(page1.totalPages).toBe(2);
    expect(page1.items).toHaveLength(10);
    expect(page1.items[0]).toMatchObject({
      audioId: bobAudio.id,
      filename: bobAudio.filename,
      category: "Control",
      durationSeconds: 3723.4,
      assignedTo: { id: bob.id, username: bob.username },
      translationStatus: "Completed",
      recordingStatus: "In Progress",
      isComplete: false,
      transcriptStatus: "Approved",
      recordingApprovalStatus: "Pending",
    });
    const page2 = await lh.caller(ladmin).tasks.list({ page: 2 });
    expect(page2.items.map((t) => t.audioId)).toEqual([aliceAudios[1]!.id, aliceAudios[0]!.id]);
    expect(page2.items[1]).toMatchObject({
      category: "Control",
      durationSeconds: null,
      transcriptStatus: "No transcript",
      recordingApprovalStatus: "No translation audio",
      translationStatus: "In Progress",
      recordingStatus: "In Progress",
      isComplete: false,
    });
    expect(page2.items[0]?.category).toBe("Dementia");
  });

  it("shows staff only their own tasks", async () => {
    const bobs = await lh.caller(bob).tasks.list({});
    expect(bobs).toEqual({ totalPages: 1, items: [expect.objectContaining({ audioId: bobAudio.id })] });
    const alices = await lh.caller(alice).tasks.list({ page: 1, limit: 5 });
    expect(alices.totalPages).toBe(3);
    expect(alices.items.map((t) => t.audioId)).toEqual(
      aliceAudios
        .slice(6)
        .reverse()
        .map((a) => a.id),
    );
    const all = await lh.caller(alice).tasks.list({ limit: 100 });
    expect(all.items.every((t) => t.assignedTo?.id === alice.id)).toBe(true);
    expect(all.items).toHaveLength(11);
  });

  it("answers a staff member without tasks with an empty list", async () => {
    const carol = await lh.createUser("Staff");
    await expect(lh.caller(carol).tasks.list({})).resolves.toEqual({ items: [], totalPages: 0 });
  });

  it("lets admins list any one user's tasks with assignedTo, paginated", async () => {
    const alices = await lh.caller(ladmin).tasks.list({ assignedTo: alice.id, limit: 5, page: 3 });
    expect(alices).toEqual({
      totalPages: 3,
      items: [
        expect.objectContaining({
          audioId: aliceAudios[0]!.id,
          assignedTo: { id: alice.id, username: alice.username },
        }),
      ],
    });
    const bobs = await lh.caller(ladmin).tasks.list({ assignedTo: bob.id });
    expect(bobs.items.map((t) => t.audioId)).toEqual([bobAudio.id]);
    expect(bobs.items[0]).toMatchObject({ transcriptStatus: "Approved", recordingApprovalStatus: "Pending" });
    await expect(lh.caller(ladmin).tasks.list({ assignedTo: crypto.randomUUID() })).resolves.toEqual({
      items: [],
      totalPages: 0,
    });
    await expect(lh.caller(ladmin).tasks.list({ assignedTo: ladmin.id })).resolves.toEqual({
      items: [],
      totalPages: 0,
    });
  });

  it("lets staff name only themselves in assignedTo", async () => {
    const own = await lh.caller(alice).tasks.list({ assignedTo: alice.id, limit: 100 });
    expect(own.items).toHaveLength(11);
    expect(own.items.every((t) => t.assignedTo?.id === alice.id)).toBe(true);
    for (const assignedTo of [bob.id, ladmin.id, crypto.randomUUID()]) {
      await expect(lh.caller(alice).tasks.list({ assignedTo })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "You may only list your own tasks.",
      });
    }
    await expect(lh.caller(null).tasks.list({ assignedTo: alice.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(lh.caller(ladmin).tasks.list({ assignedTo: "not-an-id" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(lh.caller(ladmin).tasks.list({ assignedTo: "not-an-id" })).rejects.toThrow("Unknown id.");
  });
});

describe("tasks.get (SPEC §3 Task)", () => {
  it("answers the task with its audio, assignee, statuses and submission", async () => {
    const audio = await assignedAudio(h, admin, staff, { category: "Dementia" });
    const { task } = await workState(h, audio.id);
    const fresh = await h.caller(admin).tasks.get({ taskId: task.id });
    expect(fresh).toEqual({
      id: task.id,
      audioId: audio.id,
      filename: audio.filename,
      category: "Dementia",
      durationSeconds: null,
      assignedTo: { id: staff.id, username: staff.username },
      translationStatus: "In Progress",
      recordingStatus: "In Progress",
      isComplete: false,
      transcriptStatus: "No transcript",
      recordingApprovalStatus: "No translation audio",
      submissionId: null,
    });

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "words" });
    // The waveform job decodes the file later: its duration (seconds) shows from then on.
    await h.deps.db.updateTable("audios").set({ durationSeconds: 245.3 }).where("id", "=", audio.id).execute();
    const { submission } = await workState(h, audio.id);
    const saved = await h.caller(staff).tasks.get({ taskId: task.id });
    expect(saved).toMatchObject({
      durationSeconds: 245.3,
      submissionId: submission!.id,
      transcriptStatus: "Pending",
      recordingApprovalStatus: "No translation audio",
    });
  });

  it("lets admins, the assignee and a staff member it was recommended to read it; refuses others", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const { task } = await workState(h, audio.id);
    const before = await snapshot(h);
    await expect(h.caller(other).tasks.get({ taskId: task.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You do not have access to this audio.",
    });
    await expect(h.caller(null).tasks.get({ taskId: task.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await snapshot(h)).toEqual(before);

    await recommend(h, audio.id, other, admin);
    await expect(h.caller(other).tasks.get({ taskId: task.id })).resolves.toMatchObject({
      id: task.id,
      assignedTo: { id: staff.id },
    });
    await expect(h.caller(staff).tasks.get({ taskId: task.id })).resolves.toMatchObject({ id: task.id });
  });

  it("answers an unknown or malformed task id with 'Task not found.'", async () => {
    for (const taskId of [crypto.randomUUID(), "not-an-id", ""]) {
      await expect(h.caller(admin).tasks.get({ taskId })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "Task not found.",
      });
      await expect(h.caller(staff).tasks.get({ taskId })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "Task not found.",
      });
    }
  });
});
