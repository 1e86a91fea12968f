import type { Database } from "@tafsiri/db";
import { referencedFileKeys } from "@tafsiri/db/repositories/stored-files";
import type { FileStorage } from "./file-storage";

/** How old a file must be before the sweep may remove it, by default: one hour (issue 10 Build 5). */
export const FILE_SWEEP_MIN_AGE_MS = 60 * 60 * 1000;

/** Keys checked against the database per query. */
const PAGE_SIZE = 500;

/** What one sweep removed. */
export interface FileSweepReport {
  /** Names of the temp entries removed (unfinished or abandoned uploads). */
  tempFiles: string[];
  /** Storage keys of the stored files removed because no row pointed at them. */
  files: string[];
}

/**
 * Issue 10 Build 5 (crash safety of files): removes what a crash or a failed clean-up left
 * behind, through the storage interface (so for every backend): temp entries last written more
 * than `olderThanMs` milliseconds before `now`, then stored files as old as that which no row
 * points at (referencedFileKeys, asked in pages of 500 keys, so no list of every key is held).
 * The age guard keeps uploads in progress: a file is stored before the row pointing at it
 * commits, and an upload's temp file is written as it arrives, so only a file no request has
 * touched for that long is taken; a file rewritten since it was listed is kept (deleteIfOlder).
 * `olderThanMs` 0 removes every orphan: only for a stopped server (tests, maintenance).
 * Returns what was removed. Throws on a database or storage error (a later round retries).
 */
export async function sweepFiles(
  deps: { db: Database; storage: FileStorage },
  opts: { olderThanMs?: number; now?: Date } = {},
): Promise<FileSweepReport> {
  const olderThanMs = opts.olderThanMs ?? FILE_SWEEP_MIN_AGE_MS;
  const cutoff = new Date((opts.now ?? new Date()).getTime() - olderThanMs);
  const tempFiles = await deps.storage.sweepTemp(cutoff);
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
  return { tempFiles, files };
}
