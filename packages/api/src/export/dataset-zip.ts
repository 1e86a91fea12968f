import { createHash } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import yazl from "yazl";
import type { FileStorage } from "../storage/file-storage";

/**
 * The dataset export's archive (decision 019): a zip streamed into storage, file after file,
 * each hashed (SHA-256) on its way through, so no file and not the archive is ever held in memory.
 */

/** One file of an export: its path inside the zip and how to open it. */
export interface DatasetFile {
  path: string;
  /** Opens the file's bytes (read once, when its turn comes). */
  open(): Promise<Readable>;
  /** False for files that do not shrink (audio): stored as they are, which saves the CPU. */
  compress: boolean;
  /** Its size and SHA-256 when already known (an unchanged file of an earlier export): not hashed again. */
  known?: { sizeBytes: number; sha256: string };
}

/** What the zip holds of one file: its path, size in bytes and SHA-256 (hex). */
export interface DatasetFileRecord {
  path: string;
  sizeBytes: number;
  sha256: string;
}

/** A text file written after every other file (the manifests), made from their records. */
export interface DatasetTextFile {
  path: string;
  text: string;
}

/**
 * Adds `stream` to `zip` as `path`. yazl keeps every entry, with the function that hands it its
 * stream, until the zip ends: this one lets go of the stream once handed over, so a finished
 * file's stream objects (and their buffers) are freed at once, not kept for every file until the
 * end (some 13 KB a file).
 */
function addStream(zip: yazl.ZipFile, path: string, options: { compress: boolean; size?: number }, stream: Readable) {
  let pending: Readable | null = stream;
  zip.addReadStreamLazy(path, options, (handOver) => {
    const next = pending;
    pending = null;
    if (next) handOver(null, next);
  });
}

/**
 * Streams a zip of `files`, in their order, into `storage` at `key`: each file is opened when its
 * turn comes, hashed as it passes and not read again; then `closing(records)` gives the text files
 * that end the zip (the manifests, which list every file's size and SHA-256). A file whose size
 * and SHA-256 are `known` is copied without hashing (yazl still checks its size). `onFile(done)` hears
 * the count of files written so far. Resolves to the records and the zip's size in bytes. A file
 * that cannot be read rejects it, and what was stored at `key` is deleted.
 */
export async function writeDatasetZip(
  storage: FileStorage,
  key: string,
  files: AsyncIterable<DatasetFile> | Iterable<DatasetFile>,
  opts: { closing(records: DatasetFileRecord[]): DatasetTextFile[]; onFile?(done: number): void },
): Promise<{ records: DatasetFileRecord[]; sizeBytes: number }> {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as unknown as Readable;
  // The upload reports the output's errors; this listener keeps a late one from going unheard.
  output.on("error", () => undefined);
  const stored = storage.put(key, output);
  stored.catch(() => undefined);
  const records: DatasetFileRecord[] = [];
  try {
    for await (const file of files) {
      if (file.known) {
        const source = await file.open();
        addStream(zip, file.path, { compress: file.compress, size: file.known.sizeBytes }, source);
        await finished(source);
        records.push({ path: file.path, ...file.known });
        opts.onFile?.(records.length);
        continue;
      }
      const hash = createHash("sha256");
      let sizeBytes = 0;
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      addStream(zip, file.path, { compress: file.compress }, hashing);
      await Promise.all([pipeline(await file.open(), hashing), finished(hashing)]);
      records.push({ path: file.path, sizeBytes, sha256: hash.digest("hex") });
      opts.onFile?.(records.length);
    }
    for (const text of opts.closing(records)) zip.addBuffer(Buffer.from(text.text, "utf8"), text.path);
    zip.end();
    const { sizeBytes } = await stored;
    return { records, sizeBytes };
  } catch (error) {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
    await stored.catch(() => undefined);
    await storage.delete(key).catch(() => undefined);
    throw error;
  }
}
