import { sql, type Kysely } from "kysely";

/**
 * Page anchors: deep list pages without long OFFSETs (decision 030).
 *
 * page_anchors holds, per anchored list (a list_counts key: tasks, audios:<category>,
 * submissions:all|needsReview|approved|rejected, recommendations, audit_log), the sort key
 * (`at`, `id`) of every 1,000th row counted from the oldest, and its rank: how many of the list's
 * rows sort before it. A deep page seeks to the nearest anchor below it and skips fewer than 1,000
 * rows.
 *
 * page_anchor_changes says where a list's positions may have moved since its anchors were built:
 * a statement trigger on each anchored table adds, per list the statement changed, the smallest
 * sort key it inserted, deleted or moved (an update counts only when it changed the row's sort
 * key or its lists). An anchor above a visible change is not used; one at or below it still holds
 * (the rows before it did not change). The trigger writes in the writing transaction and only
 * inserts, so writers never wait on each other (as list_counts, decision 016).
 *
 * The anchors are rebuilt by the application (rebuildPageAnchors in
 * packages/db/src/repositories/page-anchors.ts), from the last anchor that still holds, in one
 * REPEATABLE READ transaction that then deletes the changes its snapshot saw. This migration
 * only records a change at the very start of every list, so the first rebuild builds them all.
 *
 * `id` is kept as text in the C collation, written by page_anchor_id() so that text order is the
 * id's own order (a uuid's lowercase hex; audit_log's bigint zero-padded to 20 digits); a seek casts
 * it back to the table's type. A truncate clears the table's anchors and changes. Frozen in time: imports
 * no application code.
 */
const ANCHORED = {
  tasks: { at: "created_at", lists: ["tasks"] },
  audios: { at: "created_at", lists: ["audios:Control", "audios:Dementia"] },
  submissions: {
    at: "updated_at",
    lists: ["submissions:all", "submissions:needsReview", "submissions:approved", "submissions:rejected"],
  },
  recommendations: { at: "created_at", lists: ["recommendations"] },
  audit_log: { at: "created_at", lists: ["audit_log"] },
} as const;
type Anchored = keyof typeof ANCHORED;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table page_anchors (
      list text not null,
      rank bigint not null,
      at timestamptz not null,
      id text collate "C" not null,
      primary key (list, rank)
    )`.execute(db);
  await sql`create table page_anchor_changes (list text not null, at timestamptz not null, id text collate "C" not null)`.execute(
    db,
  );
  await sql`create index page_anchor_changes_list_at_idx on page_anchor_changes (list, at, id)`.execute(db);

  await sql`create function page_anchor_id(id uuid) returns text language sql immutable as $$ select id::text $$`.execute(
    db,
  );
  await sql`
    create function page_anchor_id(id bigint) returns text language sql immutable as $$ select lpad(id::text, 20, '0') $$`.execute(
    db,
  );
  // TG_ARGV: the table's list_count_keys function, its sort column, then its anchored lists. Per
  // list, the smallest sort key among the rows the statement added to it, took from it, or moved
  // within it (list_count_keys_<table> of decision 016 says which lists a row is in).
  await sql`
    create function page_anchor_changes_apply() returns trigger language plpgsql as $$
    declare
      keys text := quote_ident(tg_argv[0]);
      at text := quote_ident(tg_argv[1]);
      lists text[] := tg_argv[2:];
    begin
      if tg_op = 'INSERT' then
        execute format('insert into page_anchor_changes (list, at, id)
          select k, at, page_anchor_id(id) from (
            select distinct on (k) k, r.%2$s as at, r.id from new_rows r cross join lateral unnest(%1$s(r)) k
            where k = any ($1) order by k, r.%2$s, r.id) c', keys, at) using lists;
      elsif tg_op = 'DELETE' then
        execute format('insert into page_anchor_changes (list, at, id)
          select k, at, page_anchor_id(id) from (
            select distinct on (k) k, r.%2$s as at, r.id from old_rows r cross join lateral unnest(%1$s(r)) k
            where k = any ($1) order by k, r.%2$s, r.id) c', keys, at) using lists;
      else
        execute format('insert into page_anchor_changes (list, at, id)
          select k, at, page_anchor_id(id) from (
            select distinct on (k) k, at, id from (
              select k, o.%2$s as at, o.id from old_rows o join new_rows n on n.id = o.id
                cross join lateral unnest(%1$s(o)) k
                where o.%2$s is distinct from n.%2$s or not (k = any (%1$s(n)))
              union all
              select k, n.%2$s, n.id from old_rows o join new_rows n on n.id = o.id
                cross join lateral unnest(%1$s(n)) k
                where o.%2$s is distinct from n.%2$s or not (k = any (%1$s(o)))
            ) moved where k = any ($1) order by k, at, id) c', keys, at) using lists;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function page_anchors_truncated() returns trigger language plpgsql as $$
    begin
      delete from page_anchors where list = any (tg_argv);
      delete from page_anchor_changes where list = any (tg_argv);
      return null;
    end $$`.execute(db);

  const referencing = {
    insert: sql`referencing new table as new_rows`,
    update: sql`referencing old table as old_rows new table as new_rows`,
    delete: sql`referencing old table as old_rows`,
  };
  for (const table of Object.keys(ANCHORED) as Anchored[]) {
    const { at, lists } = ANCHORED[table];
    const args = [`list_count_keys_${table}`, at, ...lists].map((a) => sql.lit(a));
    for (const operation of ["insert", "update", "delete"] as const) {
      await sql`
        create trigger ${sql.id(`${table}_page_anchors_${operation}`)}
        after ${sql.raw(operation)} on ${sql.table(table)} ${referencing[operation]}
        for each statement execute function page_anchor_changes_apply(${sql.join(args)})`.execute(db);
    }
    await sql`
      create trigger ${sql.id(`${table}_page_anchors_truncate`)} after truncate on ${sql.table(table)}
      for each statement execute function page_anchors_truncated(${sql.join(lists.map((l) => sql.lit(l)))})`.execute(
      db,
    );
    // Everything may have moved: the first rebuild builds the list's anchors from its start.
    for (const list of lists) {
      await sql`insert into page_anchor_changes (list, at, id) values (${list}, '-infinity', '')`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(ANCHORED) as Anchored[]) {
    for (const operation of ["truncate", "delete", "update", "insert"] as const) {
      await sql`drop trigger if exists ${sql.id(`${table}_page_anchors_${operation}`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
  }
  await sql`drop function if exists page_anchors_truncated()`.execute(db);
  await sql`drop function if exists page_anchor_changes_apply()`.execute(db);
  await sql`drop function if exists page_anchor_id(uuid)`.execute(db);
  await sql`drop function if exists page_anchor_id(bigint)`.execute(db);
  await db.schema.dropTable("page_anchor_changes").ifExists().execute();
  await db.schema.dropTable("page_anchors").ifExists().execute();
}
