import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeBackup } from "@tafsiri/api";
import { createDb } from "@tafsiri/db";
import { embeddedDatabaseInUse, fail, formatBytes, openCliTarget } from "./open-target";

/**
 * `npm run backup -- --out FILE` (decision 027, docs/operations.md "Backups and restore"): writes
 * one archive of the database and every stored file it points at, with the server's settings
 * (DATA_DIR, DATABASE_URL, STORAGE, S3_*). On PostgreSQL it runs beside a serving server; the
 * embedded database belongs to one process, so while a server has it open this exits 2 and says
 * to stop the server or use the scheduled backups (BACKUP_DIR). Exit codes: 0 written, 1 failed,
 * 2 refused (bad arguments, database in use).
 */
async function main(): Promise<void> {
  let out: string | undefined;
  try {
    ({ out } = parseArgs({ options: { out: { type: "string" } } }).values);
  } catch (error) {
    fail(`${(error as Error).message}\nUsage: npm run backup -- --out FILE`, 2);
  }
  if (!out) fail("Usage: npm run backup -- --out FILE (the archive to write, e.g. tafsiri-backup.zip)", 2);
  const target = await openCliTarget().catch((error: unknown) => fail((error as Error).message, 2));
  const { settings, pgliteDir } = target;
  if (!settings.DATABASE_URL) {
    if (!existsSync(path.join(pgliteDir, "PG_VERSION")))
      fail(`No embedded database at ${pgliteDir}: check DATA_DIR.`, 2);
    if (embeddedDatabaseInUse(pgliteDir)) {
      fail(
        `The embedded database at ${pgliteDir} is open in another process (a running server: ${path.join(pgliteDir, "postmaster.pid")} exists).\n` +
          "Stop the server and run the backup again, or let the server back itself up: set BACKUP_DIR (and BACKUP_EVERY_HOURS, BACKUP_KEEP).\n" +
          "If no server is running (it was killed), remove that postmaster.pid file and try again.",
        2,
      );
    }
  }
  const handle = await createDb({ databaseUrl: settings.DATABASE_URL, pgliteDir, poolSize: 2 });
  try {
    const summary = await writeBackup(
      { db: handle.db, storage: target.storage, databaseUrl: settings.DATABASE_URL, pglite: handle.pglite },
      path.resolve(out),
    );
    const { manifest } = summary;
    const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
    const fileBytes = manifest.files.reduce((a, f) => a + f.sizeBytes, 0);
    console.log(
      `Backup written: ${summary.file} (${formatBytes(summary.sizeBytes)})\n` +
        `  database (${manifest.database.kind}, last migration ${manifest.database.lastMigration ?? "none"}): ` +
        `${Object.keys(manifest.database.tables).length} tables, ${rows} rows, as of ${manifest.createdAt}\n` +
        `  files: ${manifest.files.length} (${formatBytes(fileBytes)})`,
    );
  } finally {
    await handle.close();
    await target.storage.close();
  }
}

main().catch((error: unknown) => fail(`Backup failed: ${error instanceof Error ? error.message : String(error)}`));
