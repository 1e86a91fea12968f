import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../src/context";
import { RECORDING_REVIEW, reviewOutput } from "../src/services/reviews";
import { uploadRecording } from "../src/uploads/store-upload";
import {
  assignedAudio,
  harnessWithUsers,
  inactiveUser,
  notificationsFor,
  snapshot,
  tempWav,
  workState,
} from "./workflow-fixtures";

// Decision 025: a rejection either returns the task to its assignee (the default) or reassigns it
// ('Reassign to…'): the task moves with its submission, versions and comments, the new assignee is
// notified, the old one told, the audit log says so, all in the rejection's transaction.

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const third = await h.createUser("Staff");
const inactive = await inactiveUser(h, "Staff");

/** The audio ids in `user`'s My Tasks (tasks.list as they call it). */
async function myTaskAudioIds(user: SessionUser): Promise<string[]> {
  const page = await h.caller(user).tasks.list({ page: 1, limit: 100 });
  return page.items.map((t) => t.audioId);
}

/** Everything a refused review must leave alone: the snapshot tables plus reviews and live events. */
async function everything() {
  const db = h.deps.db;
  const n = async (table: "reviews" | "events") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { ...(await snapshot(h)), reviews: await n("reviews"), events: await n("events") };
}

/** The 'audio.changed' recipients recorded for `audioId` after event id `afterId`. */
async function changedRecipients(audioId: string, afterId: string) {
  const rows = await h.deps.db
    .selectFrom("events")
    .select(["audience", "recipientId"])
    .where("audioId", "=", audioId)
    .where("kind", "=", "audio.changed")
    .where("id", ">", afterId)
    .execute();
  return rows.map((r) => (r.audience === "admins" ? "admins" : r.recipientId));
}

async function lastEventId(): Promise<string> {
  const row = await h.deps.db
    .selectFrom("events")
    .select((eb) => eb.fn.max("id").as("max"))
    .executeTakeFirstOrThrow();
  return String(row.max ?? 0);
}

describe("transcripts.reject with reassignTo (decision 025)", () => {
  it("moves the task with its history: the new assignee has it in My Tasks, the old one no longer", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari ya asubuhi" });
    await h.caller(staff).comments.add({ audioId: audio.id, text: "Is line 2 right?" });
    expect(await myTaskAudioIds(staff)).toContain(audio.id);
    expect(await myTaskAudioIds(other)).not.toContain(audio.id);
    const before = await workState(h, audio.id);
    const since = await lastEventId();

    const out = await h.caller(admin).transcripts.reject({
      audioId: audio.id,
      reason: "Line 2 is missing.",
      reassignTo: other.id,
    });
    expect(out).toEqual({
      status: "Rejected",
      message: `Transcript rejected successfully. The task is now assigned to ${other.username}.`,
    });

    // The task moved; the same task and submission (history kept), the submission follows by trigger.
    const after = await workState(h, audio.id);
    expect(after.task).toMatchObject({ id: before.task.id, assignedTo: other.id, translationStatus: "In Progress" });
    expect(after.submission).toMatchObject({
      id: before.submission!.id,
      assignedTo: other.id,
      translationScriptApprovalStatus: "Rejected",
    });
    expect(await myTaskAudioIds(other)).toContain(audio.id);
    expect(await myTaskAudioIds(staff)).not.toContain(audio.id);
    // The new assignee reads the transcript and the rejection's comment; the old one may no longer open it.
    await expect(h.caller(other).transcripts.get({ audioId: audio.id })).resolves.toMatchObject({
      text: "Habari ya asubuhi",
      status: "Rejected",
    });
    const comments = await h.deps.db
      .selectFrom("comments")
      .select(["text", "postedBy"])
      .where("submissionId", "=", before.submission!.id)
      .execute();
    expect(comments).toEqual([
      { text: "Is line 2 right?", postedBy: staff.id },
      { text: "Line 2 is missing.", postedBy: admin.id },
    ]);
    await expect(h.caller(other).comments.list({ audioId: audio.id })).resolves.toHaveLength(2);
    const versions = await h.deps.db
      .selectFrom("transcriptVersions")
      .select("id")
      .where("submissionId", "=", before.submission!.id)
      .execute();
    expect(versions.length).toBeGreaterThan(0);
    await expect(h.caller(staff).audios.get({ audioId: audio.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    // Both told, each in their own words; the old one's notice leads to their Tasks page.
    const said = `${admin.username} rejected the transcript for ${audio.filename}`;
    expect((await notificationsFor(h, other, audio.id)).map((n) => [n.message, n.link])).toEqual([
      [`${said} and assigned it to you: Line 2 is missing.`, "/audiomanagement/trascript"],
    ]);
    const oldNotices = await notificationsFor(h, staff, audio.id);
    expect(oldNotices.at(-1)).toMatchObject({
      message: `${said} and reassigned it to ${other.username}: Line 2 is missing.`,
      link: "/Audios",
      senderId: admin.id,
    });
    expect(oldNotices.filter((n) => n.message.startsWith(said))).toHaveLength(1);
    // Admins get the usual notice.
    expect((await notificationsFor(h, admin, audio.id)).at(-1)?.message).toBe(said);

    // The audit log: the rejection and the reassignment, which names the review.
    const audits = await h.deps.db
      .selectFrom("auditLog")
      .select(["action", "entity", "detail"])
      .where("actorId", "=", admin.id)
      .where((eb) => eb.or([eb("entityId", "=", before.task.id), eb("entityId", "=", before.submission!.id)]))
      .execute();
    const entry = (action: string) => audits.find((a) => a.action === action);
    expect(audits.map((a) => `${a.action} ${a.entity}`).sort()).toEqual([
      "assign task",
      "reassign task",
      "reject transcript",
    ]);
    expect(entry("reassign")?.detail).toEqual({
      audioId: audio.id,
      from: staff.id,
      to: other.id,
      review: { output: "transcript", action: "reject", submissionId: before.submission!.id },
    });
    expect(entry("reject")?.detail).toMatchObject({ status: "Rejected", reassignedTo: other.id });

    // One review row; live 'audio.changed' for admins, the new assignee and the old one.
    const reviews = await h.deps.db
      .selectFrom("reviews")
      .select(["action", "output", "reviewerId"])
      .where("submissionId", "=", before.submission!.id)
      .execute();
    expect(reviews).toEqual([{ action: "reject", output: "transcript", reviewerId: admin.id }]);
    expect((await changedRecipients(audio.id, since)).sort()).toEqual(["admins", other.id, staff.id].sort());

    // The new assignee saves again; the task goes on from where it was.
    await h.caller(other).transcripts.save({ audioId: audio.id, text: "Habari ya asubuhi.\nNzuri sana." });
    expect((await workState(h, audio.id)).submission?.translationScriptApprovalStatus).toBe("Pending");
  });

  it("'Return to {assignee}' (no reassignTo) keeps today's single notice and the task where it is", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "draft" });
    const out = await h.caller(admin).transcripts.reject({ audioId: audio.id, reason: "Too short." });
    expect(out.message).toBe("Transcript rejected successfully.");
    expect((await workState(h, audio.id)).task.assignedTo).toBe(staff.id);
    expect((await notificationsFor(h, staff, audio.id)).at(-1)?.message).toBe(
      `${admin.username} rejected the transcript for ${audio.filename}: Too short.`,
    );
    const reassigns = await h.deps.db
      .selectFrom("auditLog")
      .select("id")
      .where("action", "=", "reassign")
      .where("entityId", "=", (await workState(h, audio.id)).task.id)
      .execute();
    expect(reassigns).toEqual([]);
  });

  it("refuses an unknown, malformed, Admin, deactivated or current assignee's id, writing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "draft" });
    const caller = h.caller(admin);
    const before = await everything();
    for (const reassignTo of [crypto.randomUUID(), admin.id, inactive.id]) {
      await expect(caller.transcripts.reject({ audioId: audio.id, reassignTo })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "Please select a staff member to reassign.",
      });
    }
    await expect(caller.transcripts.reject({ audioId: audio.id, reassignTo: staff.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is already assigned to this staff member.",
    });
    await expect(caller.transcripts.reject({ audioId: audio.id, reassignTo: "" })).rejects.toThrow(
      "Please select a staff member to reassign.",
    );
    for (const reassignTo of ["not-a-user", "1 OR 1=1", "x".repeat(100_000)]) {
      await expect(caller.transcripts.reject({ audioId: audio.id, reassignTo })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    }
    await expect(
      caller.transcripts.reject({ audioId: audio.id, reassignTo: 42 as unknown as string }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await everything()).toEqual(before);
    // The transcript is still Pending: a plain rejection goes through afterwards.
    await expect(caller.transcripts.reject({ audioId: audio.id })).resolves.toMatchObject({ status: "Rejected" });
  });

  it("is an admin's: staff (even the assignee) get FORBIDDEN and nothing changes", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "draft" });
    const before = await everything();
    for (const user of [staff, other]) {
      await expect(
        h.caller(user).transcripts.reject({ audioId: audio.id, reassignTo: third.id }),
      ).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    await expect(h.caller(null).transcripts.reject({ audioId: audio.id, reassignTo: third.id })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(await everything()).toEqual(before);
  });

  it("a stale rejection with reassignTo answers CONFLICT and moves nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "draft" });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });
    const before = await everything();
    await expect(h.caller(admin).transcripts.reject({ audioId: audio.id, reassignTo: other.id })).rejects.toMatchObject(
      { code: "CONFLICT", message: "The transcript is now Approved; refresh and try again." },
    );
    expect(await everything()).toEqual(before);
  });
});

describe("recordings.reject with reassignTo (decision 025)", () => {
  it("moves the task and tells both assignees about the recorded audio", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    const out = await h.caller(admin).recordings.reject({ audioId: audio.id, reassignTo: third.id });
    expect(out).toEqual({
      status: "Rejected",
      message: `Translation Audio file rejected successfully. The task is now assigned to ${third.username}.`,
    });
    const { task, submission } = await workState(h, audio.id);
    expect(task).toMatchObject({ assignedTo: third.id, recordingStatus: "In Progress" });
    expect(submission).toMatchObject({ assignedTo: third.id, recordedAudioApprovalStatus: "Rejected" });
    expect(submission?.recordedAudio).not.toBeNull();
    expect(await myTaskAudioIds(third)).toContain(audio.id);
    expect(await myTaskAudioIds(staff)).not.toContain(audio.id);
    const said = `${admin.username} rejected the recorded audio for ${audio.filename}`;
    expect((await notificationsFor(h, third, audio.id)).map((n) => n.message)).toEqual([
      `${said} and assigned it to you`,
    ]);
    expect((await notificationsFor(h, staff, audio.id)).at(-1)?.message).toBe(
      `${said} and reassigned it to ${third.username}`,
    );
  });

  it("refuses reassignTo with approve or delete (the service's rule) and on the same assignee, writing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    const before = await everything();
    await expect(h.caller(admin).recordings.reject({ audioId: audio.id, reassignTo: staff.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is already assigned to this staff member.",
    });
    for (const action of ["approve", "remove"] as const) {
      await expect(
        reviewOutput(h.deps, admin, RECORDING_REVIEW, { audioId: audio.id, reassignTo: other.id }, action),
      ).rejects.toMatchObject({ code: "BAD_REQUEST", message: "Only a rejection can reassign the task." });
    }
    expect(await everything()).toEqual(before);
  });
});
