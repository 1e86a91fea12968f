import { sql, type Kysely } from "kysely";

/**
 * When each output of a submission was last reviewed (decision 011, the team report's period: SPEC
 * §2.6, "approval time decides the period"): `transcript_reviewed_at` / `recording_reviewed_at`
 * hold the time the transcript / recording became Approved or Rejected, and are null while it is
 * Pending or absent (the review transitions set and clear them). Existing reviewed outputs take
 * the time of their latest approve/reject audit entry, or the submission's updated_at when
 * there is none. Each time is indexed where it is set (a period's reviews).
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("submissions")
    .addColumn("transcript_reviewed_at", "timestamptz")
    .addColumn("recording_reviewed_at", "timestamptz")
    .execute();
  for (const [column, status, entity] of [
    ["transcript_reviewed_at", "translation_script_approval_status", "transcript"],
    ["recording_reviewed_at", "recorded_audio_approval_status", "recording"],
  ] as const) {
    await sql`
      update submissions s
      set ${sql.ref(column)} = coalesce(
        (select max(a.created_at) from audit_log a
         where a.entity = ${entity} and a.entity_id = s.id::text and a.action in ('approve', 'reject')),
        s.updated_at)
      where s.${sql.ref(status)} in ('Approved', 'Rejected')`.execute(db);
    await sql`
      create index ${sql.id(`submissions_${column}_idx`)} on submissions (${sql.ref(column)})
      where ${sql.ref(column)} is not null`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("submissions_recording_reviewed_at_idx").ifExists().execute();
  await db.schema.dropIndex("submissions_transcript_reviewed_at_idx").ifExists().execute();
  await db.schema
    .alterTable("submissions")
    .dropColumn("transcript_reviewed_at")
    .dropColumn("recording_reviewed_at")
    .execute();
}
