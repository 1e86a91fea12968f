import type { Database } from "@tafsiri/db";
import { referencedFileKeys } from "@tafsiri/db/repositories/stored-files";
import { deleteResumableUploads, resumableUploadsBefore } from "@tafsiri/db/repositories/resumable-uploads";
import type { FileStorage } from "./file-storage";
import { RESUMABLE_UPLOAD_TTL_MS } from "./upload-store";
import { timeJob } from "../metrics/jobs";

/** How old a file must be before the sweep may remove it, by default: one hour. */
export const FILE_SWEEP_MIN_AGE_MS = 60 * 60 * 1000;

/** Keys checked against the database per query. */
const PAGE_SIZE = 500;

/** What one sweep removed. */
export interface FileSweepReport {
  /** Names of the temp entries removed (unfinished or abandoned uploads), and on S3 the multipart uploads aborted. */
  tempFiles: string[];
  /** Storage keys of the stored files removed because no row pointed at them. */
  files: string[];
}

/** Options of the sweeps: files must be older than `olderThanMs` (default an hour) before `now`. */
export interface FileSweepOptions {
  olderThanMs?: number;
  now?: Date;
}

/** The moment before which a file may be removed. */
function cutoffOf(opts: FileSweepOptions): Date {
  return new Date((opts.now ?? new Date()).getTime() - (opts.olderThanMs ?? FILE_SWEEP_MIN_AGE_MS));
}

/**
 * The part of the sweep that belongs to this process (decision 015): its temp folder's
 * entries as old as the cutoff (storage.sweepTemp). Every server process runs it every round,
 * each on its own DATA_DIR. Returns their names.
 */
export function sweepTempFiles(storage: FileStorage, opts: FileSweepOptions = {}): Promise<string[]> {
  return storage.sweepTemp(cutoffOf(opts));
}

/**
 * Removes resumable uploads started more than `olderThanMs` (default 24 hours)
 * before `now`, finished or not: their bytes in `storage.uploadStore` (one that is already gone is
 * skipped) and their records, in pages of 500. Returns their ids.
 */
export async function sweepResumableUploads(
  deps: { db: Database; storage: FileStorage },
  opts: FileSweepOptions = {},
): Promise<string[]> {
  const cutoff = cutoffOf({ olderThanMs: RESUMABLE_UPLOAD_TTL_MS, ...opts });
  const removed: string[] = [];
  for (;;) {
    const ids = await resumableUploadsBefore(deps.db, cutoff, PAGE_SIZE);
    for (const id of ids) await deps.storage.uploadStore.remove(id).catch(() => undefined);
    await deleteResumableUploads(deps.db, ids);
    removed.push(...ids);
    if (ids.length < PAGE_SIZE) return removed;
  }
}

/** What the shared part of a sweep removed. */
export interface StoredFileSweepReport {
  /** Multipart uploads aborted (S3), as `multipart upload of {key}`, and resumable uploads older than 24 hours, as `resumable upload {id}`. */
  aborted: string[];
  /** Storage keys of the stored files removed because no row pointed at them. */
  files: string[];
}

/**
 * The part of the sweep that acts on what every process shares (decision 015): multipart
 * uploads a crash left unfinished (storage.abortStaleUploads), then stored files as old as the
 * cutoff which no row points at (referencedFileKeys, asked in pages of 500 keys, so no list of
 * every key is held). With several server processes one of them runs it per round (the
 * file-sweep job lock); the age guards keep it safe should two ever overlap.
 */
export async function sweepStoredFiles(
  deps: { db: Database; storage: FileStorage },
  opts: FileSweepOptions = {},
): Promise<StoredFileSweepReport> {
  const cutoff = cutoffOf(opts);
  const aborted = await deps.storage.abortStaleUploads(cutoff);
  const resumable = await sweepResumableUploads(deps, { now: opts.now });
  aborted.push(...resumable.map((id) => `resumable upload ${id}`));
  const files: string[] = [];
  const removeOrphans = async (keys: string[]) => {
    const referenced = await referencedFileKeys(deps.db, keys);
    for (const key of keys) {
      if (!referenced.has(key) && (await deps.storage.deleteIfOlder(key, cutoff))) files.push(key);
    }
  };
  let page: string[] = [];
  for await (const file of deps.storage.list()) {
    if (file.modifiedAt >= cutoff) continue;
    page.push(file.key);
    if (page.length === PAGE_SIZE) {
      await removeOrphans(page);
      page = [];
    }
  }
  await removeOrphans(page);
  return { aborted, files };
}

/**
 * Crash safety of files (ARCHITECTURE "Invariants"): removes what a crash or a failed clean-up left
 * behind, through the storage interface (so for every backend): temp entries last written more
 * than `olderThanMs` milliseconds before `now` (sweepTempFiles), then unfinished multipart
 * uploads and stored files as old as that which no row points at (sweepStoredFiles).
 * The age guard keeps uploads in progress: a file is stored before the row pointing at it
 * commits, and an upload's temp file is written as it arrives, so only a file no request has
 * touched for that long is taken; a file rewritten since it was listed is kept (deleteIfOlder).
 * `olderThanMs` 0 removes every orphan: only for a stopped server (tests, maintenance).
 * Returns what was removed (aborted multipart uploads among the temp entries). Throws on a
 * database or storage error (a later round retries). The server's hourly rounds run the two
 * parts separately (apps/server/src/jobs/file-sweep-timer.ts).
 */
export async function sweepFiles(
  deps: { db: Database; storage: FileStorage },
  opts: FileSweepOptions = {},
): Promise<FileSweepReport> {
  // One cutoff for both parts, as before they were split. Counted as one sweep run (decision 028).
  const fixed = { ...opts, now: opts.now ?? new Date() };
  return timeJob("sweep", async () => {
    const tempFiles = await sweepTempFiles(deps.storage, fixed);
    const { aborted, files } = await sweepStoredFiles(deps, fixed);
    return { tempFiles: [...tempFiles, ...aborted], files };
  });
}
