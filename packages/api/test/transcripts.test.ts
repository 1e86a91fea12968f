import { afterAll, describe, expect, it } from "vitest";
import { uploadRecording } from "../src/uploads/store-upload";
import { transcriptFileName } from "../src/services/transcripts";
import {
  assignedAudio,
  harnessWithUsers,
  inactiveUser,
  newAudio,
  notificationsFor,
  recommend,
  snapshot,
  tempWav,
  workState,
} from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const admin2 = await h.createUser("Admin");
const retired = await inactiveUser(h, "Admin");

const FILE_NAME = /^(.+)_TRANSLATEDTRANSCRIPT_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.cha$/;

describe("transcriptFileName (SPEC §3)", () => {
  it("names the file {filename}_TRANSLATEDTRANSCRIPT_{YYYY-MM-DD_HH-mm-ss}.cha in UTC", () => {
    expect(transcriptFileName("interview 7", new Date("2026-03-04T05:06:07.890Z"))).toBe(
      "interview 7_TRANSLATEDTRANSCRIPT_2026-03-04_05-06-07.cha",
    );
  });
});

describe("transcripts.save (SPEC §3, §4)", () => {
  it("creates the submission, writes a new .cha file per save and notifies every active admin", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const first = await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari ya asubuhi" });
    expect(first).toMatchObject({ status: "Pending", message: "Transcript saved and uploaded successfully." });
    expect(first.fileName).toMatch(FILE_NAME);
    expect(first.fileName.startsWith(`${audio.filename}_TRANSLATEDTRANSCRIPT_`)).toBe(true);

    const s1 = await workState(h, audio.id);
    expect(s1.submission).toMatchObject({
      createdBy: staff.id,
      translationScriptApprovalStatus: "Pending",
      recordedAudioApprovalStatus: "No translation audio",
      recordedAudio: null,
    });
    const key1 = s1.submission!.translationScript!;
    expect(key1.startsWith(`transcripts/${audio.id}/`)).toBe(true);
    expect(key1.endsWith(".cha")).toBe(true);
    expect(await h.deps.storage.readText(key1)).toBe("Habari ya asubuhi");
    expect(s1.task).toMatchObject({ translationStatus: "In Progress", isComplete: false });

    const second = await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari ya jioni" });
    const s2 = await workState(h, audio.id);
    const key2 = s2.submission!.translationScript!;
    expect(key2).not.toBe(key1);
    expect(await h.deps.storage.readText(key1)).toBe("Habari ya asubuhi");
    expect(await h.deps.storage.readText(key2)).toBe("Habari ya jioni");
    expect(s2.submission!.id).toBe(s1.submission!.id);
    expect(s2.submission!.submissionDate.getTime()).toBeGreaterThanOrEqual(s1.submission!.submissionDate.getTime());
    const versions = await h.deps.db
      .selectFrom("transcriptVersions")
      .selectAll()
      .where("submissionId", "=", s1.submission!.id)
      .orderBy("createdAt")
      .execute();
    expect(versions.map((v) => [v.fileKey, v.fileName, v.text, v.createdBy])).toEqual([
      [key1, first.fileName, "Habari ya asubuhi", staff.id],
      [key2, second.fileName, "Habari ya jioni", staff.id],
    ]);

    const expected = [
      {
        message: `${staff.username} uploaded a new transcript for ${audio.filename}`,
        link: "/audiomanagement/trascript",
        audioId: audio.id,
        senderId: staff.id,
        isRead: false,
      },
      {
        message: `${staff.username} updated the transcript for ${audio.filename}`,
        link: "/audiomanagement/trascript",
        audioId: audio.id,
        senderId: staff.id,
        isRead: false,
      },
    ];
    expect(await notificationsFor(h, admin, audio.id)).toEqual(expected);
    expect(await notificationsFor(h, admin2, audio.id)).toEqual(expected);
    expect(await notificationsFor(h, retired, audio.id)).toEqual([]);
    expect(await notificationsFor(h, staff, audio.id)).toEqual([]);

    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select(["action", "entity", "actorId"])
      .where("entity", "=", "transcript")
      .where("actorId", "=", staff.id)
      .execute();
    expect(audit).toHaveLength(2);

    const current = await h.caller(admin).transcripts.get({ audioId: audio.id });
    expect(current).toMatchObject({
      status: "Pending",
      text: "Habari ya jioni",
      fileName: second.fileName,
      updatedBy: { id: staff.id, username: staff.username },
    });
    expect(current.url).toMatch(/^\/files\/transcripts\//);
  });

  it("keeps two saves in the same second as two distinct files", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const [a, b] = await Promise.all([
      h.caller(staff).transcripts.save({ audioId: audio.id, text: "one" }),
      h.caller(staff).transcripts.save({ audioId: audio.id, text: "two" }),
    ]);
    const { submission } = await workState(h, audio.id);
    const versions = await h.deps.db
      .selectFrom("transcriptVersions")
      .select(["fileKey", "text"])
      .where("submissionId", "=", submission!.id)
      .execute();
    expect(new Set(versions.map((v) => v.fileKey)).size).toBe(2);
    for (const v of versions) expect(await h.deps.storage.readText(v.fileKey)).toBe(v.text);
    expect([a.fileName, b.fileName].every((n) => FILE_NAME.test(n))).toBe(true);
  });

  it("lets admins and staff the audio is recommended to save too", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await recommend(h, audio.id, other, staff);
    await h.caller(other).transcripts.save({ audioId: audio.id, text: "by the recommended staff" });
    expect((await workState(h, audio.id)).submission?.createdBy).toBe(other.id);
    await h.caller(admin).transcripts.save({ audioId: audio.id, text: "by the admin" });
    await expect(h.caller(staff).transcripts.get({ audioId: audio.id })).resolves.toMatchObject({
      text: "by the admin",
      updatedBy: { id: admin.id },
    });
  });

  it("refuses blank text, unknown and foreign audios and unassigned audios, changing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const free = await newAudio(h, admin);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "kept" });
    const before = await snapshot(h);
    await expect(h.caller(staff).transcripts.save({ audioId: audio.id, text: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Transcript is empty."),
    });
    await expect(h.caller(staff).transcripts.save({ audioId: audio.id, text: " \n\t " })).rejects.toThrow(
      "Transcript is empty.",
    );
    await expect(h.caller(staff).transcripts.save({ audioId: crypto.randomUUID(), text: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Audio not found.",
    });
    await expect(h.caller(other).transcripts.save({ audioId: audio.id, text: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You do not have access to this audio.",
    });
    await expect(h.caller(other).transcripts.get({ audioId: audio.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(admin).transcripts.save({ audioId: free.id, text: "x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is not assigned yet.",
    });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("transcript approval (SPEC §4)", () => {
  it("walks every transition with the task's fields and is_complete", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const caller = h.caller(admin);
    const none = await caller.transcripts.get({ audioId: audio.id });
    expect(none).toEqual({
      status: "No transcript",
      text: null,
      fileName: null,
      url: null,
      updatedAt: null,
      updatedBy: null,
    });
    await expect(caller.transcripts.approve({ audioId: audio.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "No transcript submitted yet.",
    });

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "v1" });
    await expect(caller.transcripts.approve({ audioId: audio.id })).resolves.toEqual({
      status: "Approved",
      message: "Transcript approved successfully.",
    });
    let s = await workState(h, audio.id);
    expect(s.submission).toMatchObject({ translationScriptApprovalStatus: "Approved", approvalStatus: "Pending" });
    expect(s.task).toMatchObject({ translationStatus: "Completed", recordingStatus: "In Progress", isComplete: false });

    const locked = await snapshot(h);
    await expect(h.caller(staff).transcripts.save({ audioId: audio.id, text: "v2" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "The transcript has been approved and can no longer be edited.",
    });
    await expect(caller.transcripts.save({ audioId: audio.id, text: "v2" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await snapshot(h)).toEqual(locked);

    // Rejecting what is Approved names the status the admin saw (left out, it means Pending).
    await expect(caller.transcripts.reject({ audioId: audio.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The transcript is now Approved; refresh and try again.",
    });
    await expect(caller.transcripts.reject({ audioId: audio.id, expectedStatus: "Approved" })).resolves.toEqual({
      status: "Rejected",
      message: "Transcript rejected successfully.",
    });
    s = await workState(h, audio.id);
    expect(s.submission).toMatchObject({ translationScriptApprovalStatus: "Rejected", approvalStatus: "Rejected" });
    expect(s.task).toMatchObject({ translationStatus: "In Progress", isComplete: false });
    expect((await caller.transcripts.get({ audioId: audio.id })).text).toBe("v1");

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "v2" });
    s = await workState(h, audio.id);
    expect(s.submission).toMatchObject({ translationScriptApprovalStatus: "Pending", approvalStatus: "Pending" });
    expect(s.task.translationStatus).toBe("In Progress");

    const keyBeforeRemove = s.submission!.translationScript!;
    await expect(caller.transcripts.remove({ audioId: audio.id })).resolves.toEqual({
      status: "No transcript",
      message: "Transcript deleted successfully.",
    });
    s = await workState(h, audio.id);
    expect(s.submission).toMatchObject({ translationScript: null, translationScriptApprovalStatus: "No transcript" });
    expect(s.task).toMatchObject({ translationStatus: "In Progress", isComplete: false });
    expect(await h.deps.storage.exists(keyBeforeRemove)).toBe(true);
    await expect(caller.transcripts.get({ audioId: audio.id })).resolves.toMatchObject({
      status: "No transcript",
      text: null,
      url: null,
    });
    for (const action of ["approve", "reject", "remove"] as const) {
      await expect(caller.transcripts[action]({ audioId: audio.id })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "No transcript submitted yet.",
      });
    }

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "v3" });
    const messages = (await notificationsFor(h, admin, audio.id)).map((n) => n.message);
    expect(messages).toEqual([
      `${staff.username} uploaded a new transcript for ${audio.filename}`,
      `${admin.username} approved the transcript for ${audio.filename}`,
      `${admin.username} rejected the transcript for ${audio.filename}`,
      `${staff.username} updated the transcript for ${audio.filename}`,
      `${admin.username} deleted the transcript for ${audio.filename}`,
      `${staff.username} uploaded a new transcript for ${audio.filename}`,
    ]);
  });

  it("marks the task complete only while both the transcript and the recording are Approved", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const caller = h.caller(admin);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "words" });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    await caller.recordings.approve({ audioId: audio.id });
    expect((await workState(h, audio.id)).task.isComplete).toBe(false);
    await caller.transcripts.approve({ audioId: audio.id });
    let s = await workState(h, audio.id);
    expect(s.task).toMatchObject({ isComplete: true, translationStatus: "Completed", recordingStatus: "Completed" });
    expect(s.submission?.approvalStatus).toBe("Approved");
    await caller.transcripts.reject({ audioId: audio.id, expectedStatus: "Approved" });
    expect((await workState(h, audio.id)).task).toMatchObject({
      isComplete: false,
      translationStatus: "In Progress",
      recordingStatus: "Completed",
    });
    await caller.transcripts.approve({ audioId: audio.id, expectedStatus: "Rejected" });
    expect((await workState(h, audio.id)).task.isComplete).toBe(true);
    await caller.transcripts.remove({ audioId: audio.id });
    s = await workState(h, audio.id);
    expect(s.task).toMatchObject({ isComplete: false, translationStatus: "In Progress" });
    expect(s.submission?.approvalStatus).toBe("Pending");
  });

  it("refuses reviews of unknown audios and audios without a task", async () => {
    const free = await newAudio(h, admin);
    const before = await snapshot(h);
    await expect(h.caller(admin).transcripts.approve({ audioId: free.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "No transcript submitted yet.",
    });
    await expect(h.caller(admin).transcripts.reject({ audioId: crypto.randomUUID() })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Audio not found.",
    });
    expect(await snapshot(h)).toEqual(before);
  });
});
