import { sql, type Kysely } from "kysely";

/**
 * Initial schema: every entity of SPEC §3 with the enumerations of §9 as check constraints.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('Admin', 'Staff')`))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("image", "text")
    .addColumn("password_changed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);
  await sql`create unique index users_username_key on users (lower(username))`.execute(db);
  await db.schema.createIndex("users_role_idx").on("users").columns(["role", "active"]).execute();

  await db.schema
    .createTable("audios")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("filename", "text", (c) => c.notNull().unique())
    .addColumn("category", "text", (c) => c.notNull().check(sql`category in ('Control', 'Dementia')`))
    .addColumn("file_key", "text", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("transcript_key", "text")
    .addColumn("uploaded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("last_opened_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("time_last_opened", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("audios_category_idx").on("audios").columns(["category", "created_at"]).execute();
  await db.schema.createIndex("audios_uploaded_by_idx").on("audios").column("uploaded_by").execute();
  await db.schema.createIndex("audios_last_opened_by_idx").on("audios").column("last_opened_by").execute();
  await sql`create index audios_filename_trgm_idx on audios using gin (filename gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable("tasks")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("audio_id", "uuid", (c) => c.notNull().unique().references("audios.id").onDelete("cascade"))
    .addColumn("assigned_to", "uuid", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("translation_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("In Progress")
        .check(sql`translation_status in ('In Progress', 'Completed')`),
    )
    .addColumn("recording_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("In Progress")
        .check(sql`recording_status in ('In Progress', 'Completed')`),
    )
    .addColumn("is_complete", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("tasks_assigned_to_idx").on("tasks").columns(["assigned_to", "created_at"]).execute();
  await db.schema.createIndex("tasks_created_at_idx").on("tasks").column("created_at").execute();

  await db.schema
    .createTable("submissions")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("task_id", "uuid", (c) => c.notNull().unique().references("tasks.id").onDelete("cascade"))
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("submission_date", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("translation_script", "text")
    .addColumn("translation_script_approval_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("No transcript")
        .check(sql`translation_script_approval_status in ('No transcript', 'Pending', 'Approved', 'Rejected')`),
    )
    .addColumn("recorded_audio", "text")
    .addColumn("recorded_audio_approval_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("No translation audio")
        .check(sql`recorded_audio_approval_status in ('No translation audio', 'Pending', 'Approved', 'Rejected')`),
    )
    .addColumn("approval_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("Pending")
        .check(sql`approval_status in ('Pending', 'Approved', 'Rejected')`),
    )
    .addColumn("recorded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("submissions_updated_at_idx").on("submissions").column("updated_at").execute();
  await db.schema.createIndex("submissions_submission_date_idx").on("submissions").column("submission_date").execute();
  await db.schema.createIndex("submissions_created_by_idx").on("submissions").column("created_by").execute();
  await db.schema.createIndex("submissions_recorded_by_idx").on("submissions").column("recorded_by").execute();

  await db.schema
    .createTable("transcript_versions")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("submission_id", "uuid", (c) => c.notNull().references("submissions.id").onDelete("cascade"))
    .addColumn("file_key", "text", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("transcript_versions_submission_idx")
    .on("transcript_versions")
    .columns(["submission_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("transcript_versions_created_by_idx")
    .on("transcript_versions")
    .column("created_by")
    .execute();

  await db.schema
    .createTable("translated_recordings")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("submission_id", "uuid", (c) => c.notNull().references("submissions.id").onDelete("cascade"))
    .addColumn("file_key", "text", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("recorded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("uploaded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("translated_recordings_submission_idx")
    .on("translated_recordings")
    .columns(["submission_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("translated_recordings_recorded_by_idx")
    .on("translated_recordings")
    .column("recorded_by")
    .execute();
  await db.schema
    .createIndex("translated_recordings_uploaded_by_idx")
    .on("translated_recordings")
    .column("uploaded_by")
    .execute();

  await db.schema
    .createTable("comments")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("submission_id", "uuid", (c) => c.notNull().references("submissions.id").onDelete("cascade"))
    .addColumn("text", "text", (c) => c.notNull().check(sql`length(btrim(text)) > 0`))
    .addColumn("posted_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("posted_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("comments_submission_idx")
    .on("comments")
    .columns(["submission_id", "posted_at"])
    .execute();
  await db.schema.createIndex("comments_posted_by_idx").on("comments").column("posted_by").execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("recipient_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("sender_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("link", "text", (c) => c.notNull())
    // No foreign key: notifications about a deleted audio stay (ARCHITECTURE.md).
    .addColumn("audio_id", "uuid")
    .addColumn("is_read", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("notifications_recipient_idx")
    .on("notifications")
    .columns(["recipient_id", "created_at"])
    .execute();
  await db.schema.createIndex("notifications_sender_idx").on("notifications").column("sender_id").execute();
  await db.schema.createIndex("notifications_audio_idx").on("notifications").column("audio_id").execute();

  await db.schema
    .createTable("recommendations")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("task_id", "uuid", (c) => c.notNull().references("tasks.id").onDelete("cascade"))
    .addColumn("recommended_to", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("recommended_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("recommendations_task_recipient_key", ["task_id", "recommended_to"])
    .execute();
  await db.schema
    .createIndex("recommendations_recipient_idx")
    .on("recommendations")
    .columns(["recommended_to", "created_at"])
    .execute();
  await db.schema.createIndex("recommendations_created_at_idx").on("recommendations").column("created_at").execute();
  await db.schema.createIndex("recommendations_by_idx").on("recommendations").column("recommended_by").execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "jsonb", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db
    .insertInto("settings")
    .values([
      { key: "transcript_rate_ugx", value: sql`'5000'::jsonb` },
      { key: "recording_rate_ugx", value: sql`'5000'::jsonb` },
    ])
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("actor_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "text")
    .addColumn("detail", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor_id", "created_at"]).execute();
  await db.schema.createIndex("audit_log_entity_idx").on("audit_log").columns(["entity", "entity_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "audit_log",
    "settings",
    "recommendations",
    "notifications",
    "comments",
    "translated_recordings",
    "transcript_versions",
    "submissions",
    "tasks",
    "audios",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
