import { sql, type Kysely } from "kysely";

/**
 * Live events (decision 004): every change that other users should see at once is recorded here in
 * the transaction that makes it, and read back by id (ids commit in id order, see recordEvent).
 * audience 'admins' reaches every active admin; 'user' reaches recipient_id only.
 * audio_id has no foreign key: events about a deleted audio stay readable.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("events")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("audience", "text", (c) => c.notNull().check(sql`audience in ('admins', 'user')`))
    .addColumn("recipient_id", "uuid", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("audio_id", "uuid")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("events_recipient_check", sql`(audience = 'user') = (recipient_id is not null)`)
    .execute();
  await db.schema.createIndex("events_recipient_idx").on("events").columns(["recipient_id", "id"]).execute();
  await db.schema.createIndex("events_audience_idx").on("events").columns(["audience", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("events").ifExists().execute();
}
