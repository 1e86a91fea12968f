import { sql, type Kysely } from "kysely";

/**
 * The audio minutes of each staff member's approved work, kept with the team report's other
 * counters (decision 011, decision 022): for a task assigned to them, the duration of its audio
 * when its transcript is Approved, and the duration of its approved recording (the translated
 * recording the submission's recorded_audio points at) when its recording is Approved. Durations
 * are kept as whole milliseconds (round(duration_seconds × 1000), bigint), so sums and the deltas
 * that keep them are exact; a duration not known (null: not decoded yet, or undecodable) counts 0
 * and is counted in `approved_without_duration` instead.
 *
 * - assignee_work_tasks gains audio_ms and recording_ms: the task's two durations as the
 *   counters last counted them;
 * - assignee_work_counts and assignee_review_days gain approved_transcript_ms,
 *   approved_recording_ms and approved_without_duration, summed like approved_transcripts and
 *   approved_recordings (the days by the transcript's and the recording's review time).
 *
 * A duration arrives after the approval may have happened (the waveform job decodes the file
 * asynchronously), so two more statement triggers reconcile the tasks concerned
 * (assignee_work_reconcile, as the triggers on tasks and submissions do): an update of
 * audios.duration_seconds, and an insert, update or delete of translated_recordings that changes
 * a recording's duration, submission or file key. The reconciliation reads the durations as they
 * are now, so the counts are right whatever the order of approval and decoding.
 *
 * The functions of 20261201000000_assignee_work_counts are replaced (they build
 * assignee_work_tasks rows, which gain two columns); `down` puts them back as they were.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table assignee_work_tasks add column audio_ms bigint, add column recording_ms bigint`.execute(db);
  for (const table of ["assignee_work_counts", "assignee_review_days"]) {
    await sql`
      alter table ${sql.table(table)}
        add column approved_transcript_ms bigint not null default 0,
        add column approved_recording_ms bigint not null default 0,
        add column approved_without_duration integer not null default 0`.execute(db);
  }

  await sql`
    create or replace function assignee_work_apply(old_states assignee_work_tasks[], new_states assignee_work_tasks[])
    returns void language plpgsql as $$
    begin
      insert into assignee_work_counts as c (
        assignee_id, tasks, completed, with_work, pending_transcripts, approved_transcripts, rejected_transcripts,
        pending_recordings, approved_recordings, rejected_recordings, approved_transcript_ms, approved_recording_ms,
        approved_without_duration)
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
               sum(s.sign * (s.recording is not distinct from 'Rejected')::integer),
               sum(s.sign * (s.transcript is not distinct from 'Approved')::integer * coalesce(s.audio_ms, 0)),
               sum(s.sign * (s.recording is not distinct from 'Approved')::integer * coalesce(s.recording_ms, 0)),
               sum(s.sign * ((s.transcript is not distinct from 'Approved' and s.audio_ms is null)::integer
                             + (s.recording is not distinct from 'Approved' and s.recording_ms is null)::integer))
        from (select -1 as sign, o.* from unnest(old_states) o
              union all
              select 1, n.* from unnest(new_states) n) s
        group by s.assignee_id
      ) d (assignee_id, tasks, completed, with_work, p_t, a_t, r_t, p_r, a_r, r_r, t_ms, r_ms, no_d)
      where (d.tasks, d.completed, d.with_work, d.p_t, d.a_t, d.r_t, d.p_r, d.a_r, d.r_r, d.t_ms, d.r_ms, d.no_d)
            <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
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
        rejected_recordings = c.rejected_recordings + excluded.rejected_recordings,
        approved_transcript_ms = c.approved_transcript_ms + excluded.approved_transcript_ms,
        approved_recording_ms = c.approved_recording_ms + excluded.approved_recording_ms,
        approved_without_duration = c.approved_without_duration + excluded.approved_without_duration;

      insert into assignee_review_days as r (
        day, assignee_id, completed, approved_transcripts, rejected_transcripts, approved_recordings, rejected_recordings,
        approved_transcript_ms, approved_recording_ms, approved_without_duration)
      select * from (
        select (v.ts at time zone 'UTC')::date, s.assignee_id,
               sum(s.sign * v.completed), sum(s.sign * v.a_t), sum(s.sign * v.r_t), sum(s.sign * v.a_r),
               sum(s.sign * v.r_r), sum(s.sign * v.t_ms), sum(s.sign * v.r_ms), sum(s.sign * v.no_d)
        from (select -1 as sign, o.* from unnest(old_states) o
              union all
              select 1, n.* from unnest(new_states) n) s
        cross join lateral (values
          (s.transcript_at, 0, (s.transcript is not distinct from 'Approved')::integer,
           (s.transcript is not distinct from 'Rejected')::integer, 0, 0,
           (s.transcript is not distinct from 'Approved')::integer * coalesce(s.audio_ms, 0), 0::bigint,
           (s.transcript is not distinct from 'Approved' and s.audio_ms is null)::integer),
          (s.recording_at, 0, 0, 0, (s.recording is not distinct from 'Approved')::integer,
           (s.recording is not distinct from 'Rejected')::integer,
           0::bigint, (s.recording is not distinct from 'Approved')::integer * coalesce(s.recording_ms, 0),
           (s.recording is not distinct from 'Approved' and s.recording_ms is null)::integer),
          (case when s.complete then greatest(s.transcript_at, s.recording_at) end, 1, 0, 0, 0, 0, 0::bigint, 0::bigint, 0)
        ) v (ts, completed, a_t, r_t, a_r, r_r, t_ms, r_ms, no_d)
        where v.ts is not null
        group by 1, 2
      ) d (day, assignee_id, completed, a_t, r_t, a_r, r_r, t_ms, r_ms, no_d)
      where (d.completed, d.a_t, d.r_t, d.a_r, d.r_r, d.t_ms, d.r_ms, d.no_d) <> (0, 0, 0, 0, 0, 0, 0, 0)
      order by d.assignee_id, d.day
      on conflict (day, assignee_id) do update set
        completed = r.completed + excluded.completed,
        approved_transcripts = r.approved_transcripts + excluded.approved_transcripts,
        rejected_transcripts = r.rejected_transcripts + excluded.rejected_transcripts,
        approved_recordings = r.approved_recordings + excluded.approved_recordings,
        rejected_recordings = r.rejected_recordings + excluded.rejected_recordings,
        approved_transcript_ms = r.approved_transcript_ms + excluded.approved_transcript_ms,
        approved_recording_ms = r.approved_recording_ms + excluded.approved_recording_ms,
        approved_without_duration = r.approved_without_duration + excluded.approved_without_duration;
    end $$`.execute(db);

  // A task's state now, durations included: the audio's by primary key, the approved recording's
  // (the submission's recorded_audio) through translated_recordings_submission_idx. Scalar
  // subqueries, not joins: a join to audios may be planned as a scan of every audio per task when
  // the statistics are stale (a bulk insert of tasks), a primary-key lookup cannot.
  await sql`
    create or replace function assignee_work_reconcile(ids uuid[]) returns void language plpgsql as $$
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
                   s.recorded_audio_approval_status, s.transcript_reviewed_at, s.recording_reviewed_at,
                   (select round(a.duration_seconds * 1000)::bigint from audios a where a.id = t.audio_id),
                   case when s.recorded_audio is not null then
                     (select round(max(r.duration_seconds) * 1000)::bigint from translated_recordings r
                      where r.submission_id = s.id and r.file_key = s.recorded_audio) end)::assignee_work_tasks
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
        recording = excluded.recording, transcript_at = excluded.transcript_at, recording_at = excluded.recording_at,
        audio_ms = excluded.audio_ms, recording_ms = excluded.recording_ms
      where (w.assignee_id, w.complete, w.transcript, w.recording, w.transcript_at, w.recording_at, w.audio_ms,
             w.recording_ms)
            is distinct from (excluded.assignee_id, excluded.complete, excluded.transcript, excluded.recording,
                              excluded.transcript_at, excluded.recording_at, excluded.audio_ms, excluded.recording_ms);
    end $$`.execute(db);

  await sql`
    create or replace function assignee_work_rebuild() returns void language plpgsql as $$
    begin
      delete from assignee_review_days;
      delete from assignee_work_counts;
      delete from assignee_work_tasks;
      insert into assignee_work_tasks
      select t.id, t.assigned_to, t.is_complete, s.translation_script_approval_status,
             s.recorded_audio_approval_status, s.transcript_reviewed_at, s.recording_reviewed_at,
             round(a.duration_seconds * 1000)::bigint,
             case when s.recorded_audio is not null then
               (select round(max(r.duration_seconds) * 1000)::bigint from translated_recordings r
                where r.submission_id = s.id and r.file_key = s.recorded_audio) end
      from tasks t join audios a on a.id = t.audio_id left join submissions s on s.task_id = t.id;
      perform assignee_work_apply('{}', array(select w from assignee_work_tasks w));
    end $$`.execute(db);

  // An audio's duration changed (the waveform job, a data fix): its task is reconciled
  // (tasks_audio_id_key finds it). Other updates of audios (has_task, last opened) reconcile nothing.
  // The statements of these triggers are planned at every call (EXECUTE): PL/pgSQL would keep the
  // plan made for the first, often one-row, statement of a session, and a nested loop over the
  // transition tables that suits one row reads them again for every row of a bulk update (30,000
  // rows took 30 s that way, 100,000 several minutes).
  await sql`
    create function audios_assignee_work() returns trigger language plpgsql as $$
    begin
      execute $q$
        select assignee_work_reconcile(array(
          select t.id from new_rows n join old_rows o on o.id = n.id join tasks t on t.audio_id = n.id
          where o.duration_seconds is distinct from n.duration_seconds))$q$;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger audios_assignee_work_update after update on audios
    referencing old table as old_rows new table as new_rows
    for each statement execute function audios_assignee_work()`.execute(db);

  // A recording's duration (or what it belongs to) changed, or a recording with a known duration
  // came or went: the task of its submission is reconciled. A recording without a duration
  // counts nothing, so its insert or delete reconciles nothing.
  await sql`
    create function translated_recordings_assignee_work() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        execute $q$
          select assignee_work_reconcile(array(
            select s.task_id from new_rows n join submissions s on s.id = n.submission_id
            where n.duration_seconds is not null))$q$;
      elsif tg_op = 'DELETE' then
        execute $q$
          select assignee_work_reconcile(array(
            select s.task_id from old_rows o join submissions s on s.id = o.submission_id
            where o.duration_seconds is not null))$q$;
      else
        execute $q$
          select assignee_work_reconcile(array(
            select s.task_id
            from old_rows o join new_rows n on n.id = o.id
            join submissions s on s.id in (o.submission_id, n.submission_id)
            where (o.submission_id, o.file_key, o.duration_seconds)
                  is distinct from (n.submission_id, n.file_key, n.duration_seconds)))$q$;
      end if;
      return null;
    end $$`.execute(db);
  const referencing = {
    insert: sql`referencing new table as new_rows`,
    update: sql`referencing old table as old_rows new table as new_rows`,
    delete: sql`referencing old table as old_rows`,
  };
  for (const operation of ["insert", "update", "delete"] as const) {
    await sql`
      create trigger ${sql.id(`translated_recordings_assignee_work_${operation}`)}
      after ${sql.raw(operation)} on translated_recordings ${referencing[operation]}
      for each statement execute function translated_recordings_assignee_work()`.execute(db);
  }

  // Counts every duration known now (the triggers hold their tables until the migration commits).
  await sql`select assignee_work_rebuild()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const operation of ["delete", "update", "insert"] as const) {
    await sql`drop trigger if exists ${sql.id(`translated_recordings_assignee_work_${operation}`)} on translated_recordings`.execute(
      db,
    );
  }
  await sql`drop trigger if exists audios_assignee_work_update on audios`.execute(db);
  await sql`drop function if exists translated_recordings_assignee_work()`.execute(db);
  await sql`drop function if exists audios_assignee_work()`.execute(db);

  // The functions of 20261201000000_assignee_work_counts, as they were.
  await sql`
    create or replace function assignee_work_apply(old_states assignee_work_tasks[], new_states assignee_work_tasks[])
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
  await sql`
    create or replace function assignee_work_reconcile(ids uuid[]) returns void language plpgsql as $$
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
  await sql`
    create or replace function assignee_work_rebuild() returns void language plpgsql as $$
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

  for (const table of ["assignee_review_days", "assignee_work_counts"]) {
    await sql`
      alter table ${sql.table(table)}
        drop column approved_without_duration,
        drop column approved_recording_ms,
        drop column approved_transcript_ms`.execute(db);
  }
  await sql`alter table assignee_work_tasks drop column recording_ms, drop column audio_ms`.execute(db);
}
