import type { Kysely } from "kysely";

/**
 * Indexes behind filters the core workflow adds (SPEC §2):
 * - Assign Tasks (SPEC §2.17) lists a category's unassigned audios by filename: (category, filename);
 * - a stored file is traced back to its audio by its key (signed file URLs, fetch-files):
 *   audios.file_key, audios.transcript_key, transcript_versions.file_key, translated_recordings.file_key.
 * Frozen in time: imports no application code.
 */
const INDEXES: Array<{ name: string; table: string; columns: string[] }> = [
  { name: "audios_category_filename_idx", table: "audios", columns: ["category", "filename"] },
  { name: "audios_file_key_idx", table: "audios", columns: ["file_key"] },
  { name: "audios_transcript_key_idx", table: "audios", columns: ["transcript_key"] },
  { name: "transcript_versions_file_key_idx", table: "transcript_versions", columns: ["file_key"] },
  { name: "translated_recordings_file_key_idx", table: "translated_recordings", columns: ["file_key"] },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) {
    await db.schema.createIndex(index.name).on(index.table).columns(index.columns).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) {
    await db.schema.dropIndex(index.name).ifExists().execute();
  }
}
