import { afterAll, describe, expect, it } from "vitest";
import type { EventRow } from "@tafsiri/db/repositories/events";
import { createHarness } from "../src/testing/harness";
import { recordEvent } from "../src/live/record";
import type { EventSubscriber } from "../src/live/bus";

const h = await createHarness();
afterAll(() => h.close());
const admin = await h.createUser("Admin");
const staff = await h.createUser("Staff");

/** A subscriber that keeps the ids of the events it is handed, in order. */
function listener(userId: string, isAdmin: boolean): EventSubscriber & { ids: string[] } {
  const ids: string[] = [];
  return { userId, isAdmin, ids, deliver: (event: EventRow) => void ids.push(event.id) };
}

/** Records events in one transaction, pokes the bus and waits until they are dispatched; returns their ids. */
async function commitEvents(events: Parameters<typeof recordEvent>[1]): Promise<string[]> {
  const before = await h.deps.db
    .selectFrom("events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  await h.deps.db.transaction().execute((trx) => recordEvent(trx, events));
  h.deps.events.poke();
  await h.deps.events.idle();
  const rows = await h.deps.db
    .selectFrom("events")
    .select("id")
    .where("id", ">", String(before.id ?? 0))
    .orderBy("id")
    .execute();
  return rows.map((r) => String(r.id));
}

describe("event bus fan-out to many subscribers (decision 004)", () => {
  it("hands each of hundreds of subscribers exactly the events that reach it, once and in id order", async () => {
    const admins = Array.from({ length: 250 }, () => listener(admin.id, true));
    const staffListener = listener(staff.id, false);
    const leave = [...admins, staffListener].map((s) => h.deps.events.subscribe(s));

    const ids = await commitEvents([
      { audience: "admins", audioId: null, kind: "audio.changed" },
      { audience: "user", recipientId: admin.id, kind: "notification.created" },
      { audience: "user", recipientId: staff.id, kind: "audio.changed" },
      { audience: "admins", audioId: null, kind: "audio.deleted" },
    ]);
    for (const stop of leave) stop();

    expect(ids).toHaveLength(4);
    for (const a of admins) expect(a.ids).toEqual([ids[0], ids[1], ids[3]]);
    expect(staffListener.ids).toEqual([ids[2]]);
  });

  it("hands nothing more to a subscriber that leaves while the events are being handed out", async () => {
    const admins = Array.from({ length: 250 }, () => listener(admin.id, true));
    const leave = admins.map((s) => h.deps.events.subscribe(s));
    // The first subscriber removes the last one (a later slice) when it is handed the first event.
    const first = admins[0]!;
    first.deliver = (event) => {
      first.ids.push(event.id);
      leave[leave.length - 1]!();
    };

    const ids = await commitEvents([
      { audience: "admins", audioId: null, kind: "audio.changed" },
      { audience: "admins", audioId: null, kind: "audio.changed" },
    ]);
    for (const stop of leave) stop();

    expect(first.ids).toEqual(ids);
    expect(admins[admins.length - 1]!.ids).toEqual([]);
    expect(admins[admins.length - 2]!.ids).toEqual(ids);
  });
});
