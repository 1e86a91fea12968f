import type { Kysely } from "kysely";

/**
 * The index behind pruning old live events (EVENT_RETENTION_DAYS): `delete … where created_at < $1`.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("events_created_at_idx").on("events").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("events_created_at_idx").ifExists().execute();
}
