import { rm } from "node:fs/promises";
import type { Database, DbTransaction } from "@tafsiri/db";
import type { FileStorage } from "../storage/file-storage";

/** A file a state change writes, and how to take it back. */
export interface FileToStore {
  /** Writes (or adopts) the whole file under its key. */
  write(): Promise<void>;
  /** Removes what `write` stored (the transaction failed after it). */
  undo(): Promise<void>;
}

/** An upload the REST layer wrote to `storage.tempPath()`, moved to `key` (local disk: a rename; S3: a streamed upload). */
export function adoptedUpload(storage: FileStorage, tempFile: string, key: string): FileToStore {
  return { write: () => storage.adopt(tempFile, key), undo: () => storage.delete(key) };
}

/**
 * Text written under `key`, all or nothing (storage.put). `undo` removes it unless `keepOnUndo`
 * (the key was in use before, so the row pointing to it must keep a file).
 */
export function textFile(
  storage: FileStorage,
  key: string,
  text: string,
  opts: { keepOnUndo?: boolean } = {},
): FileToStore {
  return {
    write: async () => {
      await storage.put(key, text);
    },
    undo: () => (opts.keepOnUndo ? Promise.resolve() : storage.delete(key)),
  };
}

/**
 * Runs `work` in one transaction (ARCHITECTURE "Invariants"). `work` checks what it must, then
 * calls `store(file)` so the file is fully written before the row pointing to it commits.
 * If anything fails, the files stored so far are removed and the error is rethrown: a failed
 * request leaves neither half behind. `tempFile` (an upload not yet adopted) is deleted in
 * every case; once adopted it is no longer there.
 */
export async function commitWithFile<T>(
  db: Database,
  work: (trx: DbTransaction, store: (file: FileToStore) => Promise<void>) => Promise<T>,
  opts: { tempFile?: string } = {},
): Promise<T> {
  const stored: FileToStore[] = [];
  const store = async (file: FileToStore) => {
    await file.write();
    stored.push(file);
  };
  try {
    return await db.transaction().execute((trx) => work(trx, store));
  } catch (error) {
    await Promise.allSettled(stored.map((file) => file.undo()));
    throw error;
  } finally {
    if (opts.tempFile) await rm(opts.tempFile, { force: true }).catch(() => undefined);
  }
}
