import { afterAll, describe, expect, it } from "vitest";
import { createAppHarness, failed } from "../fixtures/app-harness";
import { trpcCall } from "../fixtures/hostile-world";

/**
 * Attack on the bell's pages and 'Mark all as read' (SPEC §2.3): no session, someone else's
 * notifications, forged and oversized cursors and limits, over tRPC and REST. Every attempt is
 * refused or answers only the caller's own, and no other user's notification changes.
 */

const h = await createAppHarness();
afterAll(() => h.close());
const owner = await h.createUser("Staff");
const attacker = await h.createUser("Staff");
const [ownerToken, attackerToken] = await Promise.all([h.token(owner), h.token(attacker)]);

/** Sends `user` `count` notifications through the API, as an admin would. */
async function notify(userId: string, count: number, text: string): Promise<void> {
  const admin = await h.createUser("Admin");
  for (let i = 0; i < count; i += 1) {
    await h
      .caller(admin)
      .notifications.create({ senderId: admin.id, message: `${text} ${i}`, link: "/Audios", recipientId: userId });
  }
}
await notify(owner.id, 25, "for the owner");
await notify(attacker.id, 3, "for the attacker");

/** The owner's read flags, oldest first: what no attempt may change. */
async function ownerFlags(): Promise<boolean[]> {
  const rows = await h.deps.db
    .selectFrom("notifications")
    .select("isRead")
    .where("recipientId", "=", owner.id)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map((r) => r.isRead);
}

const SIGN_IN = "You must be signed in.";
const MALFORMED = "The cursor is malformed.";
const FORGED_CURSORS = [
  "not-a-cursor",
  "%00",
  Buffer.from("2026-11-01T00:00:00.000000Z_' or 1=1 --").toString("base64url"),
  Buffer.from("2026-13-45T99:00:00.000000Z_00000000-0000-0000-0000-000000000000").toString("base64url"),
  "A".repeat(10_000),
];

describe("without a session", () => {
  it("the new procedures and paths answer 401 and change nothing", async () => {
    const before = await ownerFlags();
    const list = await trpcCall(h, null, "notifications.list", { cursor: null });
    expect(list.status).toBe(401);
    const markAll = await trpcCall(h, null, "notifications.markAllRead", {});
    expect(markAll.status).toBe(401);
    const rest = await h.call("PUT", "/api/markAllNotificationsAsRead", null);
    expect(rest.statusCode).toBe(401);
    expect(rest.json()).toEqual(failed(SIGN_IN));
    const page = await h.call("GET", `/api/fetchnotifications/${owner.id}?cursor=x`, null);
    expect(page.statusCode).toBe(401);
    expect(await ownerFlags()).toEqual(before);
  });
});

describe("another user's notifications", () => {
  it("'Mark all as read' by the attacker, over tRPC and REST, leaves the owner's unread", async () => {
    const before = await ownerFlags();
    expect(before.every((read) => !read)).toBe(true);
    const trpc = await trpcCall(h, attackerToken, "notifications.markAllRead", {});
    expect(trpc.status, trpc.body).toBe(200);
    expect(trpc.data).toEqual({ message: "All notifications marked as read.", count: 3 });
    // Inputs naming the owner are not read: the procedure takes none.
    const named = await trpcCall(h, attackerToken, "notifications.markAllRead", { userId: owner.id });
    expect([200, 400]).toContain(named.status);
    const rest = await h.call("PUT", "/api/markAllNotificationsAsRead", attackerToken, { userId: owner.id });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ status: "success", count: 0 });
    expect(await ownerFlags()).toEqual(before);
  });

  it("the owner's cursor pages only the attacker's own list; the owner's list by id stays 403", async () => {
    const ownerPage = await h.call("GET", `/api/fetchnotifications/${owner.id}?limit=5`, ownerToken);
    const next = /<([^>]+)>; rel="next"/.exec(ownerPage.headers.link as string)![1]!;
    const cursor = new URL(next, "http://x").searchParams.get("cursor")!;
    const trpc = await trpcCall(h, attackerToken, "notifications.list", { limit: 100, cursor });
    expect(trpc.status, trpc.body).toBe(200);
    expect(trpc.body).not.toContain("for the owner");
    const rest = await h.call(
      "GET",
      `/api/fetchnotifications/${owner.id}?cursor=${encodeURIComponent(cursor)}`,
      attackerToken,
    );
    expect(rest.statusCode).toBe(403);
    expect(rest.body).not.toContain("for the owner");
  });
});

describe("forged and oversized input", () => {
  it.each(FORGED_CURSORS.map((c) => [c.slice(0, 40), c]))("cursor %s answers 400 over tRPC and REST", async (_, c) => {
    const trpc = await trpcCall(h, ownerToken, "notifications.list", { cursor: c });
    expect(trpc.status, trpc.body).toBe(400);
    expect(trpc.error?.message).toContain(MALFORMED);
    const rest = await h.call("GET", `/api/fetchnotifications/${owner.id}?cursor=${encodeURIComponent(c)}`, ownerToken);
    expect(rest.statusCode, rest.body).toBe(400);
    expect(rest.json()).toEqual(failed(MALFORMED));
  });

  it("limits outside 1 to 100 answer 400", async () => {
    for (const limit of [0, 101, 1_000_000]) {
      expect((await trpcCall(h, ownerToken, "notifications.list", { limit })).status).toBe(400);
      const rest = await h.call("GET", `/api/fetchnotifications/${owner.id}?limit=${limit}`, ownerToken);
      expect(rest.statusCode, rest.body).toBe(400);
    }
  });
});
