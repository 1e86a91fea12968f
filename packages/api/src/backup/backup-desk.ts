import { promises as fs } from "node:fs";
import path from "node:path";
import yauzl from "yauzl";
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "@tafsiri/db";
import type { JobLocks } from "@tafsiri/db/repositories/job-locks";
import type { FileStorage } from "../storage/file-storage";
import { timeJob } from "../metrics/jobs";
import { auditBackup, auditBackupFailure } from "./backup-audit";
import { backupFileName, isBackupArchiveName, listBackupArchives } from "./backup-folder";
import { MANIFEST_ENTRY, ZBackupManifest } from "./manifest";
import { readEntry } from "./restore-backup";
import { writeBackup } from "./write-backup";

/** What an archive's manifest says, in brief (the Backups page's summary). */
export interface BackupManifestSummary {
  /** When the database snapshot was taken (ISO 8601). */
  createdAt: string;
  appVersion: string;
  databaseKind: "postgres" | "pglite";
  lastMigration: string | null;
  tables: number;
  rows: number;
  files: number;
  /** Bytes of the stored files in the archive (before compression). */
  fileBytes: number;
}

/** The backup the desk is writing now. */
interface RunningBackup {
  name: string;
  startedAt: Date;
  /** The admin who asked for it. */
  actorId: string;
}

/** The last 'Back up now' that failed, until the next one starts. */
interface FailedBackup {
  name: string;
  error: string;
  at: Date;
}

/**
 * Decision 027: the server's backup folder as the Backups page sees it: 'Back up now' (the
 * scheduled backups' writeBackup, under the same `backup` job lock), the archives in it, their
 * manifests, and their removal. One per server process (AppDeps.backups).
 */
export interface BackupDesk {
  /** The folder (absolute): BACKUP_DIR, or `{DATA_DIR}/backups` when BACKUP_DIR is unset. */
  readonly dir: string;
  /** Whether the server also backs up on a schedule (BACKUP_DIR is set). */
  readonly scheduled: boolean;
  /** The backup being written by 'Back up now', or null. */
  running(): RunningBackup | null;
  /** The last 'Back up now' that failed (null once another starts or none failed). */
  lastFailure(): FailedBackup | null;
  /**
   * Starts a backup into `dir` for admin `actorId` and resolves with its archive's name as soon as
   * the `backup` job lock is held (the archive is written in the background; running() tells).
   * Resolves null when a backup is being written already (this desk's, the schedule's, or another
   * process's holding the lock). Rejects when the lock cannot be asked for.
   */
  start(actorId: string): Promise<string | null>;
  /** Resolves when no backup started here is being written (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops: a backup being written is abandoned (its `.partial` removed) and awaited. */
  stop(): Promise<void>;
}

/** What the desk backs up and with whom it agrees. */
export interface BackupDeskDeps {
  db: Database;
  storage: FileStorage;
  databaseUrl?: string | undefined;
  pglite?: PGlite | undefined;
  locks: JobLocks;
  /** The folder; created when the first backup is written. */
  dir: string;
  /** Whether the schedule writes into `dir` too (BACKUP_DIR set). */
  scheduled: boolean;
  /** Told of a backup that failed (the server's log). */
  log?: (line: string) => void;
}

/**
 * Decision 027: opens the desk of folder `deps.dir` (see BackupDesk). Writing is audited like the
 * schedule's (`backup` with the admin as actor; `backup-failed`) and timed with timeJob("backup").
 */
export function openBackupDesk(deps: BackupDeskDeps): BackupDesk {
  const dir = path.resolve(deps.dir);
  let current: RunningBackup | null = null;
  let failure: FailedBackup | null = null;
  let work: Promise<void> | null = null;
  let abort: AbortController | null = null;

  const write = async (run: RunningBackup, controller: AbortController): Promise<void> => {
    // Lets the answer to 'Back up now' go out before PGlite's dump holds the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    await fs.mkdir(dir, { recursive: true });
    const started = Date.now();
    try {
      const summary = await timeJob("backup", () =>
        writeBackup(
          { db: deps.db, storage: deps.storage, databaseUrl: deps.databaseUrl, pglite: deps.pglite },
          path.join(dir, run.name),
          { signal: controller.signal },
        ),
      );
      const { manifest } = summary;
      const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
      await auditBackup(
        deps.db,
        run.name,
        { bytes: summary.sizeBytes, files: manifest.files.length, rows, durationMs: Date.now() - started, removed: [] },
        run.actorId,
      );
    } catch (error) {
      const message = controller.signal.aborted
        ? "abandoned: the server was stopping"
        : error instanceof Error
          ? error.message
          : String(error);
      failure = { name: run.name, error: message, at: new Date() };
      deps.log?.(`backup ${run.name} failed: ${message}`);
      await auditBackupFailure(
        deps.db,
        { file: run.name, error: message, durationMs: Date.now() - started },
        run.actorId,
      ).catch(() => undefined);
    }
  };

  return {
    dir,
    scheduled: deps.scheduled,
    running: () => current,
    lastFailure: () => failure,
    async start(actorId) {
      if (current) return null;
      let began!: (name: string) => void;
      const beganWith = new Promise<string>((resolve) => (began = resolve));
      const round = deps.locks.runRound("backup", async () => {
        const run: RunningBackup = { name: backupFileName(new Date()), startedAt: new Date(), actorId };
        const controller = new AbortController();
        current = run;
        abort = controller;
        failure = null;
        began(run.name);
        try {
          await write(run, controller);
        } finally {
          current = null;
          abort = null;
        }
      });
      work = round.then(
        () => undefined,
        () => undefined,
      );
      const first = await Promise.race([beganWith, round.then(() => null)]);
      return first;
    },
    async idle() {
      await work;
    },
    async stop() {
      abort?.abort(new Error("the server is stopping"));
      await work;
    },
  };
}

const summaries = new Map<string, BackupManifestSummary>();

/**
 * Decision 027: the summary of the manifest of archive `file` (read from the ZIP's
 * `manifest.json`, never the whole archive; remembered per path and size, as archives never
 * change). Rejects when the file is not a readable Tafsiri backup.
 */
export async function readBackupSummary(file: string, sizeBytes: number): Promise<BackupManifestSummary> {
  const cacheKey = `${file}\n${sizeBytes}`;
  const known = summaries.get(cacheKey);
  if (known) return known;
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== MANIFEST_ENTRY) continue;
      const manifest = ZBackupManifest.parse(JSON.parse((await readEntry(zip, entry)).toString("utf8")));
      const summary: BackupManifestSummary = {
        createdAt: manifest.createdAt,
        appVersion: manifest.appVersion,
        databaseKind: manifest.database.kind,
        lastMigration: manifest.database.lastMigration,
        tables: Object.keys(manifest.database.tables).length,
        rows: Object.values(manifest.database.tables).reduce((a, b) => a + b, 0),
        files: manifest.files.length,
        fileBytes: manifest.files.reduce((a, f) => a + f.sizeBytes, 0),
      };
      summaries.set(cacheKey, summary);
      return summary;
    }
    throw new Error(`${path.basename(file)} has no ${MANIFEST_ENTRY}`);
  } finally {
    zip.close();
  }
}

/** One archive of the folder with its size in bytes. */
export interface BackupArchiveFile {
  name: string;
  at: Date;
  sizeBytes: number;
  /** Its absolute path. */
  file: string;
}

/**
 * Decision 027: the archives in `dir`, newest first, with their sizes (an archive removed while
 * listed is left out). Rejects when the folder cannot be read.
 */
export async function backupArchiveFiles(dir: string): Promise<BackupArchiveFile[]> {
  const found: BackupArchiveFile[] = [];
  for (const archive of (await listBackupArchives(dir)).reverse()) {
    const file = path.join(dir, archive.name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat?.isFile()) found.push({ ...archive, sizeBytes: stat.size, file });
  }
  return found;
}

/**
 * Decision 027: the archive `name` of `dir` when `name` is an archive name (isBackupArchiveName:
 * no folder, no `..`) and such a file exists there; else null. The only way a client's name becomes a path.
 */
export async function findBackupArchive(dir: string, name: string): Promise<BackupArchiveFile | null> {
  if (!isBackupArchiveName(name)) return null;
  return (await backupArchiveFiles(dir)).find((a) => a.name === name) ?? null;
}
