import { createHash } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import v8 from "node:v8";
import vm from "node:vm";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLocalStorage,
  StoredFileMissingError,
  type FileStorage,
  type StorageBackend,
} from "../src/storage/file-storage";
import { createS3Storage } from "../src/storage/s3-storage";
import { openStorage } from "../src/storage/open-storage";
import { sweepFiles } from "../src/storage/sweep";
import { startTestS3Server, type TestS3Server } from "../src/testing/s3-server";
import { createHarness } from "../src/testing/harness";
import { newAudio } from "./workflow-fixtures";

/**
 * Decision 014: the storage contract, the same cases on local disk and on a real
 * S3-compatible server (s3rver, started by the test in a child process): put, adopt, read (whole
 * and ranges), readText, stat, exists, delete, list, deleteIfOlder, sweepTemp, key validation, and
 * a 96 MB file that goes up and comes back streamed, never held in memory: its source may not run
 * more than 40 MB ahead of what reached the storage's disk, and live buffers stay well under its
 * size while it is adopted and read back.
 */

const MB = 1024 * 1024;
const HOUR_MS = 60 * 60 * 1000;

/** A storage under test, the folder of its temp files, and a way to write a raw object past the key rules. */
interface Subject {
  storage: FileStorage;
  tempDir: string;
  /** Writes `name` into the storage as it is (not through `put`, which refuses names that are not keys). */
  writeRaw(name: string, content: string): Promise<void>;
  /** Bytes the storage has on disk (local: its folder; S3: the server's folder, unfinished uploads included). */
  bytesOnDisk(): Promise<number>;
  close(): Promise<void>;
}

/** The total size of the files under `dir` (files that vanish meanwhile count as empty). */
async function bytesUnder(dir: string): Promise<number> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    total += (await fs.stat(path.join(entry.parentPath, entry.name)).catch(() => null))?.size ?? 0;
  }
  return total;
}

async function localSubject(): Promise<Subject> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-storage-"));
  return {
    storage: createLocalStorage(root),
    tempDir: path.join(root, ".tmp"),
    async writeRaw(name, content) {
      await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await fs.writeFile(path.join(root, name), content);
    },
    bytesOnDisk: () => bytesUnder(root),
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

async function s3Subject(): Promise<Subject> {
  const server: TestS3Server = await startTestS3Server();
  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-s3-tmp-"));
  // Small list pages, so listing walks several of them.
  const storage = createS3Storage({ ...server.config, tempDir, listPageSize: 3 });
  const raw = new S3Client({
    region: server.config.region,
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.config.accessKeyId, secretAccessKey: server.config.secretAccessKey },
  });
  return {
    storage,
    tempDir,
    async writeRaw(name, content) {
      await raw.send(new PutObjectCommand({ Bucket: server.config.bucket, Key: name, Body: content }));
    },
    bytesOnDisk: () => bytesUnder(server.directory),
    async close() {
      raw.destroy();
      await storage.close();
      await server.close();
      await fs.rm(tempDir, { recursive: true, force: true });
    },
  };
}

const SUBJECTS: Record<StorageBackend, () => Promise<Subject>> = { local: localSubject, s3: s3Subject };

/** 1 MB of varied bytes, the body of every generated chunk. */
const BLOCK = Buffer.from(Array.from({ length: MB }, (_, i) => (i * 7 + (i >> 8)) & 0xff));

/** The generated chunk at `offset` (a multiple of 1 MB): BLOCK with its offset written in its first bytes. */
function chunkAt(offset: number, n: number): Buffer {
  const chunk = Buffer.from(BLOCK.subarray(0, n));
  if (n >= 8) chunk.writeDoubleLE(offset, 0);
  return chunk;
}

/** `size` bytes generated 1 MB at a time, each chunk stamped with its offset (never held whole). */
function generated(size: number): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= size) return void this.push(null);
      const n = Math.min(MB, size - offset);
      this.push(chunkAt(offset, n));
      offset += n;
    },
  });
}

/**
 * The same bytes as `generated(size)`, from a source that will not run more than `window` bytes
 * ahead of what has reached the storage's disk (`arrived`, polled when needed): an upload that
 * held the file in memory before sending it would never let the source finish, and fails after
 * 30 s with 'the upload is not streamed'.
 */
function gated(size: number, arrived: () => Promise<number>, window: number): Readable {
  return Readable.from(
    (async function* () {
      let seen = 0;
      for (let offset = 0; offset < size; offset += MB) {
        const deadline = Date.now() + 30_000;
        while (offset - seen > window) {
          seen = await arrived();
          if (offset - seen <= window) break;
          if (Date.now() > deadline)
            throw new Error(`only ${seen} of ${offset} bytes reached the storage: the upload is not streamed`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        yield chunkAt(offset, Math.min(MB, size - offset));
      }
    })(),
  );
}

/** SHA-256 of a stream, consumed chunk by chunk. */
async function sha256(stream: Readable): Promise<{ hash: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { hash: hash.digest("hex"), bytes };
}

/** A full garbage collection (V8's gc, exposed at run time: this test only). */
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

/** Memory held by live Buffers (ArrayBuffers) after a full collection, in bytes. */
function liveBufferBytes(): number {
  collectGarbage();
  return process.memoryUsage().arrayBuffers;
}

/**
 * Runs `work` and returns its result with the most memory live Buffers held above the start
 * while it ran, sampled after a full collection every 250 ms. Unlike RSS this does not count
 * garbage not yet collected, so it measures what is held: a file kept whole in memory shows as
 * its size, a streamed one as its buffers. In bytes.
 */
async function peakLiveBuffers<T>(work: () => Promise<T>): Promise<{ result: T; held: number }> {
  const base = liveBufferBytes();
  let peak = 0;
  const sample = () => (peak = Math.max(peak, liveBufferBytes() - base));
  const timer = setInterval(sample, 250);
  try {
    const result = await work();
    sample();
    return { result, held: peak };
  } finally {
    clearInterval(timer);
  }
}

/** Writes a temp file for `adopt`, as the upload route does. */
async function tempFile(storage: FileStorage, body: Readable | string): Promise<string> {
  const file = storage.tempPath();
  await fs.mkdir(path.dirname(file), { recursive: true });
  if (typeof body === "string") await fs.writeFile(file, body);
  else await pipeline(body, createWriteStream(file));
  return file;
}

async function keysOf(storage: FileStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
}

describe.each(["local", "s3"] as const)("%s storage (decision 014)", (backend) => {
  let subject: Subject;
  let storage: FileStorage;
  beforeAll(async () => {
    subject = await SUBJECTS[backend]();
    storage = subject.storage;
  });
  afterAll(() => subject?.close());

  it("names its backend", () => {
    expect(storage.backend).toBe(backend);
  });

  it("puts text, bytes and streams, and reads them back whole", async () => {
    expect(await storage.put("transcripts/a/1/one.cha", "Habari — nzuri")).toEqual({
      sizeBytes: Buffer.byteLength("Habari — nzuri"),
    });
    expect(await storage.readText("transcripts/a/1/one.cha")).toBe("Habari — nzuri");

    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    expect(await storage.put("audios/bytes.wav", bytes)).toEqual({ sizeBytes: 5 });
    expect((await sha256(await storage.read("audios/bytes.wav"))).bytes).toBe(5);

    expect(await storage.put("audios/stream.wav", generated(3 * MB + 7))).toEqual({ sizeBytes: 3 * MB + 7 });
    const back = await sha256(await storage.read("audios/stream.wav"));
    expect(back).toEqual(await sha256(generated(3 * MB + 7)));

    // A second put replaces the content.
    await storage.put("transcripts/a/1/one.cha", "Tena");
    expect(await storage.readText("transcripts/a/1/one.cha")).toBe("Tena");
  });

  it("stats and checks files, and knows a missing one", async () => {
    const before = Date.now();
    await storage.put("audios/stat.wav", Buffer.alloc(1234));
    const stat = await storage.stat("audios/stat.wav");
    expect(stat?.sizeBytes).toBe(1234);
    // S3 keeps whole seconds.
    expect(stat!.modifiedAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(stat!.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await storage.exists("audios/stat.wav")).toBe(true);

    expect(await storage.stat("audios/missing.wav")).toBeNull();
    expect(await storage.exists("audios/missing.wav")).toBe(false);
    await expect(storage.read("audios/missing.wav")).rejects.toBeInstanceOf(StoredFileMissingError);
    await expect(storage.readText("audios/missing.wav")).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it("reads byte ranges: a slice, the first byte, the last byte", async () => {
    const content = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await storage.put("audios/range.wav", content);
    const slice = async (start: number, end: number) => {
      const chunks: Buffer[] = [];
      for await (const chunk of (await storage.read("audios/range.wav", { start, end })) as AsyncIterable<Buffer>)
        chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    expect((await slice(100, 199)).equals(content.subarray(100, 200))).toBe(true);
    expect((await slice(0, 0)).equals(content.subarray(0, 1))).toBe(true);
    expect((await slice(999, 999)).equals(content.subarray(999))).toBe(true);
    expect((await slice(0, 999)).equals(content)).toBe(true);
  });

  it("adopts a temp file: the file is stored under its key and the temp file is gone", async () => {
    const file = await tempFile(storage, "adopted content");
    expect(path.dirname(file)).toBe(subject.tempDir);
    await storage.adopt(file, "initial-transcripts/adopted.txt");
    expect(await storage.readText("initial-transcripts/adopted.txt")).toBe("adopted content");
    await expect(fs.access(file)).rejects.toThrow();
    expect(await storage.sweepTemp(new Date(Date.now() + HOUR_MS))).toEqual([]);
  });

  it("deletes files, and deleting a missing one is no error", async () => {
    await storage.put("recordings/x/gone.wav", "x");
    await storage.delete("recordings/x/gone.wav");
    expect(await storage.exists("recordings/x/gone.wav")).toBe(false);
    await storage.delete("recordings/x/gone.wav");
  });

  it("lists every stored key with its size and time, over several pages, skipping temp files and names that are not keys", async () => {
    const keys = ["audios/l1.wav", "audios/l2.wav", "recordings/r/l3.wav", "transcripts/t/v/l4.cha"];
    for (const key of keys) await storage.put(key, key);
    await tempFile(storage, "an upload in progress");
    await subject.writeRaw("stray-at-root.txt", "not a key");
    const listed = new Map<string, { sizeBytes: number; modifiedAt: Date }>();
    for await (const file of storage.list()) listed.set(file.key, file);
    for (const key of keys) {
      expect(listed.get(key)?.sizeBytes, key).toBe(key.length);
      expect(Math.abs(listed.get(key)!.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);
    }
    expect([...listed.keys()].filter((key) => !key.includes("/"))).toEqual([]);
    expect([...listed.keys()].some((key) => key.startsWith(".tmp"))).toBe(false);
    await storage.sweepTemp(new Date(Date.now() + HOUR_MS));
  });

  it("deleteIfOlder removes a file only when it was last written before the cutoff", async () => {
    await storage.put("audios/age.wav", "young");
    expect(await storage.deleteIfOlder("audios/age.wav", new Date(Date.now() - HOUR_MS))).toBe(false);
    expect(await storage.readText("audios/age.wav")).toBe("young");
    // S3 times are whole seconds: a cutoff two seconds ahead is surely after the write.
    expect(await storage.deleteIfOlder("audios/age.wav", new Date(Date.now() + 2000))).toBe(true);
    expect(await storage.exists("audios/age.wav")).toBe(false);
    expect(await storage.deleteIfOlder("audios/age.wav", new Date(Date.now() + 2000))).toBe(false);
  });

  it("sweepTemp removes temp files written before the cutoff and nothing else", async () => {
    const file = await tempFile(storage, "abandoned");
    await storage.put("audios/kept.wav", "kept");
    expect(await storage.sweepTemp(new Date(Date.now() - HOUR_MS))).toEqual([]);
    expect(await storage.sweepTemp(new Date(Date.now() + 1000))).toEqual([path.basename(file)]);
    await expect(fs.access(file)).rejects.toThrow();
    expect(await storage.readText("audios/kept.wav")).toBe("kept");
    // The shared part (decision 015): local disk has no multipart uploads, and s3rver cannot list them.
    expect(await storage.abortStaleUploads(new Date(Date.now() + 1000))).toEqual([]);
    expect(await storage.readText("audios/kept.wav")).toBe("kept");
  });

  it("refuses keys that are not storage keys, before touching anything", async () => {
    const before = await keysOf(storage);
    for (const key of ["../outside.txt", "audios/../../etc/passwd", "/etc/passwd", "no-folder.wav", "audios/", ""]) {
      await expect(storage.put(key, "x"), key).rejects.toThrow("Invalid storage key");
      await expect(storage.read(key), key).rejects.toThrow("Invalid storage key");
      await expect(storage.readText(key), key).rejects.toThrow("Invalid storage key");
      await expect(storage.stat(key), key).rejects.toThrow("Invalid storage key");
      await expect(storage.exists(key), key).rejects.toThrow("Invalid storage key");
      await expect(storage.delete(key), key).rejects.toThrow("Invalid storage key");
      await expect(storage.deleteIfOlder(key, new Date()), key).rejects.toThrow("Invalid storage key");
    }
    const file = await tempFile(storage, "x");
    await expect(storage.adopt(file, "../escaped.txt")).rejects.toThrow("Invalid storage key");
    await fs.rm(file);
    expect(await keysOf(storage)).toEqual(before);
  });

  it("stores nothing when a streamed put fails midway", async () => {
    let sent = 0;
    const failing = new Readable({
      read() {
        sent += 1;
        if (sent > 3) this.destroy(new Error("client went away"));
        else this.push(Buffer.alloc(64 * 1024, 1));
      },
    });
    await expect(storage.put("audios/half.wav", failing)).rejects.toThrow();
    expect(await storage.exists("audios/half.wav")).toBe(false);
    expect(await fs.readdir(subject.tempDir).catch(() => [])).toEqual([]);
  });

  it("streams a 96 MB file up (put and adopt) and back (whole and a range) without holding it in memory", async () => {
    const size = 96 * MB;
    const expected = await sha256(generated(size));
    // Warm up (the SDK loads code on first use), then measure.
    await storage.put("audios/warm-up.wav", generated(6 * MB));

    // An upload that streams has sent all but a few 5 MB parts (4 at a time) of what it read.
    const base = await subject.bytesOnDisk();
    const arrived = async () => (await subject.bytesOnDisk()) - base;
    const put = await storage.put("audios/big-put.wav", gated(size, arrived, 40 * MB));
    expect(put).toEqual({ sizeBytes: size });

    // Loose checks (the whole file would be 96 MB): live buffers after a full collection.
    const limit = 80 * MB;
    const held = (what: string, bytes: number) => `${what} held ${(bytes / MB).toFixed(1)} MB of buffers`;
    const file = await tempFile(storage, generated(size));
    const adopt = await peakLiveBuffers(() => storage.adopt(file, "audios/big-adopt.wav"));
    expect(adopt.held, held("adopt", adopt.held)).toBeLessThan(limit);
    for (const key of ["audios/big-put.wav", "audios/big-adopt.wav"]) {
      const read = await peakLiveBuffers(async () => sha256(await storage.read(key)));
      expect(read.result, key).toEqual(expected);
      expect(read.held, held(`reading ${key}`, read.held)).toBeLessThan(limit);
    }
    const tail = await sha256(await storage.read("audios/big-adopt.wav", { start: size - MB - 10, end: size - 1 }));
    expect(tail).toEqual(
      await sha256(Readable.from([chunkAt(size - 2 * MB, MB).subarray(MB - 10), chunkAt(size - MB, MB)])),
    );
    expect((await storage.stat("audios/big-adopt.wav"))?.sizeBytes).toBe(size);
    for (const key of ["audios/big-put.wav", "audios/big-adopt.wav", "audios/warm-up.wav"]) await storage.delete(key);
  }, 180_000);
});

describe.each(["local", "s3"] as const)("the file sweep on %s storage (decision 014)", (backend) => {
  it("removes old orphans and temp files through the storage, and keeps every referenced file", async () => {
    const h = await createHarness({ storage: backend });
    try {
      const admin = await h.createUser("Admin");
      expect(h.storageBackend).toBe(backend);
      const audio = await newAudio(h, admin);
      const row = await h.deps.db
        .selectFrom("audios")
        .select("fileKey")
        .where("id", "=", audio.id)
        .executeTakeFirstOrThrow();
      await h.deps.storage.put("audios/orphan.wav", "nobody points here");
      const temp = await tempFile(h.deps.storage, "abandoned upload");
      expect(await h.storedFiles()).toEqual([row.fileKey, "audios/orphan.wav", `.tmp/${path.basename(temp)}`].sort());

      // Young files stay; with no age threshold (a stopped server) the orphans go.
      expect(await sweepFiles(h.deps)).toEqual({ tempFiles: [], files: [] });
      const report = await sweepFiles(h.deps, { olderThanMs: 0, now: new Date(Date.now() + 2000) });
      expect(report).toEqual({ tempFiles: [path.basename(temp)], files: ["audios/orphan.wav"] });
      expect(await h.storedFiles()).toEqual([row.fileKey]);
    } finally {
      await h.close();
    }
  });
});

describe("openStorage (decision 014)", () => {
  it("opens a bucket that answers, and refuses one that does not with a clear message", async () => {
    const server = await startTestS3Server();
    const tempDir = path.join(os.tmpdir(), "tafsiri-open-storage");
    try {
      const storage = await openStorage({ backend: "s3", ...server.config, tempDir });
      await storage.put("audios/open.wav", "ok");
      expect(await storage.readText("audios/open.wav")).toBe("ok");
      await storage.close();
      await expect(openStorage({ backend: "s3", ...server.config, bucket: "no-such-bucket", tempDir })).rejects.toThrow(
        `S3 bucket "no-such-bucket" at ${server.endpoint} is not reachable: no such bucket`,
      );
    } finally {
      await server.close();
    }
    await expect(
      openStorage({ backend: "s3", ...server.config, tempDir }), // the server is gone
    ).rejects.toThrow(`S3 bucket "tafsiri-test" at ${server.endpoint} is not reachable: ECONNREFUSED`);
  });

  it("opens local disk without loading anything else", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-open-local-"));
    const storage = await openStorage({ backend: "local", root });
    expect(storage.backend).toBe("local");
    await storage.put("audios/a.wav", "a");
    expect(await fs.readFile(path.join(root, "audios/a.wav"), "utf8")).toBe("a");
    await fs.rm(root, { recursive: true, force: true });
  });
});
