import { sql, type Kysely } from "kysely";

/**
 * The participants list's totals kept, not counted (decision 016, as the other lists' counts;
 * decision 024 for the list): counting them read every participant on every page (10–17 ms at
 * 100,000 audios). list_counts (migration 20261202000000_list_counts) gets the participants' keys,
 * one per filter the list offers without a search text:
 * - participants:*:* (every participant);
 * - participants:<study_group>:* and participants:*:<consent_status> (one filter);
 * - participants:<study_group>:<consent_status> (both).
 * list_count_keys_participants(row) gives a row's four keys; the statement triggers are the other
 * tables' (list_counts_apply with the keys function, list_counts_truncated with the keys' pattern),
 * so a statement of any size adds one delta per key it changed, and an update that moves no
 * participant between group or consent writes nothing. A code-prefix search still counts its
 * matches at read time (a range of participants_code_idx).
 *
 * Triggers before the back-fill: CREATE TRIGGER holds SHARE ROW EXCLUSIVE until the migration
 * commits, so no write falls between the two. Frozen in time: imports no application code.
 */
const OPERATIONS = ["insert", "update", "delete"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function list_count_keys_participants(r participants) returns text[] language sql immutable as $$
      select array[
        'participants:*:*',
        'participants:' || r.study_group || ':*',
        'participants:*:' || r.consent_status,
        'participants:' || r.study_group || ':' || r.consent_status
      ]
    $$`.execute(db);
  const referencing = {
    insert: sql`referencing new table as new_rows`,
    update: sql`referencing old table as old_rows new table as new_rows`,
    delete: sql`referencing old table as old_rows`,
  };
  for (const operation of OPERATIONS) {
    await sql`
      create trigger ${sql.id(`participants_list_counts_${operation}`)}
      after ${sql.raw(operation)} on participants ${referencing[operation]}
      for each statement execute function list_counts_apply('list_count_keys_participants')`.execute(db);
  }
  await sql`
    create trigger participants_list_counts_truncate after truncate on participants
    for each statement execute function list_counts_truncated('participants:%')`.execute(db);
  await sql`
    insert into list_counts (key, n)
    select k, count(*) from participants r cross join lateral unnest(list_count_keys_participants(r)) k
    group by k`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const operation of ["truncate", ...OPERATIONS] as const) {
    await sql`drop trigger if exists ${sql.id(`participants_list_counts_${operation}`)} on participants`.execute(db);
  }
  await sql`drop function if exists list_count_keys_participants(participants)`.execute(db);
  await sql`delete from list_counts where key like 'participants:%'`.execute(db);
}
