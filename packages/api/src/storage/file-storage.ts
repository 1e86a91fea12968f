import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { createLocalUploadStore, type UploadStore } from "./upload-store";

/** A stored file as `FileStorage.list` reports it. */
interface StoredObject {
  /** Its storage key, e.g. `audios/2f1c….wav`. */
  key: string;
  /** When its content was last written (for an adopted upload: when the upload finished). */
  modifiedAt: Date;
  sizeBytes: number;
}

/** What `FileStorage.stat` tells about a stored file. */
export interface StoredFileStat {
  sizeBytes: number;
  /** When its content was last written (local disk: mtime; S3: LastModified, whole seconds). */
  modifiedAt: Date;
}

/** Bytes `start` to `end` of a file, both included, counted from 0 (HTTP Range semantics). */
interface ByteRange {
  start: number;
  end: number;
}

/** Which backend a storage is: the `STORAGE` setting. */
export type StorageBackend = "local" | "s3";

/**
 * Where uploaded and generated files live: local disk (`createLocalStorage`) or an S3-compatible
 * bucket (`createS3Storage`, decision 014), behind the same interface, so nothing outside
 * `src/storage/` needs a local path for a stored file. Keys are relative paths such as
 * `audios/2f1c….wav`; they never come from user input unchecked (an invalid key throws
 * 'Invalid storage key: …'). Temp files (uploads being received) are always on local disk.
 */
export interface FileStorage {
  /** Which backend this is. */
  readonly backend: StorageBackend;
  /**
   * Stores `body` under `key`, all or nothing: a reader never sees half a file (local disk: a
   * temp file renamed into place; S3: one PutObject or a multipart upload, streamed). Returns
   * the size in bytes.
   */
  put(key: string, body: Readable | Buffer | string): Promise<{ sizeBytes: number }>;
  /**
   * Moves an already written temp file (from `tempPath()`) into place under `key` (local disk: a
   * rename; S3: a streamed multipart upload, then the temp file is removed). Once it resolves the
   * file is readable under `key`; if it rejects the temp file may still exist (the caller removes it).
   */
  adopt(tempFile: string, key: string): Promise<void>;
  /** A fresh path in the storage's temp folder on local disk (its folder may not exist yet). */
  tempPath(): string;
  /** Size and last write time of a stored file; null when there is none. */
  stat(key: string): Promise<StoredFileStat | null>;
  exists(key: string): Promise<boolean>;
  /**
   * Opens a stored file for reading, the whole file or only `range` (bytes, both ends included,
   * within the file: check `stat` first). Resolves once the file is open, so a missing file
   * rejects here (StoredFileMissingError), before anything is sent. The caller must consume or
   * destroy the stream. (decision 014: was a synchronous stream of the whole file.)
   */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The whole file as UTF-8 text; StoredFileMissingError when there is none. */
  readText(key: string): Promise<string>;
  /** Removes a key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every stored key (temp files excluded), one at a time and in no particular order, read lazily
   * so a caller can work in pages. Names that are not valid keys are skipped (never reported,
   * never removed). Keys removed while the listing runs may or may not appear.
   */
  list(): AsyncIterable<StoredObject>;
  /**
   * Removes `key` only if its content was last written before `olderThan`, checked just before
   * the removal (so a file rewritten since it was listed is kept). Returns whether it removed
   * it; a missing key answers false. Throws for an invalid key.
   */
  deleteIfOlder(key: string, olderThan: Date): Promise<boolean>;
  /**
   * Removes temp entries (unfinished or abandoned uploads, from `tempPath()` and `put`) last
   * written before `olderThan`; returns their names. The temp folder is this process's own
   * (DATA_DIR/files/.tmp on either backend). (decisions 014 and 015)
   */
  sweepTemp(olderThan: Date): Promise<string[]>;
  /**
   * On S3: aborts multipart uploads to the bucket started before `olderThan` and never completed
   * (a crash during `adopt`), where the store can list them; returns them named
   * `multipart upload of {key}`. Local disk has none: resolves []. Unlike `sweepTemp` this acts on
   * what every process shares (decision 015: split from `sweepTemp`).
   */
  abortStaleUploads(olderThan: Date): Promise<string[]>;
  /**
   * Where resumable (tus) uploads keep their bytes until they are finished (decision 020):
   * local disk `root/.uploads`; S3 the same bucket, under the upload's id (32 hex digits, never a
   * storage key, so the listing and the orphan sweep leave them alone). A finished upload leaves
   * it for storage through `adopt`, as a multipart upload does.
   */
  readonly uploadStore: UploadStore;
  /** Releases what the storage holds open (S3: the client's sockets); local disk: nothing. */
  close(): Promise<void>;
}

/** A stored file that is not there (read, readText). `code` is ENOENT, as for a missing local file. */
export class StoredFileMissingError extends Error {
  readonly code = "ENOENT";
  constructor(readonly key: string) {
    super(`No stored file: ${key}`);
    this.name = "StoredFileMissingError";
  }
}

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/;

/**
 * Whether `key` is a valid storage key: a folder, then one or more path segments of letters,
 * digits, `_`, `-` and `.`, with no `..` (so it cannot leave the storage).
 */
export function isStorageKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes("..");
}

/** Returns `key` when it is a valid storage key; throws Error 'Invalid storage key: {key}' otherwise. */
export function assertStorageKey(key: string): string {
  if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/** The local temp folder every backend keeps its temp files in, and its sweep. */
export interface TempArea {
  /** A fresh path in the folder (which may not exist yet). */
  tempPath(): string;
  /** Creates the folder if needed. */
  ensure(): Promise<void>;
  /** Removes entries last written before `olderThan`; returns their names. */
  sweep(olderThan: Date): Promise<string[]>;
}

/** The temp folder `tmpDir` on local disk (shared by both backends). */
export function createTempArea(tmpDir: string): TempArea {
  return {
    tempPath: () => path.join(tmpDir, randomUUID()),
    ensure: async () => {
      await fs.mkdir(tmpDir, { recursive: true });
    },
    async sweep(olderThan) {
      const entries = await fs.readdir(tmpDir).catch(() => []);
      const removed: string[] = [];
      for (const name of entries) {
        const stat = await fs.lstat(path.join(tmpDir, name)).catch(() => null);
        if (!stat || stat.mtime >= olderThan) continue;
        await fs.rm(path.join(tmpDir, name), { recursive: true, force: true });
        removed.push(name);
      }
      return removed;
    },
  };
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}

/** Local disk storage under `root` (`DATA_DIR/files`), temp files in `root/.tmp`. */
export function createLocalStorage(root: string): FileStorage {
  const temp = createTempArea(path.join(root, ".tmp"));
  const absolutePath = (key: string) => path.join(root, assertStorageKey(key));
  const adopt = async (tempFile: string, key: string) => {
    const target = absolutePath(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(tempFile, target);
  };
  const stat = async (key: string): Promise<StoredFileStat | null> => {
    const found = await fs.stat(absolutePath(key)).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    return found?.isFile() ? { sizeBytes: found.size, modifiedAt: found.mtime } : null;
  };
  return {
    backend: "local",
    uploadStore: createLocalUploadStore(path.join(root, ".uploads")),
    tempPath: temp.tempPath,
    adopt,
    async put(key, body) {
      assertStorageKey(key); // before anything is written
      await temp.ensure();
      const file = temp.tempPath();
      try {
        if (typeof body === "string" || Buffer.isBuffer(body)) await fs.writeFile(file, body);
        else await pipeline(body, createWriteStream(file));
        const { size } = await fs.stat(file);
        await adopt(file, key);
        return { sizeBytes: size };
      } catch (error) {
        await fs.rm(file, { force: true });
        throw error;
      }
    },
    stat,
    async exists(key) {
      return (await stat(key)) !== null;
    },
    async read(key, range) {
      const handle = await fs.open(absolutePath(key), "r").catch((error: unknown) => {
        throw isMissing(error) ? new StoredFileMissingError(key) : error;
      });
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    async readText(key) {
      return fs.readFile(absolutePath(key), "utf8").catch((error: unknown) => {
        throw isMissing(error) ? new StoredFileMissingError(key) : error;
      });
    },
    async delete(key) {
      await fs.rm(absolutePath(key), { force: true });
    },
    list: () => listKeys(root, ""),
    async deleteIfOlder(key, olderThan) {
      const file = absolutePath(key);
      const found = await fs.stat(file).catch(() => null);
      if (!found?.isFile() || found.mtime >= olderThan) return false;
      await fs.rm(file, { force: true });
      return true;
    },
    sweepTemp: (olderThan) => temp.sweep(olderThan),
    abortStaleUploads: async () => [],
    close: async () => undefined,
  };
}

/**
 * The stored files under `root/dir` (depth first, each folder read lazily), skipping the temp
 * folder, links and names that are not valid keys.
 */
async function* listKeys(root: string, dir: string): AsyncGenerator<StoredObject> {
  // No such folder (yet), or it went away while listing: nothing to list.
  const handle = await fs.opendir(path.join(root, dir)).catch(() => null);
  if (!handle) return;
  for await (const entry of handle) {
    const key = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (key !== ".tmp") yield* listKeys(root, key);
      continue;
    }
    if (!entry.isFile() || !isStorageKey(key)) continue;
    const stat = await fs.stat(path.join(root, key)).catch(() => null);
    if (stat) yield { key, modifiedAt: stat.mtime, sizeBytes: stat.size };
  }
}
