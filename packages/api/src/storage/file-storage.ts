import { createReadStream, createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";

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
  };
}
