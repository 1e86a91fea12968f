import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import yazl from "yazl";
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "@tafsiri/db";
import { StoredFileMissingError, type FileStorage } from "../storage/file-storage";
import { dumpPglite, startPostgresDump } from "./database-dump";
import { hashing } from "./hashing";
import {
  appVersion,
  FILES_PREFIX,
  MANIFEST_ENTRY,
  PGLITE_DUMP_ENTRY,
  POSTGRES_DUMP_ENTRY,
  type BackupFile,
  type BackupManifest,
} from "./manifest";
import {
  databaseFacts,
  exportSnapshot,
  referencedKeys,
  type DatabaseFacts,
} from "@tafsiri/db/repositories/backup-snapshot";

/** What a backup reads: the app's database (PostgreSQL at `databaseUrl`, or the embedded `pglite`) and its storage. */
export interface BackupSource {
  db: Database;
  storage: FileStorage;
  /** Set for PostgreSQL (pg_dump connects to it). */
  databaseUrl?: string | undefined;
  /** The embedded database's instance, when there is no `databaseUrl`. */
  pglite?: PGlite | undefined;
}

/** What `writeBackup` wrote. */
export interface BackupSummary {
  file: string;
  /** The archive's size in bytes. */
  sizeBytes: number;
  manifest: BackupManifest;
}

/** Attempts of a backup whose stored file was removed after the snapshot (an audio deleted meanwhile). */
const ATTEMPTS = 3;

/** A file the snapshot's rows point at is gone by the time it is copied: the backup starts again. */
class FileGoneError extends Error {
  constructor(readonly key: string) {
    super(`stored file ${key} was removed while the backup ran`);
  }
}

/** Extensions of stored files that shrink when deflated; audio and PDFs are stored as they are. */
const COMPRESSIBLE = /\.(txt|cha|json|csv|peaks)$/i;

/**
 * Decision 027: writes one backup archive to `outFile` (a ZIP, zip64 where needed): the
 * database's dump as of one snapshot, every stored file that snapshot's rows point at (as
 * `files/{key}`, each hashed while it streams, never held in memory), then `manifest.json`
 * (app version, last migration, rows per table, each file's key, size in bytes and SHA-256).
 *
 * Consistency while the server serves: on PostgreSQL a `repeatable read, read only` transaction
 * exports its snapshot (`pg_export_snapshot`), pg_dump runs in that snapshot and the row counts
 * and storage keys are read in the same transaction; on PGlite the database's one Kysely
 * connection is held while the counts, the keys and the dump are taken, so no write of the app
 * interleaves (they wait). Stored files are written before the row pointing at them commits and,
 * but for an initial transcript written again (listed in `rewrittenAfterSnapshot`), never
 * rewritten under the same key; a file removed after the snapshot (its audio deleted meanwhile)
 * starts the backup again, up to 3 attempts, then rejects naming the key.
 *
 * Written to `{outFile}.partial` and renamed when complete, so `outFile` is whole or absent.
 * Rejects (and removes the partial file) when pg_dump fails, the storage cannot be read, or
 * `outFile` exists already; with `opts.signal`, also when it is aborted (pg_dump and the file
 * being copied are stopped; PGlite's in-process dump cannot be, so it is abandoned once it ends),
 * with the signal's reason.
 */
export async function writeBackup(
  source: BackupSource,
  outFile: string,
  opts: { signal?: AbortSignal } = {},
): Promise<BackupSummary> {
  if (await fs.stat(outFile).catch(() => null)) throw new Error(`${outFile} exists already: choose a new name`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(source, outFile, opts.signal);
    } catch (error) {
      if (!(error instanceof FileGoneError) || attempt >= ATTEMPTS) throw error;
    }
  }
}

async function writeOnce(source: BackupSource, outFile: string, signal?: AbortSignal): Promise<BackupSummary> {
  const partial = `${outFile}.partial`;
  await fs.mkdir(path.dirname(path.resolve(outFile)), { recursive: true });
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as unknown as Readable;
  const written = pipeline(output, createWriteStream(partial, { flags: "wx" }));
  written.catch(() => undefined);
  try {
    const version = appVersion();
    signal?.throwIfAborted();
    const snapshot = await dumpDatabase(source, zip, signal);
    const files: BackupFile[] = [];
    const rewritten: string[] = [];
    // S3 keeps whole seconds: a file written in the snapshot's second is not counted as rewritten.
    const snapshotSecond = Math.floor(snapshot.at.getTime() / 1000) * 1000;
    for (const key of snapshot.keys) {
      signal?.throwIfAborted();
      const stat = await source.storage.stat(key);
      if (!stat) throw new FileGoneError(key);
      if (stat.modifiedAt.getTime() > snapshotSecond + 999) rewritten.push(key);
      const body = await source.storage.read(key).catch((error: unknown) => {
        throw error instanceof StoredFileMissingError ? new FileGoneError(key) : error;
      });
      const hashed = hashing();
      zip.addReadStream(hashed.stream, `${FILES_PREFIX}${key}`, { compress: COMPRESSIBLE.test(key) });
      await Promise.all([pipeline(body, hashed.stream, { signal }), finished(hashed.stream)]);
      files.push({ key, ...hashed.result() });
    }
    const manifest: BackupManifest = {
      format: "tafsiri-backup",
      formatVersion: 1,
      createdAt: snapshot.at.toISOString(),
      appVersion: await version,
      database: { kind: snapshot.kind, entry: snapshot.entry, ...snapshot.dump, ...snapshot.facts },
      files,
      rewrittenAfterSnapshot: rewritten,
    };
    signal?.throwIfAborted();
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_ENTRY);
    zip.end();
    await written;
    await fs.rename(partial, outFile);
    const { size } = await fs.stat(outFile);
    return { file: outFile, sizeBytes: size, manifest };
  } catch (error) {
    output.destroy();
    await written.catch(() => undefined);
    await fs.rm(partial, { force: true });
    throw error;
  }
}

/** The database part of a backup, as of its snapshot. */
interface Snapshot {
  kind: "postgres" | "pglite";
  entry: string;
  at: Date;
  dump: { sizeBytes: number; sha256: string };
  facts: DatabaseFacts;
  keys: string[];
}

/** Adds the database's dump to `zip` and reads the snapshot's row counts and storage keys. */
async function dumpDatabase(source: BackupSource, zip: yazl.ZipFile, signal?: AbortSignal): Promise<Snapshot> {
  const collect = async (db: Parameters<typeof databaseFacts>[0]) => {
    const facts = await databaseFacts(db);
    const keys: string[] = [];
    for await (const key of referencedKeys(db)) keys.push(key);
    return { facts, keys };
  };
  if (source.databaseUrl) {
    const url = source.databaseUrl;
    return source.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .setAccessMode("read only")
      .execute(async (trx) => {
        const { id, at } = await exportSnapshot(trx);
        const dump = startPostgresDump(url, id);
        const hashed = hashing();
        zip.addReadStream(hashed.stream, POSTGRES_DUMP_ENTRY, { compress: false });
        const [, , , read] = await Promise.all([
          pipeline(dump.output, hashed.stream, { signal }),
          finished(hashed.stream),
          dump.done,
          collect(trx),
        ]);
        return { kind: "postgres", entry: POSTGRES_DUMP_ENTRY, at, dump: hashed.result(), ...read };
      });
  }
  const pglite = source.pglite;
  if (!pglite) throw new Error("writeBackup needs databaseUrl (PostgreSQL) or pglite (the embedded database)");
  return source.db.connection().execute(async (conn) => {
    const at = new Date();
    const read = await collect(conn);
    const sqlDump = await dumpPglite(pglite);
    const hashed = hashing();
    hashed.stream.end(sqlDump);
    hashed.stream.resume();
    await finished(hashed.stream);
    zip.addBuffer(sqlDump, PGLITE_DUMP_ENTRY);
    return { kind: "pglite", entry: PGLITE_DUMP_ENTRY, at, dump: hashed.result(), ...read };
  });
}
