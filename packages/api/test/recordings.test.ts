import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../src/context";
import { uploadRecording } from "../src/uploads/store-upload";
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
const inactive = await inactiveUser(h, "Staff");

const upload = async (user: SessionUser, audioId: string, recordedBy: string, mime = "audio/wav", ext = ".wav") =>
  uploadRecording(h.deps, user, { audioId, recordedBy, file: await tempWav(h, mime, ext) });

describe("uploadRecording (SPEC §2.13, §4, §5)", () => {
  it("stores the recording, creates the submission, sets Pending and notifies admins", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const file = await tempWav(h);
    const out = await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: other.id, file });
    expect(out).toEqual({ status: "Pending", message: "Translation Audio file uploaded successfully." });
    expect(existsSync(file.tempFile)).toBe(false);
    const s1 = await workState(h, audio.id);
    expect(s1.submission).toMatchObject({
      createdBy: staff.id,
      recordedBy: other.id,
      recordedAudioApprovalStatus: "Pending",
      translationScriptApprovalStatus: "No transcript",
      translationScript: null,
    });
    const key1 = s1.submission!.recordedAudio!;
    expect(key1).toMatch(new RegExp(`^recordings/${audio.id}/[0-9a-f-]{36}\\.wav$`));
    expect(await h.deps.storage.exists(key1)).toBe(true);
    expect(s1.task).toMatchObject({ recordingStatus: "In Progress", isComplete: false });

    await expect(h.caller(staff).recordings.get({ audioId: audio.id })).resolves.toMatchObject({
      status: "Pending",
      mimeType: "audio/wav",
      recordedBy: { id: other.id, username: other.username },
      url: expect.stringMatching(/^\/files\/recordings\//),
    });

    await upload(staff, audio.id, staff.id, "audio/mpeg", ".mp3");
    const s2 = await workState(h, audio.id);
    const key2 = s2.submission!.recordedAudio!;
    expect(key2).not.toBe(key1);
    expect(key2.endsWith(".mp3")).toBe(true);
    expect(await h.deps.storage.exists(key1)).toBe(true);
    expect(s2.submission?.recordedBy).toBe(staff.id);
    const rows = await h.deps.db
      .selectFrom("translatedRecordings")
      .selectAll()
      .where("submissionId", "=", s1.submission!.id)
      .orderBy("createdAt")
      .execute();
    expect(rows.map((r) => [r.fileKey, r.recordedBy, r.uploadedBy, r.mimeType])).toEqual([
      [key1, other.id, staff.id, "audio/wav"],
      [key2, staff.id, staff.id, "audio/mpeg"],
    ]);

    expect(await notificationsFor(h, admin, audio.id)).toEqual([
      {
        message: `${staff.username} uploaded a new the recorded audio for ${audio.filename}`,
        link: "/audiomanagement/translatedaudio",
        audioId: audio.id,
        senderId: staff.id,
        isRead: false,
      },
      {
        message: `${staff.username} updated the recorded audio for ${audio.filename}`,
        link: "/audiomanagement/translatedaudio",
        audioId: audio.id,
        senderId: staff.id,
        isRead: false,
      },
    ]);
  });

  it("accepts every allowed recording MIME type and staff the audio is recommended to", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await recommend(h, audio.id, other, staff);
    for (const mime of [
      "audio/wav",
      "audio/wave",
      "audio/x-wav",
      "audio/ogg",
      "audio/flac",
      "audio/x-flac",
      "audio/mpeg",
    ]) {
      await expect(upload(other, audio.id, other.id, mime)).resolves.toMatchObject({ status: "Pending" });
    }
  });

  it("refuses a wrong type, a non-staff recorder, foreign, unknown and unassigned audios, changing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const free = await newAudio(h, admin);
    await upload(staff, audio.id, staff.id);
    const before = await snapshot(h);

    await expect(upload(staff, audio.id, staff.id, "text/plain", ".txt")).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Invalid file type. Please select a valid audio file.",
    });
    await expect(upload(staff, audio.id, staff.id, "audio/mp3", ".mp3")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    for (const recordedBy of ["", "nobody", crypto.randomUUID(), admin.id, inactive.id]) {
      await expect(upload(staff, audio.id, recordedBy)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "Please select a staff to recorded the audio.",
      });
    }
    await expect(upload(other, audio.id, other.id)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You do not have access to this audio.",
    });
    await expect(h.caller(other).recordings.get({ audioId: audio.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(upload(staff, crypto.randomUUID(), staff.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Audio not found.",
    });
    await expect(upload(staff, "../../etc", staff.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(upload(admin, free.id, staff.id)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is not assigned yet.",
    });

    expect(await snapshot(h)).toEqual(before);
  });
});

describe("recording approval (SPEC §4)", () => {
  it("walks every transition with the task's fields, notifications and is_complete", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const caller = h.caller(admin);
    await expect(caller.recordings.get({ audioId: audio.id })).resolves.toEqual({
      status: "No translation audio",
      url: null,
      mimeType: null,
      waveform: null,
      recordedBy: null,
      uploadedAt: null,
    });
    for (const action of ["approve", "reject", "remove"] as const) {
      await expect(caller.recordings[action]({ audioId: audio.id })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "No submission yet",
      });
    }

    await upload(staff, audio.id, staff.id);
    await expect(caller.recordings.approve({ audioId: audio.id })).resolves.toEqual({
      status: "Approved",
      message: "Translation Audio file approved successfully.",
    });
    let s = await workState(h, audio.id);
    expect(s.submission?.recordedAudioApprovalStatus).toBe("Approved");
    expect(s.task).toMatchObject({ recordingStatus: "Completed", translationStatus: "In Progress", isComplete: false });

    const locked = await snapshot(h);
    await expect(upload(staff, audio.id, staff.id)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "The recording has been approved and can no longer be replaced.",
    });
    expect(await snapshot(h)).toEqual(locked);

    await expect(caller.recordings.reject({ audioId: audio.id, expectedStatus: "Approved" })).resolves.toEqual({
      status: "Rejected",
      message: "Translation Audio file rejected successfully.",
    });
    s = await workState(h, audio.id);
    expect(s.submission).toMatchObject({ recordedAudioApprovalStatus: "Rejected", approvalStatus: "Rejected" });
    expect(s.task).toMatchObject({ recordingStatus: "In Progress", isComplete: false });

    await upload(staff, audio.id, staff.id);
    expect((await workState(h, audio.id)).submission?.recordedAudioApprovalStatus).toBe("Pending");

    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "text" });
    await caller.transcripts.approve({ audioId: audio.id });
    await caller.recordings.approve({ audioId: audio.id });
    expect((await workState(h, audio.id)).task).toMatchObject({
      isComplete: true,
      recordingStatus: "Completed",
      translationStatus: "Completed",
    });

    const current = (await workState(h, audio.id)).submission!.recordedAudio!;
    await expect(caller.recordings.remove({ audioId: audio.id })).resolves.toEqual({
      status: "No translation audio",
      message: "Translation Audio file deleted successfully.",
    });
    s = await workState(h, audio.id);
    expect(s.submission).toMatchObject({
      recordedAudio: null,
      recordedAudioApprovalStatus: "No translation audio",
      translationScriptApprovalStatus: "Approved",
    });
    expect(s.task).toMatchObject({ recordingStatus: "In Progress", translationStatus: "Completed", isComplete: false });
    expect(await h.deps.storage.exists(current)).toBe(true);
    await expect(caller.recordings.get({ audioId: audio.id })).resolves.toMatchObject({
      status: "No translation audio",
      url: null,
    });
    await expect(caller.recordings.approve({ audioId: audio.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "No submission yet",
    });

    await upload(staff, audio.id, staff.id);
    const messages = (await notificationsFor(h, admin, audio.id)).map((n) => n.message);
    const f = audio.filename;
    expect(messages).toEqual([
      `${staff.username} uploaded a new the recorded audio for ${f}`,
      `${admin.username} approved the recorded audio for ${f}`,
      `${admin.username} rejected the recorded audio for ${f}`,
      `${staff.username} updated the recorded audio for ${f}`,
      `${staff.username} uploaded a new transcript for ${f}`,
      `${admin.username} approved the transcript for ${f}`,
      `${admin.username} approved the recorded audio for ${f}`,
      `${admin.username} deleted the recorded audio for ${f}`,
      `${staff.username} uploaded a new the recorded audio for ${f}`,
    ]);
  });
});
