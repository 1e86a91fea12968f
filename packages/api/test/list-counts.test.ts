import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { randomUUID } from "node:crypto";
import { compactListCounts } from "@tafsiri/db/repositories/list-counts";
import {
  deleteSettledWebhookEventsBefore,
  deleteWebhookEndpoint,
  insertWebhookEndpoint,
  insertWebhookEvent,
  listWebhookDeliveries,
} from "@tafsiri/db/repositories/webhooks";
import { createHarness } from "../src/testing/harness";
import { createDb } from "@tafsiri/db";
import { listCountsStoredAndRecomputed } from "./list-counts-fixture";
import { assignedAudio, newAudio } from "./workflow-fixtures";

// Decision 016: the lists' counts are kept in list_counts by triggers, as deltas folded now and
// then. What a user sees in "page n of N" must be exact after any write: through the services,
// through cascades, concurrently from several connections, across folds, after a truncate.
// (assignee-work-counts.test.ts checks them after every step of a random workflow too.)

const h = await createHarness();
afterAll(() => h.close());
const db = h.deps.db;
const admin = await h.createUser("Admin");
const staff = await h.createUser("Staff");

async function expectExact(when: string) {
  const { stored, recomputed, wrongFlags } = await listCountsStoredAndRecomputed(db);
  expect(stored, when).toEqual(recomputed);
  expect(wrongFlags, when).toBe(0);
}

describe("list_counts", () => {
  it("count the lists as the pages show them, through uploads, assignment and a deleted audio", async () => {
    await expectExact("at the start");
    const unassigned = await newAudio(h, admin, { category: "Dementia" });
    const assigned = await assignedAudio(h, admin, staff);
    await expectExact("after an upload and an assignment");
    const asAdmin = h.caller(admin);
    const dementia = await asAdmin.audios.unassigned({ category: "Dementia", page: 1, limit: 100 });
    expect(dementia.items.map((a) => a.id)).toContain(unassigned.id);
    expect(dementia.totalPages).toBe(1);
    const tasks = await asAdmin.tasks.list({ page: 1, limit: 1 });
    expect(tasks.totalPages).toBe(
      Number((await sql<{ n: string }>`select count(*) as n from tasks`.execute(db)).rows[0]?.n),
    );
    // Deleting an audio cascades to its task, submission and the rest.
    await asAdmin.audios.delete({ audioId: assigned.id });
    await expectExact("after deleting an assigned audio");
    const { rows } = await sql<{
      n: string;
    }>`select count(*) as n from notifications where not is_read and recipient_id = ${admin.id}`.execute(db);
    expect((await asAdmin.notifications.list({ limit: 5 })).unreadCount).toBe(Number(rows[0]?.n));
  });

  it("stay exact with writers on several connections at once, while folds run", async () => {
    if (!h.databaseUrl) return; // PGlite has one connection: nothing runs at once.
    const others = await Promise.all(Array.from({ length: 6 }, () => createDb({ databaseUrl: h.databaseUrl })));
    try {
      await Promise.all(
        others.map(async (other, i) => {
          for (let round = 0; round < 40; round++) {
            await other.db.transaction().execute(async (trx) => {
              await sql`insert into audit_log (action, entity) select 'bench', 'audio' from generate_series(1, ${1 + (round % 3)})`.execute(
                trx,
              );
              // Each writer its own notifications, so writers never wait on each other's rows.
              await sql`insert into notifications (recipient_id, message, link) values (${admin.id}, ${`w${i}`}, '/'), (${admin.id}, ${`w${i}`}, '/')`.execute(
                trx,
              );
              await sql`update notifications set is_read = true where recipient_id = ${admin.id} and message = ${`w${i}`} and not is_read and random() < 0.5`.execute(
                trx,
              );
              if ((round + i) % 7 === 0) await sql`select compact_list_counts()`.execute(trx);
            });
          }
        }),
      );
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
    await expectExact("after concurrent writers and folds");
  }, 120_000);

  it("count each webhook endpoint's deliveries through events, pruning and a deleted endpoint; its log pages from either end", async () => {
    const endpoint = (url: string) =>
      insertWebhookEndpoint(db, {
        url,
        description: "",
        eventTypes: ["audio.uploaded"],
        secret: "whsec_x",
        createdBy: admin.id,
      });
    const kept = await endpoint("http://kept.example/hooks");
    const dropped = await endpoint("http://dropped.example/hooks");
    const old = new Date(Date.now() - 3_600_000);
    // 23 events a second apart: the log pages them newest first, ties (none here) by id.
    for (let i = 0; i < 23; i++) {
      const createdAt = new Date(old.getTime() + i * 1000);
      await insertWebhookEvent(db, { id: randomUUID(), type: "audio.uploaded", body: `{"n":${i}}`, createdAt }, [
        kept.id,
        dropped.id,
      ]);
    }
    await sql`update webhook_deliveries set created_at = e.created_at, status = 'delivered'
              from webhook_events e where e.id = webhook_deliveries.event_id`.execute(db);
    await expectExact("after 23 events to two endpoints");
    const pages = await Promise.all([1, 2, 3].map((page) => listWebhookDeliveries(db, kept.id, { page, limit: 10 })));
    expect(pages.map((p) => p!.total)).toEqual([23, 23, 23]);
    const bodies = async (page: number) => {
      const ids = (await listWebhookDeliveries(db, kept.id, { page, limit: 10 }))!.deliveries.map((d) => d.eventId);
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("webhookEvents").select(["id", "body"]).where("id", "in", ids).execute();
      return ids.map((id) => rows.find((r) => r.id === id)!.body);
    };
    // Page 1 from the near end, page 3 (the last, 3 rows) from the far end, page 2 across the middle.
    expect(await bodies(1)).toEqual(Array.from({ length: 10 }, (_, i) => `{"n":${22 - i}}`));
    expect(await bodies(2)).toEqual(Array.from({ length: 10 }, (_, i) => `{"n":${12 - i}}`));
    expect(await bodies(3)).toEqual(['{"n":2}', '{"n":1}', '{"n":0}']);
    expect((await listWebhookDeliveries(db, kept.id, { page: 4, limit: 10 }))!.deliveries).toEqual([]);
    expect(await listWebhookDeliveries(db, randomUUID(), { page: 1, limit: 10 })).toBeNull();
    // Pruning settled events cascades to their deliveries; deleting an endpoint to its own.
    await sql`update webhook_events set created_at = ${new Date(old.getTime() - 86_400_000)}
              where body in ('{"n":0}', '{"n":1}', '{"n":2}')`.execute(db);
    expect(await deleteSettledWebhookEventsBefore(db, old)).toBe(3);
    expect(await deleteWebhookEndpoint(db, dropped.id)).toBe(true);
    await expectExact("after pruning 3 events and deleting an endpoint");
    expect((await listWebhookDeliveries(db, kept.id, { page: 1, limit: 10 }))!.total).toBe(20);
  });

  it("fold each key's deltas into one row and keep the counts", async () => {
    await sql`insert into audit_log (action, entity) select 'bulk', 'audio' from generate_series(1, 5)`.execute(db);
    for (let i = 0; i < 5; i++) await sql`insert into audit_log (action, entity) values ('one', 'audio')`.execute(db);
    const before = await listCountsStoredAndRecomputed(db);
    const removed = await compactListCounts(db);
    expect(removed).toBeGreaterThan(0);
    const { rows } = await sql<{ rows: string; keys: string }>`
      select count(*) as rows, count(distinct key) as keys from list_counts`.execute(db);
    expect(rows[0]?.rows).toBe(rows[0]?.keys);
    const after = await listCountsStoredAndRecomputed(db);
    expect(after.stored).toEqual(before.stored);
    expect(after.stored).toEqual(after.recomputed);
  });

  it("a truncate clears the keys of the emptied tables", async () => {
    await sql`truncate audit_log`.execute(db);
    await sql`truncate audios cascade`.execute(db);
    await expectExact("after the truncates");
    const { stored } = await listCountsStoredAndRecomputed(db);
    expect(Object.keys(stored).filter((k) => /^(audios|unassigned|tasks|submissions|audit_log)/.test(k))).toEqual([]);
  });
});
