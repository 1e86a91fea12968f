import type { Executor } from "../../connection";

/**
 * Reuse by content (decision 019): the previous finished export of a choice, and the files a
 * finished export wrote, so the next export of the same choice offers its zip again or copies its
 * unchanged files without hashing them again.
 */

/**
 * The newest finished, not superseded export of a choice whose zip is still downloadable at `now`,
 * or null (a new export of the same choice reuses its archive or its files, decision 019): its id,
 * content key, zip key, size in bytes and link expiry.
 */
export async function latestFinishedExport(
  db: Executor,
  choiceKey: string,
  now: Date,
): Promise<{ id: string; contentKey: string | null; fileKey: string; sizeBytes: number; expiresAt: Date } | null> {
  const row = await db
    .selectFrom("exports")
    .select(["id", "contentKey", "fileKey", "sizeBytes", "expiresAt"])
    .where("choiceKey", "=", choiceKey)
    .where("state", "=", "done")
    .where("expiresAt", ">", now)
    .where("supersededAt", "is", null)
    .orderBy("finishedAt", "desc")
    .executeTakeFirst();
  if (!row?.fileKey || row.sizeBytes === null || row.expiresAt === null) return null;
  return {
    id: row.id,
    contentKey: row.contentKey,
    fileKey: row.fileKey,
    sizeBytes: Number(row.sizeBytes),
    expiresAt: row.expiresAt,
  };
}

/** A file an export wrote: its path in the zip, its source, size in bytes and SHA-256 (hex). */
export interface ExportFileRecord {
  path: string;
  source: string;
  sizeBytes: number;
  sha256: string;
}

/** Records the files a finished export wrote (`export_files`, decision 019), 500 rows per statement. */
export async function insertExportFiles(db: Executor, exportId: string, files: ExportFileRecord[]): Promise<void> {
  for (let i = 0; i < files.length; i += 500) {
    await db
      .insertInto("exportFiles")
      .values(files.slice(i, i + 500).map((f) => ({ exportId, ...f })))
      .execute();
  }
}

/** The files export `exportId` wrote, by path in the zip (decision 019: the unchanged ones are copied). */
export async function exportFileRecords(db: Executor, exportId: string): Promise<Map<string, ExportFileRecord>> {
  const rows = await db
    .selectFrom("exportFiles")
    .select(["path", "source", "sizeBytes", "sha256"])
    .where("exportId", "=", exportId)
    .execute();
  return new Map(rows.map((r) => [r.path, { ...r, sizeBytes: Number(r.sizeBytes) }]));
}
