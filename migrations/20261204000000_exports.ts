import { sql, type Kysely } from "kysely";

/**
 * Dataset exports (decision 019). `exports`: one row per export an admin started, with its
 * choice (category, status, approval period, CHAT settings), its progress (`done` of `total`
 * audios, `updated_at` as the running job's heartbeat), and once done the zip's storage key, size
 * and expiry (the download link lasts 24 hours). `export_files`: what each finished export wrote
 * (path in the zip, the stored file it came from, size, SHA-256), so a later export of the same
 * choice reuses what did not change. Rows of a deleted admin stay (created_by set null).
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("exports")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("category", "text", (c) => c.check(sql`category in ('Control', 'Dementia')`))
    .addColumn("status_choice", "text", (c) =>
      c.notNull().check(sql`status_choice in ('completed', 'approved-transcript')`),
    )
    .addColumn("approved_from", "text")
    .addColumn("approved_to", "text")
    .addColumn("chat_settings", "jsonb", (c) => c.notNull())
    .addColumn("choice_key", "text", (c) => c.notNull())
    .addColumn("content_key", "text")
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("running")
        .check(sql`state in ('running', 'done', 'failed')`),
    )
    .addColumn("done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("file_key", "text")
    .addColumn("size_bytes", "bigint")
    .addColumn("reused_files", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reused_archive", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("error", "text")
    .addColumn("finished_at", "timestamptz")
    .addColumn("expires_at", "timestamptz")
    .execute();
  // The Export page lists the newest first.
  await db.schema.createIndex("exports_created_at_idx").on("exports").columns(["created_at desc", "id desc"]).execute();
  // A new export looks for the last finished one of its choice (reuse), and for running ones.
  await db.schema.createIndex("exports_choice_idx").on("exports").columns(["choice_key", "finished_at desc"]).execute();
  await db.schema
    .createIndex("exports_running_idx")
    .on("exports")
    .column("updated_at")
    .where(sql.ref("state"), "=", "running")
    .execute();
  // The file sweep asks which stored keys an export still points at.
  await db.schema.createIndex("exports_file_key_idx").on("exports").column("file_key").execute();
  await db.schema.createIndex("exports_created_by_idx").on("exports").column("created_by").execute();

  await db.schema
    .createTable("export_files")
    .addColumn("export_id", "uuid", (c) => c.notNull().references("exports.id").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("export_files_pkey", ["export_id", "path"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("export_files").ifExists().execute();
  await db.schema.dropTable("exports").ifExists().execute();
}
