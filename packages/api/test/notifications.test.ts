import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../src/context";
import { assignedAudio, harnessWithUsers, snapshot } from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());

/** The stored read flags of `user`'s notifications, by id. */
async function readFlags(user: SessionUser) {
  const rows = await h.deps.db
    .selectFrom("notifications")
    .select(["id", "isRead"])
    .where("recipientId", "=", user.id)
    .orderBy("id")
    .execute();
  return rows;
}

describe("notifications.list (SPEC §2.3)", () => {
  it("gives the caller's own notifications newest first, with the unread count, and nobody else's", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "first" });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "second" });

    const list = await h.caller(admin).notifications.list({});
    expect(list.unreadCount).toBe(2);
    expect(list.items).toHaveLength(2);
    expect(list.items[0]).toEqual({
      id: expect.any(String),
      message: `${staff.username} updated the transcript for ${audio.filename}`,
      link: "/audiomanagement/trascript",
      audioId: audio.id,
      audioAvailable: true,
      isRead: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(list.items[1]!.message).toBe(`${staff.username} uploaded a new transcript for ${audio.filename}`);
    expect(Date.parse(list.items[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(list.items[1]!.createdAt));

    expect(await h.caller(staff).notifications.list({})).toEqual({ items: [], unreadCount: 0, nextCursor: null });
    expect((await h.caller(admin).notifications.list({ limit: 1 })).items).toHaveLength(1);
    expect((await h.caller(admin).notifications.list({ limit: 1 })).unreadCount).toBe(2);
    expect((await h.caller(admin).notifications.list()).items).toHaveLength(2);
  });

  it("refuses naming another user, admins included, and anonymous callers", async () => {
    expect((await h.caller(staff).notifications.list({ userId: staff.id })).items).toEqual([]);
    await expect(h.caller(staff).notifications.list({ userId: other.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You may only read your own notifications.",
    });
    await expect(h.caller(admin).notifications.list({ userId: staff.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(null).notifications.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("flags a notification whose audio was deleted as no longer available; it stays", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "soon gone" });
    const about = async () =>
      (await h.caller(admin).notifications.list({ limit: 100 })).items.filter((n) => n.audioId === audio.id);
    expect((await about()).map((n) => n.audioAvailable)).toEqual([true]);
    await h.caller(admin).audios.delete({ audioId: audio.id });
    expect(await about()).toEqual([expect.objectContaining({ audioId: audio.id, audioAvailable: false })]);
  });
});

describe("notifications.markRead (SPEC §4)", () => {
  it("marks the recipient's notification Read and lowers the unread count; marking again is fine", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "to read" });
    const before = await h.caller(admin).notifications.list({ limit: 100 });
    const target = before.items.find((n) => n.audioId === audio.id)!;
    expect(await h.caller(admin).notifications.markRead({ id: target.id })).toEqual({
      message: "Notification marked as read.",
    });
    const after = await h.caller(admin).notifications.list({ limit: 100 });
    expect(after.items.find((n) => n.id === target.id)!.isRead).toBe(true);
    expect(after.unreadCount).toBe(before.unreadCount - 1);
    expect(await h.caller(admin).notifications.markRead({ id: target.id })).toEqual({
      message: "Notification marked as read.",
    });
    expect((await h.caller(admin).notifications.list({ limit: 100 })).unreadCount).toBe(before.unreadCount - 1);
  });

  it("answers NOT_FOUND for someone else's or an unknown id and changes nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "not yours" });
    const target = (await h.caller(admin).notifications.list({})).items.find((n) => n.audioId === audio.id)!;
    const flags = await readFlags(admin);
    const state = await snapshot(h);
    for (const user of [staff, other]) {
      await expect(h.caller(user).notifications.markRead({ id: target.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "Notification not found.",
      });
    }
    await expect(h.caller(admin).notifications.markRead({ id: crypto.randomUUID() })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(h.caller(admin).notifications.markRead({ id: "nope" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(h.caller(null).notifications.markRead({ id: target.id })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(await readFlags(admin)).toEqual(flags);
    expect(await snapshot(h)).toEqual(state);
  });
});

describe("notifications.create (SPEC §3, §7.1 createnotification)", () => {
  it("sends to every active admin with toAdmins, or to one user with recipientId", async () => {
    const admin2 = await h.createUser("Admin");
    const retired = await h.createUser("Admin");
    await h.deps.db.updateTable("users").set({ active: false }).where("id", "=", retired.id).execute();
    const audio = await assignedAudio(h, admin, staff);

    const toAdmins = await h.caller(staff).notifications.create({
      senderId: staff.id,
      message: "Please look at this audio",
      link: "/audiomanagement/audiocontrol",
      audioId: audio.id,
      toAdmins: true,
    });
    expect(toAdmins).toEqual({ count: 2, message: "Notification sent." });
    for (const user of [admin, admin2]) {
      const items = (await h.caller(user).notifications.list({ limit: 100 })).items;
      expect(items).toContainEqual(
        expect.objectContaining({
          message: "Please look at this audio",
          link: "/audiomanagement/audiocontrol",
          audioId: audio.id,
          isRead: false,
        }),
      );
    }
    expect((await h.caller(retired).notifications.list({})).items).toEqual([]);

    const direct = await h
      .caller(admin)
      .notifications.create({ senderId: admin.id, message: "Hello", link: "/Audios", recipientId: other.id });
    expect(direct.count).toBe(1);
    expect((await h.caller(other).notifications.list({})).items).toEqual([
      expect.objectContaining({ message: "Hello", link: "/Audios", audioId: null, audioAvailable: false }),
    ]);
  });

  it("refuses a forged sender, missing or unknown recipients, an outside link and another's audio, storing nothing", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const base = { senderId: staff.id, message: "hi", link: "/Audios", recipientId: admin.id };
    const state = await snapshot(h);
    await expect(h.caller(staff).notifications.create({ ...base, senderId: other.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You may only send notifications as yourself.",
    });
    await expect(h.caller(staff).notifications.create({ ...base, recipientId: undefined })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Choose the recipients: toAdmins or recipientId.",
    });
    await expect(
      h.caller(staff).notifications.create({ ...base, recipientId: crypto.randomUUID() }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The recipient does not exist.",
    });
    for (const link of ["javascript:alert(1)", "https://example.com/", "//example.com/x"]) {
      await expect(h.caller(staff).notifications.create({ ...base, link })).rejects.toThrow(
        "The link must be a path inside the app.",
      );
    }
    await expect(h.caller(staff).notifications.create({ ...base, message: "   " })).rejects.toThrow(
      "Message is required.",
    );
    await expect(
      h.caller(other).notifications.create({ ...base, senderId: other.id, audioId: audio.id }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(null).notifications.create(base)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await snapshot(h)).toEqual(state);
  });
});
