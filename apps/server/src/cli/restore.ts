import path from "node:path";
import { parseArgs } from "node:util";
import { restoreBackup, RestoreRefusedError } from "@tafsiri/api";
import { embeddedDatabaseInUse, fail, formatBytes, openCliTarget } from "./open-target";

/**
 * `npm run restore -- FILE` (decision 027, docs/operations.md "Backups and restore"): restores a
 * backup archive into the database and storage the settings name, which must be empty; then the
 * server starts on them. Prints the tables with their row counts and the files with their bytes.
 * Exit codes: 0 restored, 1 failed, 2 refused (bad arguments, a non-empty target, a damaged archive).
 */
async function main(): Promise<void> {
  let file: string | undefined;
  try {
    file = parseArgs({ allowPositionals: true }).positionals[0];
  } catch (error) {
    fail(`${(error as Error).message}\nUsage: npm run restore -- FILE`, 2);
  }
  if (!file) fail("Usage: npm run restore -- FILE (a backup archive written by npm run backup)", 2);
  const target = await openCliTarget().catch((error: unknown) => fail((error as Error).message, 2));
  const { settings, pgliteDir } = target;
  if (!settings.DATABASE_URL && embeddedDatabaseInUse(pgliteDir)) {
    fail(`The embedded database at ${pgliteDir} is open in another process (a running server): stop it first.`, 2);
  }
  try {
    const summary = await restoreBackup(path.resolve(file), {
      databaseUrl: settings.DATABASE_URL,
      pgliteDir: settings.DATABASE_URL ? undefined : pgliteDir,
      storage: target.storage,
      storageName: target.storageName,
    });
    const lines = Object.entries(summary.tables).map(([name, n]) => `    ${name}: ${n}`);
    console.log(
      `Restored ${file} (written ${summary.manifest.createdAt} by ${summary.manifest.appVersion})\n` +
        `  database: ${lines.length} tables\n${lines.join("\n")}\n` +
        `  files: ${summary.files} (${formatBytes(summary.fileBytes)}) into ${target.storageName}\n` +
        "Start the server on these settings (npm start).",
    );
  } catch (error) {
    if (error instanceof RestoreRefusedError) fail(`Restore refused: ${error.message}`, 2);
    throw error;
  } finally {
    await target.storage.close();
  }
}

main().catch((error: unknown) => fail(`Restore failed: ${error instanceof Error ? error.message : String(error)}`));
