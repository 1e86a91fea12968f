import { afterAll, describe, expect, it } from "vitest";
import { isTrackedEnvelope } from "@trpc/server";
import type { SessionUser } from "../src/context";
import { BACKLOG_PAGE, readBacklogPage } from "../src/live/backlog-reads";
import { publishAfter, recordEvent } from "../src/live/record";
import type { LiveEvent } from "../src/schemas/events";
import { createHarness } from "../src/testing/harness";

/**
 * Decision 013: backlog reads of resuming subscriptions are bounded and shared, and sharing
 * never costs a subscriber an event.
 */

const h = await createHarness();
afterAll(() => h.close());

/** Records `count` 'audio.changed' events for `user`, `perTransaction` at a time, poking the bus after each. */
async function addEvents(user: SessionUser, count: number, perTransaction = count): Promise<void> {
  for (let done = 0; done < count; done += perTransaction) {
    const batch = Math.min(perTransaction, count - done);
    await publishAfter(
      h.deps,
      h.deps.db.transaction().execute((trx) =>
        recordEvent(
          trx,
          Array.from({ length: batch }, () => ({
            audience: "user" as const,
            recipientId: user.id,
            kind: "audio.changed" as const,
          })),
        ),
      ),
    );
  }
}

/** The ids of `user`'s stored events, oldest first. */
async function idsOf(user: SessionUser): Promise<string[]> {
  const rows = await h.deps.db
    .selectFrom("events")
    .select("id")
    .where("recipientId", "=", user.id)
    .orderBy("id")
    .execute();
  return rows.map((r) => String(r.id));
}

/** Reads `count` events of `events.onEvent` as `user` resuming after `lastEventId`, then stops it. */
async function take(user: SessionUser, count: number, lastEventId: string): Promise<string[]> {
  const iterable = await h.caller(user).events.onEvent({ lastEventId });
  const ids: string[] = [];
  for await (const value of iterable) {
    if (isTrackedEnvelope<LiveEvent>(value)) ids.push(value[1].id);
    if (ids.length === count) break;
  }
  return ids;
}

describe("backlog reads of resuming subscriptions", () => {
  it("shares one read between callers asking for the same page at once", async () => {
    const staff = await h.createUser("Staff");
    await addEvents(staff, 5);
    const q = { afterId: "0", userId: staff.id, isAdmin: false };
    const [a, b, c] = await Promise.all([
      readBacklogPage(h.deps.db, q),
      readBacklogPage(h.deps.db, q),
      readBacklogPage(h.deps.db, q),
    ]);
    expect(a.map((r) => r.id)).toEqual(await idsOf(staff));
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it("keeps sharing a full page after its read, and reads a short last page again", async () => {
    const staff = await h.createUser("Staff");
    await addEvents(staff, BACKLOG_PAGE + 3);
    const ids = await idsOf(staff);
    const first = { afterId: "0", userId: staff.id, isAdmin: false };
    const full = await readBacklogPage(h.deps.db, first);
    expect(full).toHaveLength(BACKLOG_PAGE);
    expect(await readBacklogPage(h.deps.db, first)).toBe(full);

    const last = { ...first, afterId: ids[BACKLOG_PAGE - 1]! };
    expect((await readBacklogPage(h.deps.db, last)).map((r) => r.id)).toEqual(ids.slice(BACKLOG_PAGE));
    await addEvents(staff, 1);
    // The short page is final only now: an event committed since is read.
    expect((await readBacklogPage(h.deps.db, last)).map((r) => r.id)).toEqual((await idsOf(staff)).slice(BACKLOG_PAGE));
  });

  it("gives each of 20 subscriptions resuming together every event once and in order while events commit", async () => {
    const staff = await h.createUser("Staff");
    await addEvents(staff, 2 * BACKLOG_PAGE + 50);
    const streams = Array.from({ length: 20 }, () => take(staff, 2 * BACKLOG_PAGE + 50 + 60, "0"));
    // Events keep committing, a few at a time, while the subscriptions read their backlogs.
    await addEvents(staff, 60, 3);
    const all = await idsOf(staff);
    for (const ids of await Promise.all(streams)) expect(ids).toEqual(all);
  });
});
