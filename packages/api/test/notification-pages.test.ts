import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { SessionUser } from "../src/context";
import { encodeNotificationCursor } from "../src/schemas/notifications";
import { harnessWithUsers, snapshot } from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());

/**
 * Stores `count` unread notifications for `user`, from oldest to newest; every third shares its
 * time with the one before and two lie a microsecond apart, so pages must split ties by id and keep
 * the microseconds. Answers their ids newest first, the bell's order.
 */
async function seedNotifications(user: SessionUser, count: number): Promise<string[]> {
  const base = Date.UTC(2026, 10, 1, 9, 0, 0);
  const rows = Array.from({ length: count }, (_, i) => {
    const second = i - Math.floor(i / 3);
    const micro = i % 7 === 5 ? ".000001" : ".000000";
    const at = new Date(base + second * 1000).toISOString().slice(0, 19) + micro + "Z";
    return { recipientId: user.id, senderId: null, message: `note ${i}`, link: "/Audios", audioId: null, at };
  });
  await h.deps.db
    .insertInto("notifications")
    .values(rows.map(({ at, ...r }) => ({ ...r, createdAt: sql<Date>`${at}::timestamptz` as unknown as Date })))
    .execute();
  const stored = await h.deps.db
    .selectFrom("notifications")
    .select("id")
    .where("recipientId", "=", user.id)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return stored.map((r) => r.id);
}

describe("notifications.list pages (SPEC §2.3 'Show older')", () => {
  it("walks every notification once, newest first, 20 at a time, through nextCursor", async () => {
    const user = await h.createUser("Staff");
    const expected = await seedNotifications(user, 47);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await h.caller(user).notifications.list({ limit: 20, cursor });
      expect(page.unreadCount).toBe(47);
      seen.push(...page.items.map((n) => n.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);

    // A list that ends exactly at a page boundary has no further cursor.
    const exact = await h.caller(user).notifications.list({ limit: 47 });
    expect(exact.items).toHaveLength(47);
    expect(exact.nextCursor).toBeNull();
  });

  it("answers BAD_REQUEST for a malformed or oversized cursor and an oversized limit", async () => {
    const forged = [
      "nope!",
      "",
      Buffer.from("yesterday_abc").toString("base64url"),
      encodeNotificationCursor({ createdAt: "2026-02-30T10:00:00.000000Z", id: crypto.randomUUID() }),
      encodeNotificationCursor({ createdAt: "2026-02-01T10:00:00.000000Z", id: "1; drop table notifications" }),
      "A".repeat(201),
    ];
    for (const cursor of forged) {
      await expect(h.caller(staff).notifications.list({ cursor }), cursor).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    }
    await expect(h.caller(staff).notifications.list({ limit: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(h.caller(null).notifications.list({ cursor: null })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("pages only the caller's own notifications, whoever's cursor it is", async () => {
    const owner = await h.createUser("Staff");
    await seedNotifications(owner, 25);
    const cursor = (await h.caller(owner).notifications.list({ limit: 5 })).nextCursor!;
    const intruder = await h.caller(other).notifications.list({ limit: 100, cursor });
    expect(intruder.items.every((n) => !n.message.startsWith("note "))).toBe(true);
  });
});

describe("notifications.markAllRead (SPEC §2.3 'Mark all as read')", () => {
  it("marks every unread notification of the caller Read and no one else's", async () => {
    const mine = await h.createUser("Staff");
    const theirs = await h.createUser("Staff");
    await seedNotifications(mine, 30);
    await seedNotifications(theirs, 4);
    const adminBefore = (await h.caller(admin).notifications.list({})).unreadCount;

    expect(await h.caller(mine).notifications.markAllRead()).toEqual({
      message: "All notifications marked as read.",
      count: 30,
    });
    const after = await h.caller(mine).notifications.list({ limit: 100 });
    expect(after.unreadCount).toBe(0);
    expect(after.items.every((n) => n.isRead)).toBe(true);
    expect((await h.caller(theirs).notifications.list({})).unreadCount).toBe(4);
    expect((await h.caller(admin).notifications.list({})).unreadCount).toBe(adminBefore);

    // Again: nothing left to mark.
    expect(await h.caller(mine).notifications.markAllRead()).toEqual({
      message: "All notifications marked as read.",
      count: 0,
    });
  });

  it("refuses anonymous callers and changes nothing", async () => {
    const user = await h.createUser("Staff");
    await seedNotifications(user, 2);
    const state = await snapshot(h);
    await expect(h.caller(null).notifications.markAllRead()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await snapshot(h)).toEqual(state);
    expect((await h.caller(user).notifications.list({})).unreadCount).toBe(2);
  });
});
