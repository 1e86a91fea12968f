import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { CONSENT_STATUSES, PARTICIPANT_GROUPS } from "@tafsiri/domain";
import { createDb } from "@tafsiri/db";
import { compactListCounts } from "@tafsiri/db/repositories/list-counts";
import { harnessWithUsers } from "./workflow-fixtures";

// Decision 016 (migration 20261211000400_participant_list_counts): the participants list's totals
// without a search are kept in list_counts, per group, consent status and both. What the list
// shows must be exact after any write: one row or many in a statement, a group or consent change,
// an update that changes neither, deletes, writers on several connections, folds, a truncate.

const { h, admin } = await harnessWithUsers();
afterAll(() => h.close());
const db = h.deps.db;
const asAdmin = h.caller(admin);

/** The participants' keys as kept (sum of deltas) and as counted from the table, without zeros. */
async function keptAndCounted() {
  const kept = await sql<{ key: string; n: string }>`
    select key, sum(n) as n from list_counts where key like 'participants:%' group by key having sum(n) <> 0`.execute(
    db,
  );
  const counted = await sql<{ key: string; n: string }>`
    select key, count(*) as n from participants p cross join lateral (values
      ('participants:*:*'),
      ('participants:' || p.study_group || ':*'),
      ('participants:*:' || p.consent_status),
      ('participants:' || p.study_group || ':' || p.consent_status)) k(key)
    group by key`.execute(db);
  const asRecord = (rows: Array<{ key: string; n: string }>) =>
    Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  return { kept: asRecord(kept.rows), counted: asRecord(counted.rows) };
}

/** Expects the kept totals to equal a real count, and every filter of the list to show it. */
async function expectExact(when: string) {
  const { kept, counted } = await keptAndCounted();
  expect(kept, when).toEqual(counted);
  for (const group of [undefined, ...PARTICIPANT_GROUPS]) {
    for (const consent of [undefined, ...CONSENT_STATUSES]) {
      const page = await asAdmin.participants.list({ group, consent, limit: 7 });
      const { rows } = await sql<{ n: string }>`
        select count(*) as n from participants
        where (${group ?? null}::text is null or study_group = ${group ?? null})
          and (${consent ?? null}::text is null or consent_status = ${consent ?? null})`.execute(db);
      const n = Number(rows[0]?.n);
      expect({ group, consent, total: page.total, totalPages: page.totalPages }, when).toEqual({
        group,
        consent,
        total: n,
        totalPages: Math.ceil(n / 7),
      });
    }
  }
}

describe("participants list totals kept in list_counts", () => {
  it("stay exact through creates, a bulk insert, group and consent changes, and deletes", async () => {
    await expectExact("at the start");
    const one = (await asAdmin.participants.create({ code: "Kc0001", group: "Dementia", consentStatus: "given" }))
      .participant;
    await asAdmin.participants.create({ code: "Kc0002", group: "Control" });
    await expectExact("after two creates");

    // One statement of many rows (as a CSV import or a seed writes them).
    await sql`
      insert into participants (code, study_group, consent_status)
      select 'Bulk' || lpad(i::text, 4, '0'),
             case when i % 3 = 0 then 'Dementia' else 'Control' end,
             (array['given', 'restricted', 'withdrawn', 'not_recorded'])[1 + i % 4]
      from generate_series(1, 250) i`.execute(db);
    await expectExact("after a bulk insert of 250 rows");

    const fields = { participantId: one.id, code: "Kc0001", group: "Control", consentStatus: "withdrawn" } as const;
    await asAdmin.participants.update(fields);
    await expectExact("after a group and consent change");
    await asAdmin.participants.update({ ...fields, notes: "Mornings." });
    await expectExact("after an update that moves no total");

    // Many rows at once: a consent change, a group change that swaps both groups, a no-op.
    await sql`update participants set consent_status = 'withdrawn' where code like 'Bulk%' and consent_status = 'given'`.execute(
      db,
    );
    await sql`
      update participants set study_group = case study_group when 'Control' then 'Dementia' else 'Control' end
      where code like 'Bulk0%'`.execute(db);
    await sql`update participants set notes = 'bulk' where code like 'Bulk%'`.execute(db);
    await expectExact("after bulk updates");

    await sql`delete from participants where id = ${one.id}`.execute(db);
    await sql`delete from participants where code like 'Bulk01%'`.execute(db);
    await expectExact("after deletes of one and of many");

    // A search counts its matches at read time.
    const search = await asAdmin.participants.list({ search: "bulk02", group: "Control", limit: 5 });
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from participants where lower(code) like 'bulk02%' and study_group = 'Control'`.execute(db);
    expect(search.total).toBe(Number(rows[0]?.n));
    expect(search.total).toBeGreaterThan(0);
  });

  it("stay exact with writers on several connections at once, while folds run", async () => {
    if (!h.databaseUrl) return; // PGlite has one connection: nothing runs at once.
    // Writer i, on its own connection, in 20 transactions: inserts 1–3 participants, moves about
    // half of its own to restricted, now and then deletes a round's rows or folds. Each writer its
    // own codes, so writers never wait on each other's rows.
    const writer = async (i: number) => {
      const other = await createDb({ databaseUrl: h.databaseUrl });
      try {
        for (let round = 0; round < 20; round++) {
          await other.db.transaction().execute(async (trx) => {
            await sql`
              insert into participants (code, study_group, consent_status)
              select ${`W${i}r${round}-`} || n, case when n % 2 = 0 then 'Control' else 'Dementia' end, 'given'
              from generate_series(1, ${1 + (round % 3)}) n`.execute(trx);
            const mine = `W${i}r%`;
            await sql`update participants set consent_status = 'restricted' where code like ${mine} and random() < 0.5`.execute(
              trx,
            );
            if (round % 4 === 3)
              await sql`delete from participants where code like ${`W${i}r${round - 1}-%`}`.execute(trx);
            if ((round + i) % 5 === 0) await compactListCounts(trx);
          });
        }
      } finally {
        await other.close();
      }
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    await expectExact("after concurrent writers and folds");
  }, 120_000);

  it("keep the totals across a fold, and a truncate clears them", async () => {
    const before = await keptAndCounted();
    await compactListCounts(db);
    expect(await keptAndCounted()).toEqual(before);
    await expectExact("after a fold");
    await sql`truncate participants cascade`.execute(db);
    const { kept } = await keptAndCounted();
    expect(kept).toEqual({});
    await expectExact("after a truncate");
  });
});
