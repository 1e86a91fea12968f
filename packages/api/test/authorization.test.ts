import { afterAll, describe, expect, it } from "vitest";
import type { TestHarness } from "../src/testing/harness";
import { uploadRecording } from "../src/uploads/store-upload";
import { assignedAudio, harnessWithUsers, newAudio, snapshot, tempWav, workState } from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const audio = await assignedAudio(h, admin, staff);
const free = await newAudio(h, admin);
const taskId = (await workState(h, audio.id)).task.id;
await h.caller(staff).transcripts.save({ audioId: audio.id, text: "words" });
await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });

type Caller = ReturnType<TestHarness["caller"]>;

/** Every admin-only procedure, called with valid input. */
const adminOnly: Record<string, (c: Caller) => Promise<unknown>> = {
  "audios.list": (c) => c.audios.list({ category: "Control" }),
  "audios.unassigned": (c) => c.audios.unassigned({ category: "Control" }),
  "audios.delete": (c) => c.audios.delete({ audioId: audio.id }),
  "tasks.assign": (c) => c.tasks.assign({ audioId: free.id, staffId: other.id }),
  "tasks.bulkAssign": (c) => c.tasks.bulkAssign({ assignments: [{ audioId: free.id, staffId: other.id }] }),
  "tasks.reassign": (c) => c.tasks.reassign({ audioId: audio.id, staffId: other.id }),
  "tasks.setStatus": (c) => c.tasks.setStatus({ taskId, translationStatus: "Completed" }),
  "transcripts.approve": (c) => c.transcripts.approve({ audioId: audio.id }),
  "transcripts.reject": (c) => c.transcripts.reject({ audioId: audio.id }),
  "transcripts.remove": (c) => c.transcripts.remove({ audioId: audio.id }),
  "recordings.approve": (c) => c.recordings.approve({ audioId: audio.id }),
  "recordings.reject": (c) => c.recordings.reject({ audioId: audio.id }),
  "recordings.remove": (c) => c.recordings.remove({ audioId: audio.id }),
};

/** Every procedure any signed-in user may call, on the assigned audio. */
const signedIn: Record<string, (c: Caller) => Promise<unknown>> = {
  "audios.get": (c) => c.audios.get({ audioId: audio.id }),
  "audios.markOpened": (c) => c.audios.markOpened({ audioId: audio.id }),
  "tasks.list": (c) => c.tasks.list({}),
  "tasks.get": (c) => c.tasks.get({ taskId }),
  "transcripts.get": (c) => c.transcripts.get({ audioId: audio.id }),
  "transcripts.save": (c) => c.transcripts.save({ audioId: audio.id, text: "intruder" }),
  "recordings.get": (c) => c.recordings.get({ audioId: audio.id }),
};

describe("authorization (SPEC §6)", () => {
  it("refuses every admin-only procedure to staff (FORBIDDEN) and to no user (UNAUTHORIZED), changing nothing", async () => {
    const before = await snapshot(h);
    for (const [name, call] of Object.entries(adminOnly)) {
      await expect(call(h.caller(staff)), name).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(call(h.caller(null)), name).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
    expect(await snapshot(h)).toEqual(before);
  });

  it("refuses every signed-in procedure to no user (UNAUTHORIZED)", async () => {
    const before = await snapshot(h);
    for (const [name, call] of Object.entries(signedIn)) {
      await expect(call(h.caller(null)), name).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
    expect(await snapshot(h)).toEqual(before);
  });

  it("refuses another staff member's audio, transcript and recording (FORBIDDEN), changing nothing", async () => {
    const before = await snapshot(h);
    for (const [name, call] of Object.entries(signedIn)) {
      if (name === "tasks.list") continue;
      await expect(call(h.caller(other)), name).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "You do not have access to this audio.",
      });
    }
    await expect(
      uploadRecording(h.deps, other, { audioId: audio.id, recordedBy: other.id, file: await tempWav(h) }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const list = await h.caller(other).tasks.list({});
    expect(list).toEqual({ items: [], totalPages: 0 });
    await expect(h.caller(other).tasks.list({ assignedTo: staff.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You may only list your own tasks.",
    });
    expect(await snapshot(h)).toEqual(before);
  });

  it("lets the assignee use every signed-in procedure on their own audio", async () => {
    for (const [name, call] of Object.entries(signedIn)) {
      await expect(call(h.caller(staff)), name).resolves.toBeDefined();
    }
  });
});
