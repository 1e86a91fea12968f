import { createReadStream, promises as fs } from "node:fs";
import { Readable, Transform } from "node:stream";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { createS3UploadStore } from "./s3-upload-store";
import { storedContentType } from "./stored-content-type";
import {
  assertStorageKey,
  createTempArea,
  isStorageKey,
  StoredFileMissingError,
  type FileStorage,
  type StoredFileStat,
} from "./file-storage";

/** Where the bucket is and how to reach it (the `S3_*` settings). */
export interface S3StorageConfig {
  /** The bucket; it must exist and be Tafsiri's alone (the sweep removes objects no row points at). */
  bucket: string;
  /** e.g. `us-east-1` (what MinIO and most S3-compatible stores expect) or the bucket's AWS region. */
  region: string;
  /** The store's URL, e.g. `http://minio:9000`; unset for Amazon S3 itself. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`{endpoint}/{bucket}/{key}`); default: true with `endpoint`, false without. */
  forcePathStyle?: boolean;
  /** Local folder for temp files (uploads being received), e.g. `DATA_DIR/files/.tmp`. */
  tempDir: string;
  /** Keys per ListObjectsV2 page (1 to 1000; default 1000). Tests use small pages. */
  listPageSize?: number;
}

/** An S3 storage, plus a check that the bucket answers. */
export interface S3FileStorage extends FileStorage {
  /**
   * HeadBucket: resolves when the bucket exists and the credentials may use it; throws Error
   * 'S3 bucket "{bucket}" is not reachable: {reason}' otherwise. Run once at start.
   */
  checkBucket(): Promise<void>;
}

/** Multipart part size: S3's minimum (5 MB); bigger when a file would need more than 10,000 parts. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;
/** Parts uploaded at once per file; at most QUEUE_SIZE × part size is buffered per upload. */
const QUEUE_SIZE = 4;

/** How long connecting to the store may take, and how long a connection may sit idle, in ms. */
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 60_000;

/** The part size for a file of `sizeBytes` (unknown: the minimum, which covers 50 GB). */
function partSizeFor(sizeBytes?: number): number {
  if (sizeBytes === undefined) return MIN_PART_BYTES;
  return Math.max(MIN_PART_BYTES, Math.ceil(sizeBytes / MAX_PARTS));
}

/** The HTTP status of an SDK error, if it has one. */
function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function nameOf(error: unknown): string | undefined {
  return (error as { name?: unknown } | null)?.name as string | undefined;
}

/** A missing object (HeadObject's bodiless 404 "NotFound", GetObject's "NoSuchKey"); not a missing bucket. */
function isMissingObject(error: unknown): boolean {
  const name = nameOf(error);
  if (name === "NoSuchBucket") return false;
  return name === "NotFound" || name === "NoSuchKey" || statusOf(error) === 404;
}

/** A store that does not implement a call (s3rver has no ListMultipartUploads, for one). */
function isNotImplemented(error: unknown): boolean {
  return nameOf(error) === "NotImplemented" || statusOf(error) === 501;
}

/** Why a HeadBucket failed, in a few words: no such bucket, access denied, or the network error's code. */
function reasonOf(error: unknown): string {
  const status = statusOf(error);
  if (status === 404 || nameOf(error) === "NotFound" || nameOf(error) === "NoSuchBucket") return "no such bucket";
  if (status === 401 || status === 403) return "access denied (check the access key and secret)";
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code !== "") return code;
  return (error instanceof Error && error.message) || nameOf(error) || String(error);
}

/** The range a `Content-Range: bytes a-b/size` answer holds; null when there is none (the whole object). */
function servedRange(contentRange: string | undefined): { start: number; end: number } | null {
  const match = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? "");
  return match ? { start: Number(match[1]), end: Number(match[2]) } : null;
}

/** `length` bytes of `body` after its first `skip` bytes; the source is destroyed once they are out. */
async function* slice(body: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  let toSkip = skip;
  let left = length;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const drop = Math.min(toSkip, chunk.length);
    toSkip -= drop;
    const rest = chunk.subarray(drop);
    if (rest.length === 0) continue;
    if (rest.length >= left) {
      yield rest.subarray(0, left);
      return; // leaving the loop destroys the source
    }
    left -= rest.length;
    yield rest;
  }
  if (left > 0) throw new Error("S3 answered fewer bytes than the range asked");
}

/** Counts the bytes that pass through. */
function byteCounter(): Transform & { bytes: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counter.bytes += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

/**
 * File storage in an S3-compatible bucket (decision 014) through `@aws-sdk/client-s3`, the
 * `STORAGE=s3` backend. Keys are object keys as they are (`audios/….wav`). Files go up streamed
 * (`@aws-sdk/lib-storage`: one PutObject for a small file, else a multipart upload of 5 MB parts,
 * at most 4 at a time, so at most about 20 MB of a file is in memory, never the whole file);
 * reads are GetObject streams, with a Range when asked. Temp files stay on local disk in
 * `tempDir`, as on the local backend, so uploads are received, sniffed and text-extracted the
 * same way before `adopt` sends them to the bucket. Checksums are computed only when an
 * operation requires them (`WHEN_REQUIRED`), which S3-compatible stores accept; a request fails
 * after 10 s without a connection or 60 s without a byte moving. Errors of the
 * store are thrown as the SDK raises them; a missing object is null, false or
 * StoredFileMissingError as the interface says.
 */
export function createS3Storage(config: S3StorageConfig): S3FileStorage {
  const Bucket = config.bucket;
  // How to reach the bucket; the resumable-upload store below uses the same.
  const reach = {
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle ?? config.endpoint !== undefined,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  } as const;
  const client = new S3Client({
    ...reach,
    // A store that does not answer fails the request instead of holding it (and an upload's
    // database transaction) open: 10 s to connect, 60 s without a byte moving on the socket.
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: IDLE_TIMEOUT_MS },
  });
  const temp = createTempArea(config.tempDir);
  const pageSize = config.listPageSize ?? 1000;

  /**
   * Streams `body` to `key` (lib-storage Upload); resolves once the object is complete. On a
   * failure `body` is destroyed (no open file or request is left behind) and lib-storage aborts
   * the multipart upload, so nothing appears under `key`.
   */
  const upload = async (key: string, body: Readable, sizeBytes?: number) => {
    try {
      await new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: storedContentType(key) },
        partSize: partSizeFor(sizeBytes),
        queueSize: QUEUE_SIZE,
      }).done();
    } catch (error) {
      body.destroy();
      throw error;
    }
  };

  const stat = async (key: string): Promise<StoredFileStat | null> => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: assertStorageKey(key) }));
      return { sizeBytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  };

  const getObject = async (key: string, range?: { start: number; end: number }) => {
    try {
      return await client.send(
        new GetObjectCommand({
          Bucket,
          Key: assertStorageKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
    } catch (error) {
      throw isMissingObject(error) ? new StoredFileMissingError(key) : error;
    }
  };

  /** Aborts multipart uploads started before `olderThan` and never completed; returns their names. */
  const abortStaleUploads = async (olderThan: Date): Promise<string[]> => {
    const aborted: string[] = [];
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await client.send(new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }));
      } catch (error) {
        if (isNotImplemented(error)) return aborted; // the store cannot list them: nothing to do
        throw error;
      }
      for (const item of page.Uploads ?? []) {
        if (!item.Key || !item.UploadId || !isStorageKey(item.Key)) continue;
        if (!item.Initiated || item.Initiated >= olderThan) continue;
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: item.Key, UploadId: item.UploadId }));
        aborted.push(`multipart upload of ${item.Key}`);
      }
      if (!page.IsTruncated) return aborted;
      KeyMarker = page.NextKeyMarker;
      UploadIdMarker = page.NextUploadIdMarker;
    }
  };

  const uploadStore = createS3UploadStore({ ...reach, bucket: Bucket });

  return {
    backend: "s3",
    uploadStore,
    tempPath: temp.tempPath,
    async put(key, body) {
      assertStorageKey(key);
      if (typeof body === "string" || Buffer.isBuffer(body)) {
        const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: storedContentType(key),
          }),
        );
        return { sizeBytes: bytes.length };
      }
      const counter = byteCounter();
      body.on("error", (error) => counter.destroy(error));
      try {
        await upload(key, body.pipe(counter));
      } catch (error) {
        body.destroy();
        throw error;
      }
      return { sizeBytes: counter.bytes };
    },
    async adopt(tempFile, key) {
      assertStorageKey(key);
      const { size } = await fs.stat(tempFile);
      await upload(key, createReadStream(tempFile), size);
      await fs.rm(tempFile, { force: true });
    },
    stat,
    async exists(key) {
      return (await stat(key)) !== null;
    },
    async read(key, range) {
      const object = await getObject(key, range);
      const body = object.Body;
      if (!(body instanceof Readable)) throw new Error(`S3 answered no readable body for ${key}`);
      if (!range) return body;
      // A store that answers more than the range asked (the whole object, or from an earlier
      // byte) is trimmed to it, so callers always get exactly the bytes they asked for.
      const served = servedRange(object.ContentRange);
      if (served?.start === range.start && served.end === range.end) return body;
      const from = served?.start ?? 0;
      if (from > range.start) {
        body.destroy();
        throw new Error(`S3 answered ${object.ContentRange} for bytes ${range.start}-${range.end} of ${key}`);
      }
      return Readable.from(slice(body, range.start - from, range.end - range.start + 1));
    },
    async readText(key) {
      const object = await getObject(key);
      if (!object.Body) throw new Error(`S3 answered no body for ${key}`);
      return object.Body.transformToString("utf-8");
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: assertStorageKey(key) }));
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, MaxKeys: pageSize, ContinuationToken }));
        for (const item of page.Contents ?? []) {
          if (!item.Key || !isStorageKey(item.Key)) continue;
          yield { key: item.Key, modifiedAt: item.LastModified ?? new Date(0), sizeBytes: item.Size ?? 0 };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async deleteIfOlder(key, olderThan) {
      const found = await stat(key);
      if (!found || found.modifiedAt >= olderThan) return false;
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      return true;
    },
    sweepTemp: (olderThan) => temp.sweep(olderThan),
    abortStaleUploads,
    async checkBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        const where = config.endpoint ? ` at ${config.endpoint}` : "";
        throw new Error(`S3 bucket "${Bucket}"${where} is not reachable: ${reasonOf(error)}`, { cause: error });
      }
    },
    async close() {
      client.destroy();
    },
  };
}
