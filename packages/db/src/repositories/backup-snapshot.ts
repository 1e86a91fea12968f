import { sql } from "kysely";
import type { DbTransaction, Executor } from "../connection";

/** Keys read per query by `referencedKeys`. */
const PAGE_SIZE = 1000;

/**
 * Every storage key a row of `db` points at, in key order, each once, read in pages of 1000 by
 * keyset (so run it in the snapshot's transaction or connection to get the snapshot's keys). The
 * columns are those the file sweep keeps (referencedFileKeys in @tafsiri/db): audios.file_key,
 * transcript_key, peaks_key; transcript_versions.file_key; translated_recordings.file_key,
 * peaks_key; submissions.recorded_audio, translation_script; participants.consent_document_key;
 * segment_takes.file_key (decision 035); and exports.file_key while its link lasts (an expired export's zip is the sweep's to remove,
 * decision 019). Decision 027.
 */
export async function* referencedKeys(db: Executor): AsyncGenerator<string> {
  let after = "";
  for (;;) {
    const { rows } = await sql<{ key: string }>`
      select key from (
        select file_key as key from audios
        union select transcript_key from audios
        union select peaks_key from audios
        union select file_key from transcript_versions
        union select file_key from translated_recordings
        union select peaks_key from translated_recordings
        union select recorded_audio from submissions
        union select translation_script from submissions
        union select consent_document_key from participants
        union select file_key from segment_takes
        union select file_key from exports where expires_at is null or expires_at > now()
      ) referenced
      where key is not null and key collate "C" > ${after}
      order by key collate "C"
      limit ${PAGE_SIZE}`.execute(db);
    for (const row of rows) yield row.key;
    if (rows.length < PAGE_SIZE) return;
    after = rows[rows.length - 1]!.key;
  }
}

/** What a backup records of the database itself (decision 027). */
export interface DatabaseFacts {
  /** Rows per table of the public schema. */
  tables: Record<string, number>;
  /** The last migration applied, null when kysely_migration is missing or empty. */
  lastMigration: string | null;
}

/** The names of the public schema's tables, in name order. */
async function publicTables(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
    order by table_name collate "C"`.execute(db);
  return rows.map((r) => r.name);
}

/** Counts the rows of every public table and reads the last migration's name, on `db` (decision 027). */
export async function databaseFacts(db: Executor): Promise<DatabaseFacts> {
  const names = await publicTables(db);
  const tables: Record<string, number> = {};
  for (const name of names) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(name)}`.execute(db);
    tables[name] = Number(rows[0]!.n);
  }
  let lastMigration: string | null = null;
  if (names.includes("kysely_migration")) {
    const { rows } = await sql<{ name: string }>`
      select name from kysely_migration order by name collate "C" desc limit 1`.execute(db);
    lastMigration = rows[0]?.name ?? null;
  }
  return { tables, lastMigration };
}

/**
 * Exports the snapshot of transaction `trx` (`pg_export_snapshot()`, PostgreSQL only; open it
 * `repeatable read`) for `pg_dump --snapshot`, with the transaction's start time. The snapshot
 * stays importable while `trx` is open. Decision 027.
 */
export async function exportSnapshot(trx: DbTransaction): Promise<{ id: string; at: Date }> {
  const { rows } = await sql<{ id: string; at: Date }>`select pg_export_snapshot() as id, now() as at`.execute(trx);
  return { id: rows[0]!.id, at: new Date(rows[0]!.at) };
}
