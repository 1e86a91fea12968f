import { createWriteStream, existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { writeBackup } from "@tafsiri/api";
import { createDb } from "@tafsiri/db";
import { embeddedDatabaseInUse, fail, formatBytes, openCliTarget } from "./open-target";

/** What the running server's REST answers hold (GET /api/backups, POST /api/backups). */
interface ServerListing {
  archives: Array<{ name: string; sizeBytes: number; summary: { rows: number; files: number } | null }>;
  running: { name: string } | null;
  lastFailure: { name: string; error: string } | null;
}

/** The running server's base URL: TAFSIRI_URL, else http://{HOST, 127.0.0.1 for a wildcard}:{PORT}. */
function serverUrl(settings: { HOST: string; PORT: number }): string {
  const fromEnv = process.env.TAFSIRI_URL;
  if (fromEnv) return fromEnv.replace(/\/+$/, "");
  const host = settings.HOST === "0.0.0.0" || settings.HOST === "::" ? "127.0.0.1" : settings.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${settings.PORT}`;
}

/**
 * Decision 027: asks the running server at `base` to back up now (POST /api/backups) with admin
 * API token `token` (decision 036), waits for the archive (GET /api/backups every second), then
 * streams it to `out` (a signed link from GET /api/backups/{name}/download; written as
 * `{out}.partial`, renamed when whole). Exits 1 with the server's message when it refuses or
 * the backup fails; resolves once `out` is written.
 */
async function backUpThroughServer(base: string, token: string, out: string): Promise<void> {
  const call = async <T>(method: string, url: string): Promise<T> => {
    const res = await fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}` } }).catch(
      (error: unknown) =>
        fail(`Cannot reach the server at ${base}: ${(error as Error).message}. Set TAFSIRI_URL to its address.`),
    );
    const body = (await res.json().catch(() => ({}))) as T & { message?: string };
    if (!res.ok)
      fail(
        `The server at ${base} refused (${res.status}): ${body.message ?? res.statusText}`,
        res.status === 401 || res.status === 403 ? 2 : 1,
      );
    return body;
  };
  const { name } = await call<{ name: string }>("POST", "/api/backups");
  console.log(`The server at ${base} is backing up to ${name}…`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const listing = await call<ServerListing>("GET", "/api/backups");
    if (listing.running?.name === name) continue;
    if (listing.lastFailure?.name === name) fail(`Backup failed: ${listing.lastFailure.error}`);
    if (listing.archives.some((a) => a.name === name)) break;
    fail(`Backup failed: ${name} is not in the server's backup folder.`);
  }
  const { url } = await call<{ url: string }>("GET", `/api/backups/${encodeURIComponent(name)}/download`);
  const res = await fetch(`${base}${url}`);
  if (!res.ok || !res.body) fail(`Downloading ${name} failed (${res.status}).`);
  const partial = `${out}.partial`;
  await pipeline(
    Readable.fromWeb(res.body as import("node:stream/web").ReadableStream),
    createWriteStream(partial, { flags: "wx" }),
  );
  await fs.rename(partial, out);
  const { size } = await fs.stat(out);
  console.log(
    `Backup written: ${out} (${formatBytes(size)}), taken by the running server (also kept there as ${name})`,
  );
}

/**
 * `npm run backup -- --out FILE` (decision 027, docs/operations.md "Backups and restore"): writes
 * one archive of the database and every stored file it points at, with the server's settings
 * (DATA_DIR, DATABASE_URL, STORAGE, S3_*). On PostgreSQL it runs beside a serving server; the
 * embedded database belongs to one process, so while a server has it open this exits 2 and says
 * to stop the server, use the scheduled backups (BACKUP_DIR) or give an admin API token
 * (`--token tfs_…` or TAFSIRI_TOKEN, decision 036): with one it asks the running server to back
 * up now and downloads the archive (backUpThroughServer). Exit codes: 0 written, 1 failed,
 * 2 refused (bad arguments, database in use without a token, a token refused).
 */
async function main(): Promise<void> {
  let out: string | undefined;
  let token: string | undefined;
  try {
    ({ out, token } = parseArgs({ options: { out: { type: "string" }, token: { type: "string" } } }).values);
  } catch (error) {
    fail(`${(error as Error).message}\nUsage: npm run backup -- --out FILE [--token tfs_…]`, 2);
  }
  token ??= process.env.TAFSIRI_TOKEN || undefined;
  if (!out) fail("Usage: npm run backup -- --out FILE (the archive to write, e.g. tafsiri-backup.zip)", 2);
  const target = await openCliTarget().catch((error: unknown) => fail((error as Error).message, 2));
  const { settings, pgliteDir } = target;
  if (!settings.DATABASE_URL) {
    if (!existsSync(path.join(pgliteDir, "PG_VERSION")))
      fail(`No embedded database at ${pgliteDir}: check DATA_DIR.`, 2);
    if (embeddedDatabaseInUse(pgliteDir)) {
      if (token) {
        await target.storage.close();
        await backUpThroughServer(serverUrl(settings), token, path.resolve(out));
        return;
      }
      fail(
        `The embedded database at ${pgliteDir} is open in another process (a running server: ${path.join(pgliteDir, "postmaster.pid")} exists).\n` +
          "Ask the running server to take the backup: give an admin's API token with write access (TAFSIRI_TOKEN=tfs_… npm run backup -- --out FILE,\n" +
          "or --token tfs_…; make one in the app: Profile menu → API tokens). Or stop the server and run the backup again,\n" +
          "or let the server back itself up: set BACKUP_DIR (and BACKUP_EVERY_HOURS, BACKUP_KEEP).\n" +
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
