import { createReadStream, createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";

/** A stored file as `FileStorage.list` reports it. */
export interface StoredObject {
  /** Its storage key, e.g. `audios/2f1c….wav`. */
  key: string;
  /** When its content was last written (for an adopted upload: when the upload finished). */
  modifiedAt: Date;
  sizeBytes: number;
}

/**
 * Where uploaded and generated files live. Keys are relative paths such as
 * `audios/2f1c….wav`; they never come from user input unchecked.
 */
export interface FileStorage {
  /** Writes a stream to a temp file, then renames it into place; returns the size in bytes. */
  put(key: string, body: Readable | Buffer | string): Promise<{ sizeBytes: number }>;
  /** Moves an already written temp file (from `tempPath()`) into place. */
  adopt(tempFile: string, key: string): Promise<void>;
  /** A fresh path in the storage's temp folder, on the same disk as the files. */
  tempPath(): string;
  /** Absolute path of a stored key (local disk only). */
  absolutePath(key: string): string;
  exists(key: string): Promise<boolean>;
  read(key: string): Readable;
  readText(key: string): Promise<string>;
  /** Removes a key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every stored key (temp files excluded), one at a time and in no particular order, read lazily
   * so a caller can work in pages. Names that are not valid keys are skipped (never reported,
   * never removed). Keys removed while the listing runs may or may not appear. (issue 10 Build 5)
   */
  list(): AsyncIterable<StoredObject>;
  /**
   * Removes `key` only if its content was last written before `olderThan`, checked just before
   * the removal (so a file rewritten since it was listed is kept). Returns whether it removed
   * it; a missing key answers false. Throws for an invalid key. (issue 10 Build 5)
   */
  deleteIfOlder(key: string, olderThan: Date): Promise<boolean>;
  /**
   * Removes temp entries (unfinished or abandoned uploads, from `tempPath()` and `put`) last
   * written before `olderThan`; returns their names. (issue 10 Build 5)
   */
  sweepTemp(olderThan: Date): Promise<string[]>;
}

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/;

/** Local disk storage under `root` (`DATA_DIR/files`). */
export function createLocalStorage(root: string): FileStorage {
  const tmpDir = path.join(root, ".tmp");
  const absolutePath = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes("..")) throw new Error(`Invalid storage key: ${key}`);
    return path.join(root, key);
  };
  const adopt = async (tempFile: string, key: string) => {
    const target = absolutePath(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(tempFile, target);
  };
  const tempPath = () => path.join(tmpDir, randomUUID());
  return {
    absolutePath,
    tempPath,
    adopt,
    async put(key, body) {
      await fs.mkdir(tmpDir, { recursive: true });
      const temp = tempPath();
      try {
        if (typeof body === "string" || Buffer.isBuffer(body)) await fs.writeFile(temp, body);
        else await pipeline(body, createWriteStream(temp));
        const { size } = await fs.stat(temp);
        await adopt(temp, key);
        return { sizeBytes: size };
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },
    async exists(key) {
      return fs.access(absolutePath(key)).then(
        () => true,
        () => false,
      );
    },
    read: (key) => createReadStream(absolutePath(key)),
    readText: (key) => fs.readFile(absolutePath(key), "utf8"),
    async delete(key) {
      await fs.rm(absolutePath(key), { force: true });
    },
    list: () => listKeys(root, ""),
    async deleteIfOlder(key, olderThan) {
      const file = absolutePath(key);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile() || stat.mtime >= olderThan) return false;
      await fs.rm(file, { force: true });
      return true;
    },
    async sweepTemp(olderThan) {
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
    if (!entry.isFile() || !SAFE_KEY.test(key) || key.includes("..")) continue;
    const stat = await fs.stat(path.join(root, key)).catch(() => null);
    if (stat) yield { key, modifiedAt: stat.mtime, sizeBytes: stat.size };
  }
}
