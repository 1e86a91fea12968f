import { sql, type Kysely } from "kysely";

/**
 * Research participants and consent (decision 024):
 *
 * - `participants`: a pseudonymous code (unique whatever its case; no names anywhere), the study
 *   group (Control or Dementia), sex (CHAT's `female`/`male`, null when unknown), the age as a date
 *   of birth or as months on a given day, years of education, languages (ISO 639-3, a JSON array),
 *   cognitive scores (a JSON array of {instrument, score, takenOn}), notes, and consent with its day
 *   and an optional document (a storage key and the file's name). Days are `YYYY-MM-DD` text, so
 *   PGlite and PostgreSQL hand them back alike.
 * - `audios` gain the participant they record (null: not linked yet) and the session's day.
 * - `exports` gain whether 'restricted' consent was included and when the export was superseded
 *   (a participant in it withdrew consent: its link answers 410); `export_participants` says which
 *   participants each finished export holds.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const day = (column: string) => sql`${sql.ref(column)} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`;
  await db.schema
    .createTable("participants")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("study_group", "text", (c) => c.notNull().check(sql`study_group in ('Control', 'Dementia')`))
    .addColumn("sex", "text", (c) => c.check(sql`sex in ('female', 'male')`))
    .addColumn("birth_date", "text", (c) => c.check(day("birth_date")))
    .addColumn("age_months", "integer", (c) => c.check(sql`age_months between 0 and 1800`))
    .addColumn("age_recorded_on", "text", (c) => c.check(day("age_recorded_on")))
    .addColumn("education_years", "integer", (c) => c.check(sql`education_years between 0 and 40`))
    .addColumn("languages", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("scores", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("consent_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("not_recorded")
        .check(sql`consent_status in ('given', 'restricted', 'withdrawn', 'not_recorded')`),
    )
    .addColumn("consent_date", "text", (c) => c.check(day("consent_date")))
    .addColumn("consent_document_key", "text")
    .addColumn("consent_document_name", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Unique whatever the case, and the list's order and code search (prefix LIKE on lower(code)).
  await sql`create unique index participants_code_idx on participants (lower(code) text_pattern_ops)`.execute(db);
  await sql`create index participants_group_code_idx on participants (study_group, lower(code) text_pattern_ops)`.execute(
    db,
  );
  await sql`create index participants_consent_code_idx on participants (consent_status, lower(code) text_pattern_ops)`.execute(
    db,
  );

  await db.schema
    .alterTable("audios")
    .addColumn("participant_id", "uuid", (c) => c.references("participants.id").onDelete("restrict"))
    .addColumn("session_date", "text", (c) => c.check(day("session_date")))
    .execute();
  await db.schema
    .createIndex("audios_participant_idx")
    .on("audios")
    .columns(["participant_id", "created_at"])
    .execute();

  await db.schema
    .alterTable("exports")
    .addColumn("include_restricted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("superseded_at", "timestamptz")
    .execute();
  await db.schema
    .createTable("export_participants")
    .addColumn("participant_id", "uuid", (c) => c.notNull().references("participants.id").onDelete("cascade"))
    .addColumn("export_id", "uuid", (c) => c.notNull().references("exports.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("export_participants_pkey", ["participant_id", "export_id"])
    .execute();
  await db.schema.createIndex("export_participants_export_idx").on("export_participants").column("export_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("export_participants").execute();
  await db.schema.alterTable("exports").dropColumn("superseded_at").dropColumn("include_restricted").execute();
  await db.schema.dropIndex("audios_participant_idx").execute();
  await db.schema.alterTable("audios").dropColumn("session_date").dropColumn("participant_id").execute();
  await db.schema.dropTable("participants").execute();
}
