import { sql, type Kysely } from "kysely";

/**
 * A staff member's Submissions page as an index walk with kept counts (decision 016).
 * submissions.assigned_to copies the task's assignee (tasks.assigned_to): set before a
 * submission is inserted (or moved to another task), and moved with the task when it is
 * reassigned, by triggers, so the app never writes it. The index (assigned_to, updated_at, id)
 * gives one staff member's submissions newest first, and list_counts gains the four filters per
 * assignee: submissions:<assignee>:all|needsReview|approved|rejected.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table submissions add column assigned_to uuid`.execute(db);
  await sql`update submissions s set assigned_to = t.assigned_to from tasks t where t.id = s.task_id`.execute(db);
  await sql`alter table submissions alter column assigned_to set not null`.execute(db);
  await sql`create index submissions_assignee_updated_at_id_idx on submissions (assigned_to, updated_at, id)`.execute(
    db,
  );

  await sql`
    create function submissions_set_assignee() returns trigger language plpgsql as $$
    begin
      select t.assigned_to into new.assigned_to from tasks t where t.id = new.task_id;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger submissions_set_assignee before insert or update of task_id on submissions
    for each row execute function submissions_set_assignee()`.execute(db);
  await sql`
    create function tasks_move_submissions() returns trigger language plpgsql as $$
    begin
      update submissions s set assigned_to = n.assigned_to
      from new_rows n join old_rows o on o.id = n.id
      where s.task_id = n.id and o.assigned_to <> n.assigned_to;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger tasks_move_submissions after update on tasks
    referencing old table as old_rows new table as new_rows
    for each statement execute function tasks_move_submissions()`.execute(db);

  // The per-assignee keys, then the submissions' keys as they are now plus those.
  await sql`
    create function list_count_keys_submission_assignee(r submissions) returns text[] language sql immutable as $$
      select array_remove(array[
        'submissions:' || r.assigned_to || ':all',
        case when r.translation_script_approval_status = 'Pending' or r.recorded_audio_approval_status = 'Pending'
             then 'submissions:' || r.assigned_to || ':needsReview' end,
        case r.approval_status when 'Approved' then 'submissions:' || r.assigned_to || ':approved'
                               when 'Rejected' then 'submissions:' || r.assigned_to || ':rejected' end
      ], null)
    $$`.execute(db);
  await sql`
    create or replace function list_count_keys_submissions(r submissions) returns text[] language sql immutable as $$
      select array_remove(array[
        'submissions:all',
        case when r.translation_script_approval_status = 'Pending' or r.recorded_audio_approval_status = 'Pending'
             then 'submissions:needsReview' end,
        case r.approval_status when 'Approved' then 'submissions:approved' when 'Rejected' then 'submissions:rejected' end
      ], null) || list_count_keys_submission_assignee(r)
    $$`.execute(db);
  await sql`
    insert into list_counts (key, n)
    select k, count(*) from submissions r cross join lateral unnest(list_count_keys_submission_assignee(r)) k
    group by k`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from list_counts where key ~ '^submissions:[0-9a-f-]{36}:'`.execute(db);
  await sql`
    create or replace function list_count_keys_submissions(r submissions) returns text[] language sql immutable as $$
      select array_remove(array[
        'submissions:all',
        case when r.translation_script_approval_status = 'Pending' or r.recorded_audio_approval_status = 'Pending'
             then 'submissions:needsReview' end,
        case r.approval_status when 'Approved' then 'submissions:approved' when 'Rejected' then 'submissions:rejected' end
      ], null)
    $$`.execute(db);
  await sql`drop function if exists list_count_keys_submission_assignee(submissions)`.execute(db);
  await sql`drop trigger if exists tasks_move_submissions on tasks`.execute(db);
  await sql`drop function if exists tasks_move_submissions()`.execute(db);
  await sql`drop trigger if exists submissions_set_assignee on submissions`.execute(db);
  await sql`drop function if exists submissions_set_assignee()`.execute(db);
  await sql`drop index if exists submissions_assignee_updated_at_id_idx`.execute(db);
  await sql`alter table submissions drop column if exists assigned_to`.execute(db);
}
