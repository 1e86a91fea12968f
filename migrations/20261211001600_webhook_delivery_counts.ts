import { sql, type Kysely } from "kysely";

/**
 * Each webhook endpoint's number of deliveries kept, not counted (decision 016, as the other
 * lists' counts; decision 037 for the delivery log): counting them read every index entry of the
 * endpoint on every page of its log (about 25 ms at 100,000 deliveries). list_counts (migration
 * 20261202000000_list_counts) gets one key per endpoint, `webhook_deliveries:<endpoint_id>`, kept by
 * the insert and delete statement triggers of the other counted tables (list_counts_apply with
 * the keys function; a cascade from a deleted endpoint or a pruned event fires the delete one).
 * There is no update trigger: a delivery never changes endpoint, and the delivery job updates
 * deliveries on every round. Triggers before the back-fill: CREATE TRIGGER holds SHARE ROW
 * EXCLUSIVE until the migration commits, so no write falls between the two. Frozen in time: imports
 * no application code.
 */
const OPERATIONS = ["insert", "delete"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function list_count_keys_webhook_deliveries(r webhook_deliveries) returns text[] language sql immutable as $$
      select array['webhook_deliveries:' || r.endpoint_id]
    $$`.execute(db);
  const referencing = {
    insert: sql`referencing new table as new_rows`,
    delete: sql`referencing old table as old_rows`,
  };
  for (const operation of OPERATIONS) {
    await sql`
      create trigger ${sql.id(`webhook_deliveries_list_counts_${operation}`)}
      after ${sql.raw(operation)} on webhook_deliveries ${referencing[operation]}
      for each statement execute function list_counts_apply('list_count_keys_webhook_deliveries')`.execute(db);
  }
  await sql`
    create trigger webhook_deliveries_list_counts_truncate after truncate on webhook_deliveries
    for each statement execute function list_counts_truncated('webhook_deliveries:%')`.execute(db);
  await sql`
    insert into list_counts (key, n)
    select 'webhook_deliveries:' || endpoint_id, count(*) from webhook_deliveries group by endpoint_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const operation of ["truncate", ...OPERATIONS] as const) {
    await sql`drop trigger if exists ${sql.id(`webhook_deliveries_list_counts_${operation}`)} on webhook_deliveries`.execute(
      db,
    );
  }
  await sql`drop function if exists list_count_keys_webhook_deliveries(webhook_deliveries)`.execute(db);
  await sql`delete from list_counts where key like 'webhook_deliveries:%'`.execute(db);
}
