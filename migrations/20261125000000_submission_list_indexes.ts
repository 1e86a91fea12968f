import { sql, type Kysely } from "kysely";

/**
 * The indexes behind the Submissions list (SPEC §2.7), newest first by updated_at:
 * - all submissions: (updated_at, id), the list's whole order;
 * - 'Approved' and 'Rejected' filters: (approval_status, updated_at, id);
 * - 'Needs review' (a transcript or a recording Pending): a partial index on (updated_at, id).
 * The old single-column updated_at index is covered by the first one and dropped.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("submissions_updated_at_id_idx")
    .on("submissions")
    .columns(["updated_at", "id"])
    .execute();
  await db.schema
    .createIndex("submissions_approval_status_idx")
    .on("submissions")
    .columns(["approval_status", "updated_at", "id"])
    .execute();
  await sql`
    create index submissions_needs_review_idx on submissions (updated_at, id)
    where translation_script_approval_status = 'Pending' or recorded_audio_approval_status = 'Pending'`.execute(db);
  await db.schema.dropIndex("submissions_updated_at_idx").ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("submissions_updated_at_idx").on("submissions").column("updated_at").execute();
  await db.schema.dropIndex("submissions_needs_review_idx").ifExists().execute();
  await db.schema.dropIndex("submissions_approval_status_idx").ifExists().execute();
  await db.schema.dropIndex("submissions_updated_at_id_idx").ifExists().execute();
}
