import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createDb } from "@tafsiri/db";
import {
  ANCHORED_LISTS,
  anchoredPageIds,
  rebuildAllPageAnchors,
  rebuildPageAnchors,
  type AnchoredListKey,
} from "@tafsiri/db/repositories/page-anchors";
import { createHarness } from "../src/testing/harness";

// Decision 030: a deep page of an anchored list seeks from the nearest page anchor that still
// holds. Whatever the anchors' state (none, built, made stale by inserts, deletes and moves below
// them, rebuilt), every page must hold exactly the rows OFFSET gives, in the reader's snapshot.

const h = await createHarness();
afterAll(() => h.close());
const db = h.deps.db;
const admin = await h.createUser("Admin");
const staff = await h.createUser("Staff");
const LISTS = Object.keys(ANCHORED_LISTS) as AnchoredListKey[];
/** Anchors every few rows, so a few hundred rows give many. */
const EVERY = 7;

/** A random whole number in [0, n), from a fixed sequence so a failure repeats. */
let seed = 20261126;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return Math.floor((seed / 2 ** 31) * n);
}

/** A timestamp among a few hundred minutes, often shared (the id breaks ties). */
function someTime(): string {
  return new Date(Date.UTC(2026, 0, 1) + random(300) * 60_000).toISOString();
}

async function addRows(n: number) {
  for (let i = 0; i < n; i++) {
    const at = someTime();
    const category = random(2) === 0 ? "Control" : "Dementia";
    const { rows } = await sql<{ id: string }>`
      insert into audios (filename, category, file_key, mime_type, size_bytes, created_at)
      values (${`anchor_${i}_${random(1e9)}`}, ${category}, 'none', 'audio/wav', 1, ${at}) returning id`.execute(db);
    const audioId = rows[0]!.id;
    if (random(5) === 0) continue; // some audios stay unassigned
    const task = await sql<{ id: string }>`
      insert into tasks (audio_id, assigned_to, created_at) values (${audioId}, ${staff.id}, ${someTime()}) returning id`.execute(
      db,
    );
    const taskId = task.rows[0]!.id;
    if (random(3) === 0) {
      await sql`insert into recommendations (task_id, recommended_to, created_at) values (${taskId}, ${admin.id}, ${someTime()})`.execute(
        db,
      );
    }
    if (random(4) === 0) continue;
    await sql`
      insert into submissions (task_id, assigned_to, updated_at, translation_script_approval_status, approval_status)
      values (${taskId}, ${staff.id}, ${someTime()}, ${["Pending", "Approved", "Rejected", "No transcript"][random(4)]!},
              ${["Pending", "Approved", "Rejected"][random(3)]!})`.execute(db);
  }
  await sql`
    insert into audit_log (action, entity, created_at)
    select 'anchor-test', 'audio', ${someTime()}::timestamptz + (g % 5) * interval '1 minute' from generate_series(1, ${n * 2}) g`.execute(
    db,
  );
}

/** Moves and removes rows below the anchors: backdated inserts, deletes, re-sorted and re-filtered rows. */
async function shuffleRows() {
  await sql`delete from audios where id in (select id from audios order by random() limit 5)`.execute(db);
  await sql`update submissions set updated_at = ${someTime()} where id in (select id from submissions order by random() limit 6)`.execute(
    db,
  );
  await sql`
    update submissions set approval_status = case approval_status when 'Pending' then 'Approved' else 'Pending' end,
      translation_script_approval_status = 'Pending'
    where id in (select id from submissions order by random() limit 6)`.execute(db);
  await sql`update tasks set created_at = ${someTime()} where id in (select id from tasks order by random() limit 3)`.execute(
    db,
  );
  await sql`delete from audit_log where id in (select id from audit_log order by random() limit 9)`.execute(db);
  await sql`delete from recommendations where id in (select id from recommendations order by random() limit 2)`.execute(
    db,
  );
  await addRows(8);
}

/** A page as OFFSET reads it: the list's rows newest first. */
async function offsetPage(list: AnchoredListKey, page: number, limit: number): Promise<string[]> {
  const l = ANCHORED_LISTS[list];
  const { rows } = await sql<{ id: string }>`
    select t.id::text as id from ${sql.raw(l.table)} t where ${sql.raw(l.scope)}
    order by t.${sql.raw(l.at)} desc, t.id desc limit ${limit} offset ${(page - 1) * limit}`.execute(db);
  return rows.map((r) => r.id);
}

async function anchoredPage(list: AnchoredListKey, page: number, limit: number): Promise<string[]> {
  const l = ANCHORED_LISTS[list];
  const { rows } = await sql<{ id: string }>`
    select p.id::text as id from (${anchoredPageIds(db, list, { page, limit })}) p
    join ${sql.raw(l.table)} t on t.id = p.id order by t.${sql.raw(l.at)} desc, t.id desc`.execute(db);
  return rows.map((r) => r.id);
}

async function rowsOf(list: AnchoredListKey): Promise<number> {
  const l = ANCHORED_LISTS[list];
  const { rows } = await sql<{
    n: string;
  }>`select count(*) as n from ${sql.raw(l.table)} where ${sql.raw(l.scope)}`.execute(db);
  return Number(rows[0]!.n);
}

/** Every page of every anchored list, at two page sizes, and one past the end, against OFFSET. */
async function expectEveryPageAsOffset(when: string) {
  for (const list of LISTS) {
    const total = await rowsOf(list);
    for (const limit of [3, 10]) {
      for (let page = 1; page <= Math.ceil(total / limit) + 1; page++) {
        expect(await anchoredPage(list, page, limit), `${when}: ${list} page ${page} of ${limit}`).toEqual(
          await offsetPage(list, page, limit),
        );
      }
    }
  }
}

/** Each anchor's rank is the number of the list's rows before its key. */
async function expectAnchorsExact(when: string) {
  for (const list of LISTS) {
    const l = ANCHORED_LISTS[list];
    const { rows } = await sql<{ rank: string; before: string }>`
      select a.rank, (select count(*) from ${sql.raw(l.table)} t
                      where ${sql.raw(l.scope)} and (t.${sql.raw(l.at)}, page_anchor_id(t.id)) < (a.at, a.id)) as before
      from page_anchors a where a.list = ${list}`.execute(db);
    for (const row of rows) expect(row.before, `${when}: ${list} anchor ${row.rank}`).toBe(row.rank);
    expect(rows.length, `${when}: ${list} anchors`).toBe(Math.floor(((await rowsOf(list)) - 1) / EVERY));
  }
}

describe("page anchors", () => {
  it("give every page exactly as OFFSET does, with no anchors, built, stale and rebuilt", async () => {
    await addRows(90);
    await expectEveryPageAsOffset("with no anchors");
    const built = await rebuildAllPageAnchors(db, { every: EVERY });
    expect(built.map((b) => b.list).sort()).toEqual([...LISTS].sort());
    expect(built.every((b) => b.written > 0)).toBe(true);
    await expectAnchorsExact("after the first build");
    await expectEveryPageAsOffset("after the first build");
    for (let round = 0; round < 3; round++) {
      await shuffleRows();
      await expectEveryPageAsOffset(`round ${round}, stale anchors`);
      await rebuildAllPageAnchors(db, { every: EVERY });
      await expectAnchorsExact(`round ${round}, rebuilt`);
      await expectEveryPageAsOffset(`round ${round}, rebuilt`);
    }
    // Some 700 list queries: 9 s alone, up to 40 s beside the rest of the suite on two cores.
  }, 90_000);

  it("rebuild only past the oldest change, and do nothing when nothing changed", async () => {
    await rebuildAllPageAnchors(db, { every: EVERY });
    expect(await rebuildAllPageAnchors(db, { every: EVERY })).toEqual([]);
    // An insert newest of all keeps every anchor: the rebuild writes none below it.
    const before = await sql<{ n: string }>`select count(*) as n from page_anchors where list = 'audit_log'`.execute(
      db,
    );
    await sql`insert into audit_log (action, entity, created_at) values ('anchor-test', 'audio', '2030-01-01')`.execute(
      db,
    );
    const rebuilt = await rebuildPageAnchors(db, "audit_log", { every: EVERY });
    expect(rebuilt?.kept).toBe(Number(before.rows[0]!.n));
    // An update that moves nothing (not the sort key, not a list) records no change.
    await sql`update tasks set updated_at = now()`.execute(db);
    expect(await rebuildPageAnchors(db, "tasks", { every: EVERY })).toBeNull();
    await expectAnchorsExact("after partial rebuilds");
  });

  it("serve the pages of the real lists through their procedures", async () => {
    const asAdmin = h.caller(admin);
    const limit = 4;
    const tasks = await asAdmin.tasks.list({ page: 1, limit });
    for (let page = 1; page <= tasks.totalPages; page += 3) {
      const shown = (await asAdmin.tasks.list({ page, limit })).items.map((t) => t.id);
      expect(shown, `tasks page ${page}`).toEqual(await offsetPage("tasks", page, limit));
    }
    const logs = await asAdmin.logs.list({ page: 1, limit: 10 });
    const middle = Math.ceil(logs.totalPages / 2);
    const shownLogs = (await asAdmin.logs.list({ page: middle, limit: 10 })).items.map((e) => String(e.id));
    expect(shownLogs).toEqual(await offsetPage("audit_log", middle, 10));
  });

  it("stay exact while writers and rebuilds run at once on several connections", async () => {
    if (!h.databaseUrl) return; // PGlite has one connection: nothing runs at once.
    const others = await Promise.all(Array.from({ length: 4 }, () => createDb({ databaseUrl: h.databaseUrl })));
    try {
      await Promise.all([
        ...others.slice(0, 2).map(async (other) => {
          for (let round = 0; round < 30; round++) {
            await sql`
              insert into audit_log (action, entity, created_at)
              values ('anchor-test', 'audio', ${someTime()}), ('anchor-test', 'audio', ${someTime()})`.execute(
              other.db,
            );
            await sql`delete from audit_log where id in (select id from audit_log order by random() limit 1)`.execute(
              other.db,
            );
          }
        }),
        ...others.slice(2).map(async (other) => {
          for (let round = 0; round < 15; round++) await rebuildPageAnchors(other.db, "audit_log", { every: EVERY });
        }),
      ]);
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
    for (let page = 1; page <= Math.ceil((await rowsOf("audit_log")) / 10) + 1; page++) {
      expect(await anchoredPage("audit_log", page, 10), `audit_log page ${page}`).toEqual(
        await offsetPage("audit_log", page, 10),
      );
    }
    await rebuildPageAnchors(db, "audit_log", { every: EVERY });
    await expectAnchorsExact("after concurrent writers and rebuilds");
  });
});
