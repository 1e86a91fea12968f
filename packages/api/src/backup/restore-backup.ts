import { promises as fs } from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import yauzl from "yauzl";
import { createDb, isKnownMigration, latestMigrationName } from "@tafsiri/db";
import type { FileStorage } from "../storage/file-storage";
import { isStorageKey } from "../storage/file-storage";
import { startPostgresRestore } from "./database-dump";
import { hashing } from "./hashing";
import { FILES_PREFIX, MANIFEST_ENTRY, ZBackupManifest, type BackupManifest } from "./manifest";
import { databaseFacts } from "@tafsiri/db/repositories/backup-snapshot";

/** Where a restore writes: an empty PostgreSQL database (`databaseUrl`) or PGlite data directory, and an empty storage. */
export interface RestoreTarget {
  databaseUrl?: string | undefined;
  /** The embedded database's data directory (DATA_DIR/db) when there is no `databaseUrl`. */
  pgliteDir?: string | undefined;
  storage: FileStorage;
  /** How the storage is named in messages, e.g. `the folder /srv/data/files` or `the bucket "tafsiri"`. */
  storageName: string;
}

/** What a restore restored. */
export interface RestoreSummary {
  manifest: BackupManifest;
  /** Rows per table, counted in the restored database (equal to the manifest's). */
  tables: Record<string, number>;
  files: number;
  /** Bytes of the restored files. */
  fileBytes: number;
}

/** A restore that did not happen, with why (a non-empty target, a damaged or foreign archive); nothing was changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestoreRefusedError";
  }
}

/** Reads a whole small entry (the manifest) of an open archive into memory. */
export async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Why the target is not empty, or null when it is. */
async function whyNotEmpty(target: RestoreTarget): Promise<string | null> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
      );
      if (rows.length > 0) {
        const names = rows.slice(0, 3).map((r) => r.name);
        return `the database is not empty: its public schema has ${rows.length} table(s) (${names.join(", ")}${rows.length > 3 ? ", …" : ""})`;
      }
    } finally {
      await client.end();
    }
  } else if (target.pgliteDir) {
    const entries = await fs.readdir(target.pgliteDir).catch(() => []);
    if (entries.length > 0) {
      return `the data directory ${target.pgliteDir} is not empty (${entries.length} entries, e.g. ${entries.slice(0, 2).join(", ")})`;
    }
  }
  for await (const file of target.storage.list()) {
    return `${target.storageName} is not empty (it holds ${file.key}, among others perhaps)`;
  }
  return null;
}

/**
 * Decision 027: restores backup archive `archive` (written by writeBackup) into `target`, which
 * must be empty: no table in the PostgreSQL database's public schema (or no entry in the PGlite
 * data directory) and no stored file. A non-empty target, a foreign archive, an archive whose last
 * migration this code does not know (taken by a newer version) or a damaged database dump rejects with RestoreRefusedError saying which and what it found, before anything is written.
 *
 * Then every stored file is written through `target.storage`, its size and SHA-256 checked as
 * it streams (a mismatch rejects naming the key: `stored file {key} in the archive does not
 * match its manifest (size or SHA-256)`, and the files written so far are removed again); then the
 * database: pg_restore in one transaction, or the SQL dump executed on a fresh PGlite instance in
 * `pgliteDir` (removed again on failure). Finally the restored tables are counted and compared
 * with the manifest (a difference rejects). Resolves to what was restored.
 */
export async function restoreBackup(archive: string, target: RestoreTarget): Promise<RestoreSummary> {
  if (!target.databaseUrl && !target.pgliteDir) throw new Error("restoreBackup needs databaseUrl or pgliteDir");
  const zip = await yauzl.openPromise(archive, { lazyEntries: true, autoClose: false }).catch((error: unknown) => {
    throw new RestoreRefusedError(`${archive} is not a readable backup archive: ${(error as Error).message}`);
  });
  try {
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, entry);
    const manifestEntry = entries.get(MANIFEST_ENTRY);
    if (!manifestEntry) throw new RestoreRefusedError(`${archive} has no ${MANIFEST_ENTRY}: not a Tafsiri backup`);
    const parsed = ZBackupManifest.safeParse(JSON.parse((await readEntry(zip, manifestEntry)).toString("utf8")));
    if (!parsed.success)
      throw new RestoreRefusedError(`${archive}'s ${MANIFEST_ENTRY} is not a Tafsiri backup manifest`);
    const manifest = parsed.data;
    const wanted = target.databaseUrl ? "postgres" : "pglite";
    if (manifest.database.kind !== wanted) {
      throw new RestoreRefusedError(
        `the archive holds a ${manifest.database.kind === "postgres" ? "PostgreSQL" : "PGlite (embedded)"} dump; restore it into ${manifest.database.kind === "postgres" ? "a PostgreSQL database (DATABASE_URL)" : "the embedded database (no DATABASE_URL)"}`,
      );
    }
    // A newer version's schema: this code could not serve it, and its migrations would not know it.
    const last = manifest.database.lastMigration;
    if (last !== null && !isKnownMigration(last)) {
      throw new RestoreRefusedError(
        `the archive was taken by a newer version of Tafsiri (version ${manifest.appVersion}, last migration ${last}; ` +
          `this one knows up to ${latestMigrationName()}). Restore it with that version or a later one`,
      );
    }
    const open = async (name: string): Promise<Readable> => {
      const entry = entries.get(name);
      if (!entry) throw new RestoreRefusedError(`the archive lacks ${name}, which its manifest lists`);
      return zip.openReadStreamPromise(entry);
    };
    for (const file of manifest.files) {
      if (!isStorageKey(file.key))
        throw new RestoreRefusedError(`the manifest names an invalid storage key: ${file.key}`);
      if (!entries.has(`${FILES_PREFIX}${file.key}`)) {
        throw new RestoreRefusedError(`the archive lacks ${FILES_PREFIX}${file.key}, which its manifest lists`);
      }
    }
    const why = await whyNotEmpty(target);
    if (why) throw new RestoreRefusedError(`Refusing to restore: ${why}. Restore only into an empty target.`);

    // The database dump is checked whole before anything is written (it is small beside the audio).
    const dumpMismatch = () =>
      new RestoreRefusedError(
        `the database dump ${manifest.database.entry} does not match its manifest (size or SHA-256)`,
      );
    const dumpCheck = hashing({ ...manifest.database, mismatch: dumpMismatch });
    dumpCheck.stream.resume();
    await pipeline(await open(manifest.database.entry), dumpCheck.stream);

    const written: string[] = [];
    let fileBytes = 0;
    try {
      for (const file of manifest.files) {
        const mismatch = () =>
          new RestoreRefusedError(
            `stored file ${file.key} in the archive does not match its manifest (size or SHA-256)`,
          );
        const check = hashing({ ...file, mismatch });
        const body = await open(`${FILES_PREFIX}${file.key}`);
        body.on("error", (error) => check.stream.destroy(error));
        // storage.put reports the check's failure; this keeps a second report from going unheard.
        check.stream.on("error", () => undefined);
        written.push(file.key);
        await target.storage.put(file.key, body.pipe(check.stream));
        fileBytes += file.sizeBytes;
      }
      await restoreDatabase(target, manifest, open);
    } catch (error) {
      for (const key of written) await target.storage.delete(key).catch(() => undefined);
      if (target.pgliteDir) await fs.rm(target.pgliteDir, { recursive: true, force: true });
      throw error;
    }
    const tables = await countRestored(target);
    const differing = Object.keys({ ...tables, ...manifest.database.tables }).filter(
      (name) => tables[name] !== manifest.database.tables[name],
    );
    if (differing.length > 0) {
      throw new Error(
        `the restored database differs from the manifest in ${differing
          .map(
            (name) =>
              `${name} (${tables[name] ?? "missing"} rows, manifest ${manifest.database.tables[name] ?? "missing"})`,
          )
          .join(", ")}`,
      );
    }
    return { manifest, tables, files: manifest.files.length, fileBytes };
  } finally {
    zip.close();
  }
}

/** Loads the dump into the target database. */
async function restoreDatabase(
  target: RestoreTarget,
  manifest: BackupManifest,
  open: (name: string) => Promise<Readable>,
): Promise<void> {
  if (target.databaseUrl) {
    const restore = startPostgresRestore(target.databaseUrl);
    const body = await open(manifest.database.entry);
    await Promise.all([pipeline(body, restore.input), restore.done]);
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of await open(manifest.database.entry)) chunks.push(chunk as Buffer);
  const handle = await createDb({ pgliteDir: target.pgliteDir });
  try {
    await handle.pglite!.exec(Buffer.concat(chunks).toString("utf8"));
  } finally {
    await handle.close();
  }
}

/** Rows per table of the restored database, opened afresh (as the server will open it). */
async function countRestored(target: RestoreTarget): Promise<Record<string, number>> {
  const handle = await createDb({ databaseUrl: target.databaseUrl, pgliteDir: target.pgliteDir, poolSize: 1 });
  try {
    return (await databaseFacts(handle.db)).tables;
  } finally {
    await handle.close();
  }
}
