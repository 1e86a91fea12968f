import { sql, type Kysely } from "kysely";

/**
 * Resumable uploads (decision 020): one row per tus upload a signed-in user started, so that
 * only its owner may continue, finish or cancel it, and so that finishing is done once: the row
 * is claimed (`finishing_at`) by the one request that turns the file into audio, transcript or
 * recording rows, and keeps that request's answer (`result`) for every retry. The bytes live in
 * the tus store, not here. Rows and unfinished bytes older than 24 hours are swept.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("resumable_uploads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finishing_at", "timestamptz")
    .addColumn("result", "jsonb")
    .execute();
  // The sweep removes rows by age; deleting a user finds theirs.
  await db.schema
    .createIndex("resumable_uploads_created_at_idx")
    .on("resumable_uploads")
    .column("created_at")
    .execute();
  await db.schema.createIndex("resumable_uploads_user_id_idx").on("resumable_uploads").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("resumable_uploads").execute();
}
