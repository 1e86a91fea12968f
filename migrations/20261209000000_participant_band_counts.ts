import { sql, type Kysely } from "kysely";

/**
 * The study balance's approved recordings kept, not counted (decision 024, as decision 016 keeps
 * list counts): counting them at read time joins every complete task to its audio and participant
 * and works out each recording's age (about 130 ms at 100,000 audios), past the lists' 100 ms.
 *
 * participant_band_counts holds, per participant, how many of their audios have a complete task
 * (transcript and recording Approved) in each age band (the participant's age at the session day,
 * or at the audio's upload day in UTC when it has none). The balance then joins ~10,000 rows.
 * Statement triggers recompute the rows of the participants a statement touches, from the tables
 * as they are:
 * - tasks: a task inserted or deleted complete, or whose completeness or audio changed;
 * - audios: an audio deleted, or whose participant or session day changed;
 * - participants: a change of the birth date, the recorded age or its day.
 * The recomputation first locks the participants' rows (in id order), so two transactions touching
 * one participant run one after the other and the second reads what the first committed.
 *
 * participant_age_months() and participant_age_band() are the SQL of ageInMonthsOn() and ageBand()
 * in @tafsiri/domain (the repository's tests check they agree). Frozen in time: imports no
 * application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function participant_months_between(from_day text, to_day text) returns integer
    language sql immutable as $$
      select (split_part(to_day, '-', 1)::int - split_part(from_day, '-', 1)::int) * 12
           + (split_part(to_day, '-', 2)::int - split_part(from_day, '-', 2)::int)
           - case when split_part(to_day, '-', 3)::int < split_part(from_day, '-', 3)::int then 1 else 0 end
    $$`.execute(db);
  await sql`
    create function participant_age_months(birth_date text, age_months integer, age_recorded_on text, day text)
    returns integer language sql immutable as $$
      select nullif(greatest(case
        when birth_date is not null and day is not null then participant_months_between(birth_date, day)
        when age_months is not null and age_recorded_on is not null and day is not null
          then age_months + participant_months_between(age_recorded_on, day)
        else age_months
      end, -1), -1)
    $$`.execute(db);
  await sql`
    create function participant_age_band(months integer) returns text language sql immutable as $$
      select case
        when months is null then 'unknown'
        when months < 600 then 'under 50'
        when months < 720 then '50–59'
        when months < 840 then '60–69'
        when months < 960 then '70–79'
        when months < 1080 then '80–89'
        else '90+'
      end
    $$`.execute(db);

  await db.schema
    .createTable("participant_band_counts")
    .addColumn("participant_id", "uuid", (c) => c.notNull().references("participants.id").onDelete("cascade"))
    .addColumn("age_band", "text", (c) => c.notNull())
    .addColumn("recordings", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("participant_band_counts_pkey", ["participant_id", "age_band"])
    .execute();

  await sql`
    create function participant_bands_refresh(ids uuid[]) returns void language plpgsql as $$
    begin
      if ids is null or cardinality(ids) = 0 then
        return;
      end if;
      perform 1 from participants where id = any(ids) order by id for update;
      delete from participant_band_counts where participant_id = any(ids);
      insert into participant_band_counts (participant_id, age_band, recordings)
      select p.id,
             participant_age_band(participant_age_months(p.birth_date, p.age_months, p.age_recorded_on,
               coalesce(a.session_date, to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD')))),
             count(*)
      from participants p
      join audios a on a.participant_id = p.id
      join tasks t on t.audio_id = a.id
      where p.id = any(ids) and t.is_complete
      group by 1, 2;
    end $$`.execute(db);

  // Each trigger returns at once when the statement touched no complete task or linked audio (a
  // bulk insert of 100,000 new tasks costs a scan of its transition table), and compares old and
  // new rows with EXCEPT, which needs no statistics (a transition table has none; a join of the
  // two may be planned as a nested loop).
  await sql`
    create function tasks_participant_bands() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if not exists (select 1 from new_rows where is_complete) then
          return null;
        end if;
        perform participant_bands_refresh(array(
          select distinct a.participant_id from audios a
          where a.participant_id is not null and a.id in (select audio_id from new_rows where is_complete)));
      elsif tg_op = 'DELETE' then
        if not exists (select 1 from old_rows where is_complete) then
          return null;
        end if;
        perform participant_bands_refresh(array(
          select distinct a.participant_id from audios a
          where a.participant_id is not null and a.id in (select audio_id from old_rows where is_complete)));
      else
        if not exists (select 1 from new_rows where is_complete) and not exists (select 1 from old_rows where is_complete) then
          return null;
        end if;
        perform participant_bands_refresh(array(
          select distinct a.participant_id from audios a
          where a.participant_id is not null and a.id in (
            select c.audio_id from (
              (select id, audio_id, is_complete from new_rows except select id, audio_id, is_complete from old_rows)
              union all
              (select id, audio_id, is_complete from old_rows except select id, audio_id, is_complete from new_rows)
            ) c)));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function audios_participant_bands() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform participant_bands_refresh(array(
          select distinct participant_id from old_rows where participant_id is not null));
      else
        if not exists (select 1 from new_rows where participant_id is not null)
           and not exists (select 1 from old_rows where participant_id is not null) then
          return null;
        end if;
        perform participant_bands_refresh(array(
          select distinct c.participant_id from (
            (select id, participant_id, session_date, created_at from new_rows
             except select id, participant_id, session_date, created_at from old_rows)
            union all
            (select id, participant_id, session_date, created_at from old_rows
             except select id, participant_id, session_date, created_at from new_rows)
          ) c
          where c.participant_id is not null));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function participants_participant_bands() returns trigger language plpgsql as $$
    begin
      perform participant_bands_refresh(array(
        select c.id from (
          select id, birth_date, age_months, age_recorded_on from new_rows
          except select id, birth_date, age_months, age_recorded_on from old_rows
        ) c));
      return null;
    end $$`.execute(db);

  for (const op of ["insert", "update", "delete"] as const) {
    const transitions =
      op === "insert"
        ? sql`referencing new table as new_rows`
        : op === "delete"
          ? sql`referencing old table as old_rows`
          : sql`referencing old table as old_rows new table as new_rows`;
    await sql`
      create trigger ${sql.raw(`tasks_participant_bands_${op}`)} after ${sql.raw(op)} on tasks
      ${transitions} for each statement execute function tasks_participant_bands()`.execute(db);
    if (op !== "insert") {
      await sql`
        create trigger ${sql.raw(`audios_participant_bands_${op}`)} after ${sql.raw(op)} on audios
        ${transitions} for each statement execute function audios_participant_bands()`.execute(db);
    }
  }
  await sql`
    create trigger participants_participant_bands_update after update on participants
    referencing old table as old_rows new table as new_rows
    for each statement execute function participants_participant_bands()`.execute(db);

  // Back-fill: after the triggers, so no write falls between (CREATE TRIGGER holds its lock until commit).
  await sql`select participant_bands_refresh(array(select id from participants))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger participants_participant_bands_update on participants`.execute(db);
  for (const op of ["insert", "update", "delete"]) {
    await sql`drop trigger ${sql.raw(`tasks_participant_bands_${op}`)} on tasks`.execute(db);
    if (op !== "insert") await sql`drop trigger ${sql.raw(`audios_participant_bands_${op}`)} on audios`.execute(db);
  }
  await sql`drop function participants_participant_bands()`.execute(db);
  await sql`drop function audios_participant_bands()`.execute(db);
  await sql`drop function tasks_participant_bands()`.execute(db);
  await sql`drop function participant_bands_refresh(uuid[])`.execute(db);
  await db.schema.dropTable("participant_band_counts").execute();
  await sql`drop function participant_age_band(integer)`.execute(db);
  await sql`drop function participant_age_months(text, integer, text, text)`.execute(db);
  await sql`drop function participant_months_between(text, text)`.execute(db);
}
