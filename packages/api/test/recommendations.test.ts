import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../src/context";
import { assignedAudio, harnessWithUsers, newAudio, notificationsFor, snapshot } from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const third = await h.createUser("Staff");

const NOT_READY = "Translation stage has not been completed.";

/** An audio assigned to `staff` with a saved transcript (ready to recommend). */
async function readyAudio() {
  const audio = await assignedAudio(h, admin, staff);
  await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" });
  return audio;
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

/** The recommendations stored for an audio's task, as [recommendedTo, recommendedBy]. */
async function recommendationsOf(audioId: string) {
  const rows = await h.deps.db
    .selectFrom("recommendations")
    .innerJoin("tasks", "tasks.id", "recommendations.taskId")
    .select(["recommendations.recommendedTo", "recommendations.recommendedBy"])
    .where("tasks.audioId", "=", audioId)
    .orderBy("recommendations.createdAt")
    .execute();
  return rows.map((r) => [r.recommendedTo, r.recommendedBy]);
}

describe("recommendations.check (SPEC §2.15, §4)", () => {
  it("is ready only while a transcript is saved for the audio's task", async () => {
    const unassigned = await newAudio(h, admin);
    expect(await h.caller(admin).recommendations.check({ audioId: unassigned.id })).toEqual({ ready: false });
    const audio = await assignedAudio(h, admin, staff);
    expect(await h.caller(staff).recommendations.check({ audioId: audio.id })).toEqual({ ready: false });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" });
    expect(await h.caller(staff).recommendations.check({ audioId: audio.id })).toEqual({ ready: true });
    expect(await h.caller(admin).recommendations.check({ audioId: audio.id })).toEqual({ ready: true });
    await h.caller(admin).transcripts.remove({ audioId: audio.id });
    expect(await h.caller(staff).recommendations.check({ audioId: audio.id })).toEqual({ ready: false });
  });

  it("follows the audio rule: other staff are refused, unknown audios are not found", async () => {
    const audio = await readyAudio();
    await expect(h.caller(other).recommendations.check({ audioId: audio.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.caller(staff).recommendations.check({ audioId: crypto.randomUUID() })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Audio not found.",
    });
    await expect(h.caller(null).recommendations.check({ audioId: audio.id })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});

describe("recommendations.create (SPEC §2.15, §4, §5)", () => {
  it("refuses while the translation stage has no result, storing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const unassigned = await newAudio(h, admin);
    const state = await snapshot(h);
    await expect(
      h.caller(staff).recommendations.create({ audioId: audio.id, staffId: other.id }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: NOT_READY,
    });
    await expect(
      h.caller(admin).recommendations.create({ audioId: unassigned.id, staffId: other.id }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: NOT_READY,
    });
    expect(await snapshot(h)).toEqual(state);
    expect(await notificationsFor(h, other, audio.id)).toEqual([]);
  });

  it("records the recommendation and notifies the recipient, who may then open and work on the audio", async () => {
    const audio = await readyAudio();
    await expect(h.caller(other).audios.get({ audioId: audio.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const eventsBefore = await eventsAbout(audio.id);

    const out = await h.caller(staff).recommendations.create({ audioId: audio.id, staffId: other.id });
    expect(out).toEqual({ message: "Recommendation sent successfully!." });
    expect(await recommendationsOf(audio.id)).toEqual([[other.id, staff.id]]);
    expect(await notificationsFor(h, other, audio.id)).toEqual([
      {
        message: `${staff.username} recommended an audio for recording.`,
        link: "/Recordings/",
        audioId: audio.id,
        senderId: staff.id,
        isRead: false,
      },
    ]);
    expect((await h.caller(other).notifications.list({})).items[0]).toMatchObject({
      message: `${staff.username} recommended an audio for recording.`,
      link: "/Recordings/",
      audioAvailable: true,
      isRead: false,
    });
    expect(await notificationsFor(h, staff, audio.id)).toEqual([]);
    const newEvents = (await eventsAbout(audio.id)).slice(eventsBefore.length);
    expect(newEvents.slice(0, 2)).toEqual([
      ["notification.created", "user", other.id],
      ["audio.changed", "admins", null],
    ]);
    expect(
      newEvents
        .slice(2)
        .map((e) => e.join())
        .sort(),
    ).toEqual([staff.id, other.id].map((id) => `audio.changed,user,${id}`).sort());

    expect((await h.caller(other).audios.get({ audioId: audio.id })).id).toBe(audio.id);
    expect(await h.caller(other).recommendations.check({ audioId: audio.id })).toEqual({ ready: true });
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select(["action", "actorId"])
      .where("action", "=", "recommend")
      .where("actorId", "=", staff.id)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("lets admins recommend any audio, and a recipient recommend it on", async () => {
    const audio = await readyAudio();
    await h.caller(admin).recommendations.create({ audioId: audio.id, staffId: other.id });
    await h.caller(other).recommendations.create({ audioId: audio.id, staffId: third.id });
    expect(await recommendationsOf(audio.id)).toEqual([
      [other.id, admin.id],
      [third.id, other.id],
    ]);
    expect(await notificationsFor(h, third, audio.id)).toEqual([
      expect.objectContaining({ message: `${other.username} recommended an audio for recording.` }),
    ]);
  });

  it("refuses no staff, the assignee, the caller, non-staff, deactivated staff, a repeat and outsiders, storing nothing", async () => {
    const audio = await readyAudio();
    await h.caller(staff).recommendations.create({ audioId: audio.id, staffId: other.id });
    const retired = await h.createUser("Staff");
    await h.deps.db.updateTable("users").set({ active: false }).where("id", "=", retired.id).execute();
    const state = await snapshot(h);
    const events = await eventsAbout(audio.id);
    const create = (user: SessionUser, staffId: string) =>
      h.caller(user).recommendations.create({ audioId: audio.id, staffId });

    await expect(create(staff, "")).rejects.toThrow("Please select a staff member");
    for (const staffId of [admin.id, retired.id, crypto.randomUUID(), "not-an-id"]) {
      await expect(create(staff, staffId)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "Please select a staff member",
      });
    }
    await expect(create(admin, staff.id)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio is already assigned to this staff member.",
    });
    await expect(create(other, other.id)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "You cannot recommend an audio to yourself.",
    });
    await expect(create(staff, other.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This audio has already been recommended to this staff member.",
    });
    await expect(create(third, other.id)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You do not have access to this audio.",
    });
    await expect(h.caller(null).recommendations.create({ audioId: audio.id, staffId: third.id })).rejects.toMatchObject(
      { code: "UNAUTHORIZED" },
    );
    expect(await snapshot(h)).toEqual(state);
    expect(await eventsAbout(audio.id)).toEqual(events);
  });
});
