import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { FileStore } from "@tus/file-store";
import type { S3Store } from "@tus/s3-store";

/** How long an unfinished resumable upload is kept before the sweep removes it: 24 hours. */
export const RESUMABLE_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** Where resumable (tus) uploads keep their bytes until finished: local disk or the S3 bucket. */
export type UploadStore = FileStore | S3Store;

/** The finished file of a resumable upload, taken out of the upload store into a temp file. */
export interface TakenFile {
  /** Absolute path from `storage.tempPath()`; removed after the upload is finished. */
  tempFile: string;
  sizeBytes: number;
  /** The tus metadata the upload started with: `filename` and the form's fields. */
  metadata: Record<string, string | null>;
}

/** A tus upload id as our server names them: 32 hex digits (never a storage key: it has no folder). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Whether `id` has the form of a resumable upload's id. */
export function isUploadId(id: string): boolean {
  return UPLOAD_ID.test(id);
}

/**
 * The tus store of the local backend (decision 020): each upload's bytes and a JSON file of
 * its metadata in `directory` (`DATA_DIR/files/.uploads`, which the stored-file listing skips).
 */
export function createLocalUploadStore(directory: string): FileStore {
  return new FileStore({ directory, expirationPeriodInMilliseconds: RESUMABLE_UPLOAD_TTL_MS });
}

/**
 * Moves the finished upload `id` out of the tus store into `tempFile` (its
 * folder is created): on local disk a rename, elsewhere (S3) a streamed download, after which the
 * upload is removed from the store. Returns the file and its size in bytes, or null when there is
 * no such upload or its bytes are not all there yet.
 */
export async function takeFinishedUpload(store: UploadStore, id: string, tempFile: string): Promise<TakenFile | null> {
  if (!isUploadId(id)) return null;
  const upload = await store.getUpload(id).catch(() => null);
  if (!upload || upload.size === undefined || upload.offset !== upload.size) return null;
  await fs.mkdir(path.dirname(tempFile), { recursive: true });
  if (store instanceof FileStore) {
    await fs.rename(path.join(store.directory, id), tempFile);
    await store.configstore.delete(id);
  } else {
    const body = (await store.read(id)) as Readable;
    try {
      await pipeline(body, createWriteStream(tempFile));
    } catch (error) {
      await fs.rm(tempFile, { force: true });
      throw error;
    }
    await store.remove(id);
  }
  return { tempFile, sizeBytes: upload.size, metadata: upload.metadata ?? {} };
}
