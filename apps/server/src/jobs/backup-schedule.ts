import { promises as fs } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { FastifyBaseLogger } from "fastify";
import {
  auditBackup,
  auditBackupFailure,
  timeJob,
  backupFileName,
  listBackupArchives,
  writeBackup,
  type BackupSummary,
  type FileStorage,
  type JobLocks,
} from "@tafsiri/api";
import type { Database } from "@tafsiri/db";
import { formatBytes } from "../cli/open-target";
import { HOURLY_MS, skipReason } from "./hourly-job";

// The archives' names and listing live beside writeBackup (the Backups page reads them too).
export { backupFileName, listBackupArchives };

/** The lines the scheduled backups log. */
export type BackupLog = Pick<FastifyBaseLogger, "info" | "warn">;

/** What the scheduled backups back up and how they agree with the other processes. */
export interface BackupScheduleDeps {
  db: Database;
  storage: FileStorage;
  /** Set for PostgreSQL (pg_dump connects to it). */
  databaseUrl?: string | undefined;
  /** The embedded database's instance, when there is no `databaseUrl`. */
  pglite?: PGlite | undefined;
  /** The process's job locks: only the holder of the `backup` lock writes backups. */
  locks: JobLocks;
}

/** BACKUP_DIR, BACKUP_EVERY_HOURS and BACKUP_KEEP, in the units the schedule uses. */
export interface BackupScheduleOptions {
  /** The folder the archives are written to (created if missing). */
  dir: string;
  /** Time from one successful backup to the next, in ms (BACKUP_EVERY_HOURS × 3,600,000). */
  everyMs: number;
  /** How many archives are kept (the newest); at least 1. */
  keep: number;
  log: BackupLog;
  /**
   * Wait in ms before trying again after a failed round or one another process ran; default the
   * smaller of `everyMs` and an hour.
   */
  retryMs?: number;
}

/** A running schedule. */
export interface BackupSchedule {
  /**
   * Stops the timer; a backup being written is abandoned (pg_dump and the copy are stopped, its
   * `.partial` file removed, the run audited as failed) and awaited. Resolves once nothing runs.
   */
  stop(): Promise<void>;
}

/** What writeBackup leaves while it writes one (and a killed process leaves behind). */
const PARTIAL_NAME = /^tafsiri-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.zip\.partial$/;

/** The longest wait setTimeout takes (about 24.8 days); a longer one is waited in steps. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Decision 027: checks at start-up that BACKUP_DIR `dir` can be used: creates it (with its parents)
 * and writes and removes a probe file. Resolves with its absolute path; rejects with
 * `BACKUP_DIR {dir} cannot be used: {why}. …` when it cannot be created or written.
 */
async function checkBackupDir(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  const probe = path.join(absolute, `.tafsiri-backup-probe-${process.pid}`);
  try {
    await fs.mkdir(absolute, { recursive: true });
    await fs.writeFile(probe, "");
    await fs.rm(probe, { force: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why = code === "EACCES" || code === "EPERM" ? "permission denied" : code === "EROFS" ? "read-only" : message;
    throw new Error(
      `BACKUP_DIR ${absolute} cannot be used: ${why}. Set BACKUP_DIR to a folder this server may create and write, or unset it to turn scheduled backups off.`,
    );
  }
  return absolute;
}

/** ms until the next backup is due: an interval after the newest archive in `dir` (0: due now). */
async function dueInMs(dir: string, everyMs: number): Promise<number> {
  const newest = (await listBackupArchives(dir)).at(-1);
  if (!newest) return 0;
  return Math.max(0, newest.at.getTime() + everyMs - Date.now());
}

/** The message of `error`, for logs and the audit entry. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How a round ended: the wait before the next one, in ms. */
type RoundResult = { next: number };

/**
 * Decision 027 (scheduled backups): with BACKUP_DIR set, writes a backup archive
 * (`tafsiri-backup-{UTC time}.zip`, see writeBackup: written as `.partial` and renamed when whole)
 * into `opts.dir` every `opts.everyMs`, counted from the newest complete archive found there, so
 * a restart does not back up again at once and a missed round runs right after start. After each
 * backup the oldest archives beyond `opts.keep` are removed (only files named like the archives).
 *
 * With several processes on one PostgreSQL database only the holder of the `backup` job lock
 * writes (decision 015); the due time is checked again under the lock. Each backup is counted with
 * timeJob("backup") and audited with actor null: action `backup` (entity `archive`, id the file
 * name; detail file, bytes, files, rows, durationMs, removed) or `backup-failed` (detail file,
 * error, durationMs). A failed backup logs a warning and is tried again after `opts.retryMs`.
 *
 * First checks the folder (checkBackupDir) and rejects with its message when it cannot be used;
 * then resolves with the running schedule, whose first round runs in a timer (at once when due).
 */
export async function startBackupSchedule(
  deps: BackupScheduleDeps,
  opts: BackupScheduleOptions,
): Promise<BackupSchedule> {
  const dir = await checkBackupDir(opts.dir);
  const { log, everyMs, keep } = opts;
  const retryMs = opts.retryMs ?? Math.min(everyMs, HOURLY_MS);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let round: Promise<void> | null = null;
  let abort: AbortController | null = null;

  /** Writes one backup, prunes, audits; resolves with the wait before the next round. */
  const backUp = async (): Promise<RoundResult> => {
    if (stopped) return { next: retryMs };
    await removeLeftOverPartials(dir, log);
    const started = new Date();
    const name = backupFileName(started);
    const controller = new AbortController();
    abort = controller;
    let summary: BackupSummary;
    try {
      summary = await timeJob("backup", () =>
        writeBackup(
          { db: deps.db, storage: deps.storage, databaseUrl: deps.databaseUrl, pglite: deps.pglite },
          path.join(dir, name),
          { signal: controller.signal },
        ),
      );
    } catch (error) {
      const durationMs = Date.now() - started.getTime();
      const reason = controller.signal.aborted ? "abandoned: the server was stopping" : messageOf(error);
      log.warn(
        { err: error },
        controller.signal.aborted
          ? `scheduled backup ${name} abandoned: the server is stopping`
          : `scheduled backup failed: ${reason}; trying again in ${Math.round(retryMs / 60_000)} min`,
      );
      await auditBackupFailure(deps.db, { file: name, error: reason, durationMs }).catch((auditError: unknown) =>
        log.warn({ err: auditError }, "scheduled backup: the audit entry failed"),
      );
      return { next: retryMs };
    } finally {
      abort = null;
    }
    const durationMs = Date.now() - started.getTime();
    const removed = await pruneArchives(dir, keep).catch((error: unknown) => {
      log.warn({ err: error }, `scheduled backup: removing archives beyond BACKUP_KEEP=${keep} failed`);
      return [] as string[];
    });
    const { manifest } = summary;
    const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
    await auditBackup(deps.db, name, {
      bytes: summary.sizeBytes,
      files: manifest.files.length,
      rows,
      durationMs,
      removed,
    }).catch((error: unknown) => log.warn({ err: error }, "scheduled backup: the audit entry failed"));
    log.info(
      { file: path.join(dir, name), bytes: summary.sizeBytes, files: manifest.files.length, durationMs, removed },
      `scheduled backup: wrote ${name} (${formatBytes(summary.sizeBytes)}, ${manifest.files.length} file(s)) in ${(durationMs / 1000).toFixed(1)} s` +
        (removed.length > 0 ? `; removed ${removed.length} older archive(s)` : ""),
    );
    return { next: await dueInMs(dir, everyMs) };
  };

  const runRound = async (): Promise<RoundResult> => {
    const wait = await dueInMs(dir, everyMs);
    if (wait > 0) return { next: wait };
    const outcome = await deps.locks.runRound("backup", async () => {
      // Another process may have written one into a shared BACKUP_DIR before this one took the lock.
      const again = await dueInMs(dir, everyMs);
      return again > 0 ? { next: again } : backUp();
    });
    if (outcome.ran) return outcome.value;
    log.info(`scheduled backup: skipped, ${skipReason(outcome)}`);
    return { next: retryMs };
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, Math.min(Math.max(ms, 0), MAX_TIMEOUT_MS));
    timer.unref();
  };

  function tick(): void {
    timer = null;
    round = runRound()
      .catch((error: unknown): RoundResult => {
        // The folder could not be read or the lock not asked for (database unreachable).
        log.warn({ err: error }, `scheduled backup: the round failed: ${messageOf(error)}`);
        return { next: retryMs };
      })
      .then(({ next }) => schedule(next))
      .finally(() => {
        round = null;
      });
  }

  schedule(0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      abort?.abort(new Error("the server is stopping"));
      await round;
    },
  };
}

/**
 * Removes the oldest archives in `dir` beyond the newest `keep` (only files named like the
 * archives). Resolves with the names removed, oldest first.
 */
async function pruneArchives(dir: string, keep: number): Promise<string[]> {
  const archives = await listBackupArchives(dir);
  const old = archives.slice(0, Math.max(0, archives.length - keep)).map((a) => a.name);
  for (const name of old) await fs.rm(path.join(dir, name), { force: true });
  return old;
}

/**
 * Removes `.partial` archives a killed process left in `dir`. Runs under the `backup` job lock,
 * so no other process is writing one there.
 */
async function removeLeftOverPartials(dir: string, log: BackupLog): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => PARTIAL_NAME.test(n))) {
    await fs.rm(path.join(dir, name), { force: true });
    log.info(`scheduled backup: removed ${name}, left unfinished by an earlier run`);
  }
}
