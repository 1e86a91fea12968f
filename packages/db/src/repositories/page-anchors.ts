import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Database, Executor } from "../connection";
import { countOfKey } from "./list-counts";
import { offsetOf } from "./pagination";

/** Every this many rows of an anchored list, counted from the oldest, has an anchor (decision 030). */
const ANCHOR_EVERY = 1000;

/** An anchored list: its table, sort column (then id), id type, and which rows are in it. */
interface AnchoredList {
  table: string;
  at: string;
  idType: "uuid" | "bigint";
  /** The list's rows, as a condition on the table's own columns (the list_counts key's rows). */
  scope: string;
}

/**
 * The lists whose deep pages seek from an anchor (decision 030), by their list_counts key
 * (LIST_COUNT_KEYS, decision 016): each list's order is `at` then `id`, newest first on screen. Each scope is
 * written as the list's page query and its index have it (submissions_needs_review_idx's
 * predicate with literals).
 */
export const ANCHORED_LISTS = {
  tasks: { table: "tasks", at: "created_at", idType: "uuid", scope: "true" },
  "audios:Control": {
    table: "audios",
    at: "created_at",
    idType: "uuid",
    scope: "category = 'Control'",
  },
  "audios:Dementia": {
    table: "audios",
    at: "created_at",
    idType: "uuid",
    scope: "category = 'Dementia'",
  },
  "submissions:all": { table: "submissions", at: "updated_at", idType: "uuid", scope: "true" },
  "submissions:needsReview": {
    table: "submissions",
    at: "updated_at",
    idType: "uuid",
    scope: "(translation_script_approval_status = 'Pending' or recorded_audio_approval_status = 'Pending')",
  },
  "submissions:approved": {
    table: "submissions",
    at: "updated_at",
    idType: "uuid",
    scope: "approval_status = 'Approved'",
  },
  "submissions:rejected": {
    table: "submissions",
    at: "updated_at",
    idType: "uuid",
    scope: "approval_status = 'Rejected'",
  },
  recommendations: { table: "recommendations", at: "created_at", idType: "uuid", scope: "true" },
  audit_log: { table: "audit_log", at: "created_at", idType: "bigint", scope: "true" },
} as const satisfies Record<string, AnchoredList>;

export type AnchoredListKey = keyof typeof ANCHORED_LISTS;

/** The smallest id of a type: the sort key of a list's start is ('-infinity', this). */
const LOWEST_ID = { uuid: "'00000000-0000-0000-0000-000000000000'::uuid", bigint: "(-9223372036854775808)::bigint" };

/**
 * SQL: the ids of page `page` (from 1) of `limit` rows of anchored list `list`, newest first, for
 * `isOneOf` (a deferred join, decision 010). It walks the shorter way (decision 030): from the
 * newest with an OFFSET, or up from the nearest anchor that still holds (the list's start when
 * none does), skipping the rows between anchor and page. Both ways read the list's order index;
 * the count is the exact one kept in list_counts, read in the same statement, so the page is the
 * one OFFSET would give in the reader's snapshot.
 */
export function anchoredPageIds(
  db: Executor,
  list: AnchoredListKey,
  q: { page: number; limit: number },
): RawBuilder<{ id: string }> {
  const l = ANCHORED_LISTS[list];
  const table = sql.raw(l.table);
  const at = sql.raw(`t.${l.at}`);
  const scope = sql.raw(l.scope);
  const idType = sql.raw(l.idType);
  const offset = offsetOf(q.page, q.limit);
  // s: the page in ranks from the oldest (start, size); a: the anchor to walk from and how far.
  // The newest-first OFFSET is a sub-select, so a planner given the values (the Logs page is not
  // planned generically) does not cost the gated branch as a walk of `offset` rows: a deep page
  // of the audit log's 7.5 million entries was estimated at 180,000–330,000, over jit_above_cost,
  // and spent 100–300 ms compiling JIT code for a 1 ms statement. Generic plans see no value anyway.
  return sql<{ id: string }>`
    with s as (
      select greatest(0, n.total - ${offset} - ${q.limit}) as start,
             least(${q.limit}, greatest(0, n.total - ${offset})) as size
      from (select (${countOfKey(db, list)})::bigint as total) n
    ),
    a as (
      select s.start, s.size, coalesce(x.rank, 0) as rank, coalesce(x.at, '-infinity') as at,
             coalesce(x.id::${idType}, ${sql.raw(LOWEST_ID[l.idType])}) as id
      from s left join lateral (
        select p.rank, p.at, p.id from page_anchors p
        where p.list = ${list} and p.rank <= s.start
          and not exists (select 1 from page_anchor_changes c where c.list = ${list} and (c.at, c.id) < (p.at, p.id))
        order by p.rank desc limit 1
      ) x on true
    )
    select newest.id from (
      select t.id from ${table} t
      where ${scope} and ${offset} <= (select a.start - a.rank from a)
      order by ${at} desc, t.id desc limit ${q.limit} offset (select ${offset}::bigint)
    ) newest
    union all
    select anchored.id from a cross join lateral (
      select t.id from ${table} t
      where ${scope} and (${at}, t.id) >= (a.at, a.id)
      order by ${at}, t.id limit a.size offset a.start - a.rank
    ) anchored
    where ${offset} > a.start - a.rank`;
}

/** What one rebuild of one list did: anchors kept, written, and changes it accounted for. */
export interface AnchorRebuild {
  list: AnchoredListKey;
  kept: number;
  written: number;
  changes: number;
}

/**
 * Rebuilds the anchors of `list` that a change may have moved (decision 030): keeps those at or
 * below the list's smallest recorded change, rewrites the rest in one walk of the list's index
 * from the last kept one, and deletes the changes this snapshot saw, all in one REPEATABLE READ
 * transaction. Answers null when there was nothing to do, another rebuild of the list holds its
 * advisory lock, or a concurrent rebuild made this one's snapshot stale (retried at the next
 * round). Safe beside writers: a change committed after the snapshot stays and keeps the anchors
 * above it unused until the next rebuild. `every`: the anchors' spacing in rows (ANCHOR_EVERY;
 * tests use fewer); one list keeps one spacing.
 */
export async function rebuildPageAnchors(
  db: Database,
  list: AnchoredListKey,
  opts: { every?: number } = {},
): Promise<AnchorRebuild | null> {
  const l = ANCHORED_LISTS[list];
  const every = opts.every ?? ANCHOR_EVERY;
  try {
    return await db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const { rows: locked } = await sql<{ locked: boolean }>`
          select pg_try_advisory_xact_lock(hashtext('page_anchors'), hashtext(${list})) as locked`.execute(trx);
        if (!locked[0]?.locked) return null;
        const { rows: pending } = await sql<{ changed: boolean }>`
          select exists (select 1 from page_anchor_changes where list = ${list}) as changed`.execute(trx);
        if (!pending[0]?.changed) return null;
        // The last anchor no change lies below: the rows before it are as they were. Keys stay in
        // SQL (a JavaScript Date would drop the timestamps' microseconds).
        const { rows: keptRows } = await sql<{ rank: string }>`
          select a.rank from page_anchors a
          where a.list = ${list}
            and not exists (select 1 from page_anchor_changes c where c.list = ${list} and (c.at, c.id) < (a.at, a.id))
          order by a.rank desc limit 1`.execute(trx);
        const keptRank = Number(keptRows[0]?.rank ?? 0);
        await sql`delete from page_anchors where list = ${list} and rank > ${keptRank}`.execute(trx);
        const from: RawBuilder<SqlBool> = keptRows[0]
          ? sql<SqlBool>`(t.${sql.raw(l.at)}, t.id) >= (
              select k.at, k.id::${sql.raw(l.idType)} from page_anchors k where k.list = ${list} and k.rank = ${keptRank})`
          : sql<SqlBool>`true`;
        // Row 0 of the walk has rank keptRank (the kept anchor's row, or the first after it when
        // that row is gone); every ANCHOR_EVERY-th row after it gets an anchor.
        const written = await sql`
          insert into page_anchors (list, rank, at, id)
          select ${list}, ${keptRank} + n, at, page_anchor_id(id) from (
            select t.${sql.raw(l.at)} as at, t.id, row_number() over (order by t.${sql.raw(l.at)}, t.id) - 1 as n
            from ${sql.raw(l.table)} t where ${sql.raw(l.scope)} and ${from}
          ) walk
          where n > 0 and (${keptRank} + n) % ${every} = 0`.execute(trx);
        const changes = await sql`delete from page_anchor_changes where list = ${list}`.execute(trx);
        return {
          list,
          kept: keptRank / every,
          written: Number(written.numAffectedRows ?? 0),
          changes: Number(changes.numAffectedRows ?? 0),
        };
      });
  } catch (error) {
    // 40001: a concurrent rebuild committed after this snapshot (serialization failure); 23505:
    // it wrote the same anchors. Its anchors stand; the next round starts from them.
    const code = (error as { code?: unknown }).code;
    if (code === "40001" || code === "23505") return null;
    throw error;
  }
}

/** Rebuilds every anchored list that has changes (rebuildPageAnchors, one transaction per list). */
export async function rebuildAllPageAnchors(db: Database, opts: { every?: number } = {}): Promise<AnchorRebuild[]> {
  const done: AnchorRebuild[] = [];
  for (const list of Object.keys(ANCHORED_LISTS) as AnchoredListKey[]) {
    const rebuilt = await rebuildPageAnchors(db, list, opts);
    if (rebuilt) done.push(rebuilt);
  }
  return done;
}
