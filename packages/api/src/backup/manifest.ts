import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The archive's name for the manifest, the database dump and the folder of stored files (decision 027). */
export const MANIFEST_ENTRY = "manifest.json";
/** PostgreSQL: `pg_dump -Fc` output, restored with `pg_restore`. */
export const POSTGRES_DUMP_ENTRY = "database.pgdump";
/** Embedded PGlite: the plain SQL of PGlite's pg_dump (`--inserts`), executed on a fresh instance. */
export const PGLITE_DUMP_ENTRY = "database.sql";
/** Stored file `key` is kept in the archive as `files/{key}`. */
export const FILES_PREFIX = "files/";

/** What the archive says about one stored file: its key, size in bytes and SHA-256 (hex). */
const ZBackupFile = z.object({
  key: z.string().min(1),
  sizeBytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupFile = z.infer<typeof ZBackupFile>;

/** `manifest.json`, the last entry of a backup archive (decision 027). */
export const ZBackupManifest = z.object({
  format: z.literal("tafsiri-backup"),
  formatVersion: z.literal(1),
  /** When the database snapshot was taken (ISO 8601, UTC). */
  createdAt: z.string(),
  /** The app that wrote it: `git describe` where available, else the root package.json version. */
  appVersion: z.string(),
  database: z.object({
    kind: z.enum(["postgres", "pglite"]),
    /** Its entry in the archive: POSTGRES_DUMP_ENTRY or PGLITE_DUMP_ENTRY. */
    entry: z.string(),
    sizeBytes: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** The name of the last migration applied (kysely_migration), null for an unmigrated database. */
    lastMigration: z.string().nullable(),
    /** Rows per table of the public schema, in the snapshot. */
    tables: z.record(z.string(), z.number().int().min(0)),
  }),
  /** Every stored file the snapshot's rows point at, each as `files/{key}` in the archive. */
  files: z.array(ZBackupFile),
  /**
   * Keys whose content was written again after the snapshot (only the initial transcript's
   * `initial-transcripts/{audio}.txt` is ever rewritten under its key): the archive holds the newer content.
   */
  rewrittenAfterSnapshot: z.array(z.string()),
});
export type BackupManifest = z.infer<typeof ZBackupManifest>;

const run = promisify(execFile);

/**
 * The repository's root: the nearest folder above this module (in src/ or in the compiled
 * apps/server/dist/) whose package.json declares the workspaces; null when there is none.
 */
async function repositoryRoot(): Promise<string | null> {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as { workspaces?: unknown };
      if (pkg.workspaces) return dir;
    } catch {
      // No package.json here: look further up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The app's version for the manifest: `git describe --tags --always --dirty` of the repository
 * when git and the repository are there, else `v{version}` of the root package.json, else
 * "unknown". Never throws.
 */
export async function appVersion(): Promise<string> {
  const root = await repositoryRoot();
  if (root === null) return "unknown";
  try {
    const { stdout } = await run("git", ["describe", "--tags", "--always", "--dirty"], { cwd: root, timeout: 5000 });
    if (stdout.trim()) return stdout.trim();
  } catch {
    // No git or no repository (a container image): the package version below.
  }
  try {
    const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { version?: unknown };
    if (typeof pkg.version === "string") return `v${pkg.version}`;
  } catch {
    // Not readable: unknown.
  }
  return "unknown";
}
