import { sql, type Kysely } from "kysely";

/**
 * Exact list counts without counting rows (decision 016).
 *
 * list_counts holds signed deltas: the count of a key is the sum of its rows' n. Triggers on the
 * counted tables add one row per key a statement changes, in the writing transaction, so the sum
 * is exact in every snapshot. Deltas are only ever inserted, never updated, so concurrent writers
 * never wait for each other on a counter row (and cannot deadlock over two of them);
 * compact_list_counts() folds each key's rows into one, run by one counting statement in
 * COMPACT_EVERY on average (one fold at a time, under an advisory lock it only tries), so a count
 * reads a handful of index entries whatever the table's size and however many processes write.
 *
 * The keys (list_count_keys_<table>(row) gives a row's):
 * - audios:<category>, and unassigned:<category> for an audio without a task (audios.has_task);
 * - tasks; recommendations; audit_log;
 * - submissions:all, submissions:needsReview (a transcript or a recording Pending),
 *   submissions:approved, submissions:rejected (approval_status), as the Submissions filters;
 * - unread:<recipient id>: a user's unread notifications.
 *
 * audios.has_task is kept by a trigger on tasks (tasks.audio_id is unique), and a partial index
 * on the audios without a task, by category and filename, serves the unassigned list. Two more
 * indexes: audios (category, created_at, id) for Manage Audios' deep pages (replacing (category,
 * created_at)), and lower(filename) in the C collation for the search's prefix matches.
 *
 * A truncate of a counted table clears its keys (the table is empty). Triggers are created before
 * the back-fill: CREATE TRIGGER holds SHARE ROW EXCLUSIVE until the migration commits, so no
 * write falls between the two. Frozen in time: imports no application code.
 */
const COUNTED = {
  audios: "audios:% unassigned:%",
  tasks: "tasks",
  submissions: "submissions:%",
  recommendations: "recommendations",
  audit_log: "audit_log",
  notifications: "unread:%",
} as const;
type Counted = keyof typeof COUNTED;
/** On average one counting statement in this many folds the deltas. */
const COMPACT_EVERY = 50;
/** The transaction-level advisory lock of a fold (compact_list_counts): one at a time. */
const COMPACT_LOCK = 7_311_202_611;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table audios add column has_task boolean not null default false`.execute(db);
  await sql`update audios a set has_task = true where exists (select 1 from tasks t where t.audio_id = a.id)`.execute(
    db,
  );
  await sql`create index audios_unassigned_idx on audios (category, filename) where not has_task`.execute(db);
  // Search: prefix matches by filename ignoring case, read in order (LIKE 'x%' on lower(filename)
  // in the C collation, which a btree serves for both the range and the order).
  await sql`create index audios_filename_lower_idx on audios ((lower(filename) collate "C"), filename)`.execute(db);
  // Manage Audios: a category newest first with the id as tie-break, so a deep page walks the index.
  await sql`create index audios_category_created_at_id_idx on audios (category, created_at, id)`.execute(db);
  await sql`drop index if exists audios_category_idx`.execute(db);

  await sql`
    create function tasks_mark_audios() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update audios set has_task = true where id in (select audio_id from new_rows) and not has_task;
      elsif tg_op = 'DELETE' then
        update audios set has_task = false where id in (select audio_id from old_rows) and has_task;
      else
        update audios a set has_task = exists (select 1 from tasks t where t.audio_id = a.id)
        where a.id in (select o.audio_id from old_rows o join new_rows n on n.id = o.id where o.audio_id <> n.audio_id
                       union
                       select n.audio_id from old_rows o join new_rows n on n.id = o.id where o.audio_id <> n.audio_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function tasks_truncated_mark_audios() returns trigger language plpgsql as $$
    begin
      update audios set has_task = false where has_task;
      return null;
    end $$`.execute(db);

  await sql`create table list_counts (key text not null, n bigint not null)`.execute(db);
  await sql`create index list_counts_key_idx on list_counts (key) include (n)`.execute(db);

  // What a row counts towards. Row-typed SQL functions, called per row of a transition table.
  await sql`
    create function list_count_keys_audios(r audios) returns text[] language sql immutable as $$
      select array_remove(array['audios:' || r.category, case when not r.has_task then 'unassigned:' || r.category end], null)
    $$`.execute(db);
  await sql`
    create function list_count_keys_tasks(r tasks) returns text[] language sql immutable as $$ select array['tasks'] $$`.execute(
    db,
  );
  await sql`
    create function list_count_keys_submissions(r submissions) returns text[] language sql immutable as $$
      select array_remove(array[
        'submissions:all',
        case when r.translation_script_approval_status = 'Pending' or r.recorded_audio_approval_status = 'Pending'
             then 'submissions:needsReview' end,
        case r.approval_status when 'Approved' then 'submissions:approved' when 'Rejected' then 'submissions:rejected' end
      ], null)
    $$`.execute(db);
  await sql`
    create function list_count_keys_recommendations(r recommendations) returns text[] language sql immutable as $$
      select array['recommendations']
    $$`.execute(db);
  await sql`
    create function list_count_keys_audit_log(r audit_log) returns text[] language sql immutable as $$
      select array['audit_log']
    $$`.execute(db);
  await sql`
    create function list_count_keys_notifications(r notifications) returns text[] language sql immutable as $$
      select case when r.is_read then array[]::text[] else array['unread:' || r.recipient_id] end
    $$`.execute(db);

  // One trigger function for every counted table: TG_ARGV[0] names its keys function. A
  // statement's rows add +1 (new) and -1 (old) to each of their keys; keys whose sum is 0 (an
  // update that changed nothing counted) write nothing.
  await sql`
    create function list_counts_apply() returns trigger language plpgsql as $$
    declare
      keys text := quote_ident(tg_argv[0]);
    begin
      if tg_op = 'INSERT' then
        execute format('insert into list_counts (key, n)
          select k, count(*) from new_rows r cross join lateral unnest(%s(r)) k group by k', keys);
      elsif tg_op = 'DELETE' then
        execute format('insert into list_counts (key, n)
          select k, -count(*) from old_rows r cross join lateral unnest(%s(r)) k group by k', keys);
      else
        execute format('insert into list_counts (key, n)
          select k, sum(d) from (
            select k, -1 as d from old_rows r cross join lateral unnest(%1$s(r)) k
            union all
            select k, 1 from new_rows r cross join lateral unnest(%1$s(r)) k
          ) c group by k having sum(d) <> 0', keys);
      end if;
      -- Now and then (one statement in COMPACT_EVERY), the writer folds the deltas.
      if random() < ${sql.lit(1 / COMPACT_EVERY)} then
        perform compact_list_counts();
      end if;
      return null;
    end $$`.execute(db);
  // After a truncate: TG_ARGV are the LIKE patterns of the table's keys.
  await sql`
    create function list_counts_truncated() returns trigger language plpgsql as $$
    begin
      delete from list_counts where key like any (tg_argv);
      return null;
    end $$`.execute(db);
  // Folds each key's deltas into one row (dropping keys that sum to 0); answers how many rows it
  // removed. One fold at a time: a fold holds the advisory lock until its transaction ends, and
  // another fold meanwhile does nothing (answers 0), so two folds never delete the same rows in
  // different orders. Deltas committed after its snapshot are left for the next fold.
  await sql`
    create function compact_list_counts() returns bigint language plpgsql as $$
    declare
      removed bigint;
    begin
      if not pg_try_advisory_xact_lock(${sql.lit(COMPACT_LOCK)}) then
        return 0;
      end if;
      with gone as (delete from list_counts returning key, n),
           kept as (insert into list_counts (key, n) select key, sum(n) from gone group by key having sum(n) <> 0)
      select count(*) into removed from gone;
      return removed;
    end $$`.execute(db);

  const referencing = {
    insert: sql`referencing new table as new_rows`,
    update: sql`referencing old table as old_rows new table as new_rows`,
    delete: sql`referencing old table as old_rows`,
  };
  for (const operation of ["insert", "update", "delete"] as const) {
    await sql`
      create trigger ${sql.id(`tasks_mark_audios_${operation}`)}
      after ${sql.raw(operation)} on tasks ${referencing[operation]}
      for each statement execute function tasks_mark_audios()`.execute(db);
  }
  await sql`
    create trigger tasks_mark_audios_truncate after truncate on tasks
    for each statement execute function tasks_truncated_mark_audios()`.execute(db);
  for (const table of Object.keys(COUNTED) as Counted[]) {
    for (const operation of ["insert", "update", "delete"] as const) {
      await sql`
        create trigger ${sql.id(`${table}_list_counts_${operation}`)}
        after ${sql.raw(operation)} on ${sql.table(table)} ${referencing[operation]}
        for each statement execute function list_counts_apply(${sql.lit(`list_count_keys_${table}`)})`.execute(db);
    }
    const patterns = COUNTED[table].split(" ");
    await sql`
      create trigger ${sql.id(`${table}_list_counts_truncate`)} after truncate on ${sql.table(table)}
      for each statement execute function list_counts_truncated(${sql.join(patterns.map((p) => sql.lit(p)))})`.execute(
      db,
    );
  }

  // The back-fill: one row per key.
  for (const table of Object.keys(COUNTED) as Counted[]) {
    await sql`
      insert into list_counts (key, n)
      select k, count(*) from ${sql.table(table)} r cross join lateral unnest(${sql.raw(`list_count_keys_${table}`)}(r)) k
      group by k`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(COUNTED) as Counted[]) {
    for (const operation of ["truncate", "delete", "update", "insert"] as const) {
      await sql`drop trigger if exists ${sql.id(`${table}_list_counts_${operation}`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
    await sql`drop function if exists ${sql.raw(`list_count_keys_${table}`)}`.execute(db);
  }
  for (const operation of ["truncate", "delete", "update", "insert"] as const) {
    await sql`drop trigger if exists ${sql.id(`tasks_mark_audios_${operation}`)} on tasks`.execute(db);
  }
  for (const fn of ["compact_list_counts()", "list_counts_truncated()", "list_counts_apply()"]) {
    await sql`drop function if exists ${sql.raw(fn)}`.execute(db);
  }
  await sql`drop function if exists tasks_truncated_mark_audios()`.execute(db);
  await sql`drop function if exists tasks_mark_audios()`.execute(db);
  await db.schema.dropTable("list_counts").ifExists().execute();
  await sql`create index if not exists audios_category_idx on audios (category, created_at)`.execute(db);
  await sql`drop index if exists audios_category_created_at_id_idx`.execute(db);
  await sql`drop index if exists audios_filename_lower_idx`.execute(db);
  await sql`drop index if exists audios_unassigned_idx`.execute(db);
  await sql`alter table audios drop column if exists has_task`.execute(db);
}
