import { sql, type Kysely } from "kysely";

/**
 * The team report's figures kept per assignee, outside the report's join (the target: the report
 * under 50 ms p99 at 100,000 tasks; decision 011). A task's work counts for its assignee
 * (tasks.assigned_to), whoever recorded it.
 *
 * assignee_work_counts, one row per assignee, the work as it is now:
 * - tasks: tasks assigned to them; completed: of those, is_complete;
 * - with_work: of those, tasks whose submission holds a transcript or a recording (a status other
 *   than 'No transcript' / 'No translation audio');
 * - pending/approved/rejected transcripts and recordings: their submissions' statuses.
 *
 * assignee_review_days, one row per assignee and UTC day, the reviews whose review time falls on
 * that day: approved/rejected transcripts (transcript_reviewed_at), approved/rejected recordings
 * (recording_reviewed_at), and completed: tasks with is_complete whose later review time
 * (greatest of the two) falls on it. A period's whole days are summed from it; its partial days
 * at either end are read from submissions through the review-time indexes.
 *
 * assignee_work_tasks, one row per task: what the two tables above count for it (its assignee,
 * is_complete, its submission's statuses and review times; no submission: null statuses).
 *
 * Triggers keep them exact whatever writes tasks and submissions, in the writing transaction:
 * after each statement that inserts, updates (the counted columns) or deletes rows of either
 * table, the tasks it touched are reconciled (assignee_work_reconcile): what they count now, read
 * from tasks and submissions, is added, what assignee_work_tasks says they counted is taken away,
 * and assignee_work_tasks is brought up to date. Reconciling to the tables as they are, rather than
 * adding each row's change, keeps it exact whatever the order of the changes: a reassignment (the
 * task and its submission move), a task deleted with its submission by the cascade (after which
 * the task is gone), one statement changing a task and its submission, a truncate (everything is
 * rebuilt). Once per statement, so a statement writing many rows of one assignee updates their
 * counter row once (updating one row again and again in one transaction gets slower with every
 * update: each finds its latest version at the end of a growing chain of dead ones).
 *
 * Concurrency: a reconciliation locks the tasks' assignee_work_tasks rows (in task order) before it
 * reads tasks and submissions, so reconciliations of one task take turns, and each reads what the
 * previous one committed (READ COMMITTED; REPEATABLE READ and SERIALIZABLE get a serialization
 * failure instead). Counter rows stay locked until the writing transaction ends; one
 * reconciliation locks them in (assignee, day) order.
 *
 * The triggers are created before the back-fill: CREATE TRIGGER holds SHARE ROW EXCLUSIVE on
 * tasks and submissions until the migration commits (Kysely runs migrations in a transaction on
 * PostgreSQL and PGlite), so no write falls between the two.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table assignee_work_counts (
      assignee_id uuid primary key references users (id) on delete cascade,
      tasks integer not null default 0,
      completed integer not null default 0,
      with_work integer not null default 0,
      pending_transcripts integer not null default 0,
      approved_transcripts integer not null default 0,
      rejected_transcripts integer not null default 0,
      pending_recordings integer not null default 0,
      approved_recordings integer not null default 0,
      rejected_recordings integer not null default 0
    )`.execute(db);
  await sql`
    create table assignee_review_days (
      day date not null,
      assignee_id uuid not null references users (id) on delete cascade,
      completed integer not null default 0,
      approved_transcripts integer not null default 0,
      rejected_transcripts integer not null default 0,
      approved_recordings integer not null default 0,
      rejected_recordings integer not null default 0,
      primary key (day, assignee_id)
    )`.execute(db);
  await db.schema
    .createIndex("assignee_review_days_assignee_idx")
    .on("assignee_review_days")
    .column("assignee_id")
    .execute();
  // No foreign keys: a row outlives its task until the reconciliation that takes it away.
  await sql`
    create table assignee_work_tasks (
      task_id uuid primary key,
      assignee_id uuid not null,
      complete boolean not null,
      transcript text,
      recording text,
      transcript_at timestamptz,
      recording_at timestamptz
    )`.execute(db);

  // Adds what `new_states` count and takes away what `old_states` counted: one upsert per
  // counter table, rows locked in (assignee, day) order; rows whose counts do not change are not
  // written.
  await sql`
    create function assignee_work_apply(old_states assignee_work_tasks[], new_states assignee_work_tasks[])
    returns void language plpgsql as $$
    begin
      insert into assignee_work_counts as c (
        assignee_id, tasks, completed, with_work, pending_transcripts, approved_transcripts, rejected_transcripts,
        pending_recordings, approved_recordings, rejected_recordings)
      select * from (
        select s.assignee_id,
               sum(s.sign),
               sum(s.sign * s.complete::integer),
               sum(s.sign * coalesce(s.transcript <> 'No transcript' or s.recording <> 'No translation audio', false)::integer),
               sum(s.sign * (s.transcript is not distinct from 'Pending')::integer),
               sum(s.sign * (s.transcript is not distinct from 'Approved')::integer),
               sum(s.sign * (s.transcript is not distinct from 'Rejected')::integer),
               sum(s.sign * (s.recording is not distinct from 'Pending')::integer),
               sum(s.sign * (s.recording is not distinct from 'Approved')::integer),
               sum(s.sign * (s.recording is not distinct from 'Rejected')::integer)
        from (select -1 as sign, o.* from unnest(old_states) o
              union all
              select 1, n.* from unnest(new_states) n) s
        group by s.assignee_id
      ) d (assignee_id, tasks, completed, with_work, p_t, a_t, r_t, p_r, a_r, r_r)
      where (d.tasks, d.completed, d.with_work, d.p_t, d.a_t, d.r_t, d.p_r, d.a_r, d.r_r) <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
      order by d.assignee_id
      on conflict (assignee_id) do update set
        tasks = c.tasks + excluded.tasks,
        completed = c.completed + excluded.completed,
        with_work = c.with_work + excluded.with_work,
        pending_transcripts = c.pending_transcripts + excluded.pending_transcripts,
        approved_transcripts = c.approved_transcripts + excluded.approved_transcripts,
        rejected_transcripts = c.rejected_transcripts + excluded.rejected_transcripts,
        pending_recordings = c.pending_recordings + excluded.pending_recordings,
        approved_recordings = c.approved_recordings + excluded.approved_recordings,
        rejected_recordings = c.rejected_recordings + excluded.rejected_recordings;

      insert into assignee_review_days as r (
        day, assignee_id, completed, approved_transcripts, rejected_transcripts, approved_recordings, rejected_recordings)
      select * from (
        select (v.ts at time zone 'UTC')::date, s.assignee_id,
               sum(s.sign * v.completed), sum(s.sign * v.a_t), sum(s.sign * v.r_t), sum(s.sign * v.a_r),
               sum(s.sign * v.r_r)
        from (select -1 as sign, o.* from unnest(old_states) o
              union all
              select 1, n.* from unnest(new_states) n) s
        cross join lateral (values
          (s.transcript_at, 0, (s.transcript is not distinct from 'Approved')::integer,
           (s.transcript is not distinct from 'Rejected')::integer, 0, 0),
          (s.recording_at, 0, 0, 0, (s.recording is not distinct from 'Approved')::integer,
           (s.recording is not distinct from 'Rejected')::integer),
          (case when s.complete then greatest(s.transcript_at, s.recording_at) end, 1, 0, 0, 0, 0)
        ) v (ts, completed, a_t, r_t, a_r, r_r)
        where v.ts is not null
        group by 1, 2
      ) d (day, assignee_id, completed, a_t, r_t, a_r, r_r)
      where (d.completed, d.a_t, d.r_t, d.a_r, d.r_r) <> (0, 0, 0, 0, 0)
      order by d.assignee_id, d.day
      on conflict (day, assignee_id) do update set
        completed = r.completed + excluded.completed,
        approved_transcripts = r.approved_transcripts + excluded.approved_transcripts,
        rejected_transcripts = r.rejected_transcripts + excluded.rejected_transcripts,
        approved_recordings = r.approved_recordings + excluded.approved_recordings,
        rejected_recordings = r.rejected_recordings + excluded.rejected_recordings;
    end $$`.execute(db);

  // Reconciles the tasks `ids`: locks what they counted (in task order), reads what they count
  // now (none for a task that is gone), applies the difference and records the new states.
  await sql`
    create function assignee_work_reconcile(ids uuid[]) returns void language plpgsql as $$
    declare
      old_states assignee_work_tasks[];
      new_states assignee_work_tasks[];
    begin
      if cardinality(ids) = 0 then
        return;
      end if;
      old_states := array(
        select w from assignee_work_tasks w join (select distinct unnest(ids) as id) i on i.id = w.task_id
        order by w.task_id for update of w);
      new_states := array(
        select row(t.id, t.assigned_to, t.is_complete, s.translation_script_approval_status,
                   s.recorded_audio_approval_status, s.transcript_reviewed_at, s.recording_reviewed_at)::assignee_work_tasks
        from (select distinct unnest(ids) as id) i
        join tasks t on t.id = i.id
        left join submissions s on s.task_id = t.id);
      perform assignee_work_apply(old_states, new_states);
      delete from assignee_work_tasks w
      where w.task_id in (select o.task_id from unnest(old_states) o)
        and w.task_id not in (select n.task_id from unnest(new_states) n);
      insert into assignee_work_tasks as w select * from unnest(new_states)
      on conflict (task_id) do update set
        assignee_id = excluded.assignee_id, complete = excluded.complete, transcript = excluded.transcript,
        recording = excluded.recording, transcript_at = excluded.transcript_at, recording_at = excluded.recording_at
      where (w.assignee_id, w.complete, w.transcript, w.recording, w.transcript_at, w.recording_at)
            is distinct from (excluded.assignee_id, excluded.complete, excluded.transcript, excluded.recording,
                              excluded.transcript_at, excluded.recording_at);
    end $$`.execute(db);

  // Counts everything again from tasks and submissions (the back-fill, and after a truncate).
  await sql`
    create function assignee_work_rebuild() returns void language plpgsql as $$
    begin
      delete from assignee_review_days;
      delete from assignee_work_counts;
      delete from assignee_work_tasks;
      insert into assignee_work_tasks
      select t.id, t.assigned_to, t.is_complete, s.translation_script_approval_status,
             s.recorded_audio_approval_status, s.transcript_reviewed_at, s.recording_reviewed_at
      from tasks t left join submissions s on s.task_id = t.id;
      perform assignee_work_apply('{}', array(select w from assignee_work_tasks w));
    end $$`.execute(db);

  // The statement triggers: the tasks each statement touched, from its transition tables (an
  // update only those whose counted columns changed; a statement sees only its own tables).
  await sql`
    create function tasks_assignee_work() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform assignee_work_reconcile(array(select n.id from new_rows n));
      elsif tg_op = 'DELETE' then
        perform assignee_work_reconcile(array(select o.id from old_rows o));
      else
        perform assignee_work_reconcile(array(
          select o.id from old_rows o left join new_rows n on n.id = o.id
          where (o.assigned_to, o.is_complete) is distinct from (n.assigned_to, n.is_complete)
          union
          select n.id from new_rows n left join old_rows o on o.id = n.id
          where o.id is null));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function submissions_assignee_work() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform assignee_work_reconcile(array(select n.task_id from new_rows n));
      elsif tg_op = 'DELETE' then
        perform assignee_work_reconcile(array(select o.task_id from old_rows o));
      else
        perform assignee_work_reconcile(array(
          select unnest(array[o.task_id, n.task_id])
          from old_rows o full join new_rows n on n.id = o.id
          where (o.task_id, o.translation_script_approval_status, o.recorded_audio_approval_status,
                 o.transcript_reviewed_at, o.recording_reviewed_at)
                is distinct from (n.task_id, n.translation_script_approval_status, n.recorded_audio_approval_status,
                                  n.transcript_reviewed_at, n.recording_reviewed_at)));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function assignee_work_truncated() returns trigger language plpgsql as $$
    begin
      perform assignee_work_rebuild();
      return null;
    end $$`.execute(db);

  const referencing = {
    insert: sql`referencing new table as new_rows`,
    update: sql`referencing old table as old_rows new table as new_rows`,
    delete: sql`referencing old table as old_rows`,
  };
  for (const table of ["tasks", "submissions"] as const) {
    for (const operation of ["insert", "update", "delete"] as const) {
      await sql`
        create trigger ${sql.id(`${table}_assignee_work_${operation}`)}
        after ${sql.raw(operation)} on ${sql.table(table)} ${referencing[operation]}
        for each statement execute function ${sql.raw(`${table}_assignee_work`)}()`.execute(db);
    }
    await sql`
      create trigger ${sql.id(`${table}_assignee_work_truncate`)} after truncate on ${sql.table(table)}
      for each statement execute function assignee_work_truncated()`.execute(db);
  }

  await sql`select assignee_work_rebuild()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["submissions", "tasks"] as const) {
    for (const operation of ["truncate", "delete", "update", "insert"] as const) {
      await sql`drop trigger if exists ${sql.id(`${table}_assignee_work_${operation}`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
  }
  for (const fn of [
    "assignee_work_truncated()",
    "submissions_assignee_work()",
    "tasks_assignee_work()",
    "assignee_work_rebuild()",
    "assignee_work_reconcile(uuid[])",
    "assignee_work_apply(assignee_work_tasks[], assignee_work_tasks[])",
  ]) {
    await sql`drop function if exists ${sql.raw(fn)}`.execute(db);
  }
  await db.schema.dropTable("assignee_work_tasks").ifExists().execute();
  await db.schema.dropTable("assignee_review_days").ifExists().execute();
  await db.schema.dropTable("assignee_work_counts").ifExists().execute();
}
