import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { isTrackedEnvelope } from "@trpc/server";
import type { LiveEvent } from "../src/schemas/events";
import { randomUUID } from "node:crypto";
import { insertWebhookEndpoint, insertWebhookEvent } from "@tafsiri/db/repositories/webhooks";
import { pruneEvents, pruneWebhookEvents } from "../src/live/retention";
import { assignedAudio, harnessWithUsers } from "./workflow-fixtures";

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());

const DAY_MS = 24 * 60 * 60 * 1000;

async function eventIds(): Promise<string[]> {
  const rows = await h.deps.db
    .selectFrom("events")
    .select(sql<string>`id::text`.as("id"))
    .orderBy(sql`events.id`)
    .execute();
  return rows.map((r) => r.id);
}

async function notificationCount(): Promise<number> {
  const row = await h.deps.db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("pruning old live events (EVENT_RETENTION_DAYS)", () => {
  it("deletes the events older than the retention, keeps the rest and every notification, and a resume gets what is kept", async () => {
    const old = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: old.id, text: "Habari ya zamani" });
    const oldIds = await eventIds();
    // These changes happened 31 and 29 days ago.
    await sql`update events set created_at = now() - interval '31 days' where id <= ${oldIds.at(-1)}`.execute(
      h.deps.db,
    );
    const recent = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: recent.id, text: "Habari ya leo" });
    const recentIds = (await eventIds()).filter((id) => !oldIds.includes(id));
    await sql`update events set created_at = now() - interval '29 days' where id > ${oldIds.at(-1)}`.execute(h.deps.db);
    const notifications = await notificationCount();

    expect(await pruneEvents(h.deps.db, 30)).toBe(oldIds.length);
    expect(await eventIds()).toEqual(recentIds);
    expect(await notificationCount()).toBe(notifications);
    expect(await pruneEvents(h.deps.db, 30)).toBe(0);

    // A client that last saw the first old event resumes with what is kept, in order.
    const iterable = await h.caller(admin).events.onEvent({ lastEventId: oldIds[0] });
    const resumed: LiveEvent[] = [];
    for await (const value of iterable) {
      if (isTrackedEnvelope<LiveEvent>(value)) resumed.push(value[1]);
      if (
        resumed.at(-1)?.kind === "audio.changed" &&
        resumed.at(-1)?.audioId === recent.id &&
        resumed.some((e) => e.kind === "notification.created")
      )
        break;
    }
    expect(resumed.every((e) => e.audioId === recent.id)).toBe(true);
    expect(resumed.map((e) => e.id)).toEqual(recentIds.filter((id) => resumed.some((e) => e.id === id)));

    expect(await pruneEvents(h.deps.db, 30, new Date(Date.now() + 2 * DAY_MS))).toBe(recentIds.length);
  });
});

describe("pruning old webhook events (decision 037, the same retention)", () => {
  it("deletes settled events older than the retention with their delivery logs, and keeps any still waiting", async () => {
    const endpoint = await insertWebhookEndpoint(h.deps.db, {
      url: "https://receiver.example.org/hook",
      description: "",
      eventTypes: ["audio.uploaded"],
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      createdBy: admin.id,
    });
    const event = async (daysAgo: number, status: "delivered" | "failed" | "pending") => {
      const id = randomUUID();
      const createdAt = new Date(Date.now() - daysAgo * DAY_MS);
      await insertWebhookEvent(h.deps.db, { id, type: "audio.uploaded", body: "{}", createdAt }, [endpoint.id]);
      await h.deps.db.updateTable("webhookDeliveries").set({ status }).where("eventId", "=", id).execute();
      return id;
    };
    const oldDelivered = await event(31, "delivered");
    const oldFailed = await event(31, "failed");
    const oldWaiting = await event(31, "pending");
    const recent = await event(29, "delivered");

    expect(await pruneWebhookEvents(h.deps.db, 30)).toBe(2);
    const kept = await h.deps.db.selectFrom("webhookEvents").select("id").execute();
    expect(kept.map((e) => e.id).sort()).toEqual([oldWaiting, recent].sort());
    const deliveries = await h.deps.db.selectFrom("webhookDeliveries").select("eventId").execute();
    expect(deliveries.map((d) => d.eventId)).not.toContain(oldDelivered);
    expect(deliveries.map((d) => d.eventId)).not.toContain(oldFailed);
    expect(await pruneWebhookEvents(h.deps.db, 30)).toBe(0);
  });
});
