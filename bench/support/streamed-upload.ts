import { randomBytes } from "node:crypto";
import { createReadStream, promises as fs } from "node:fs";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** One upload as sent and answered. */
export interface UploadTiming {
  /** From sending the request to the whole answer read, ms. */
  ms: number;
  status: number;
  /** The answer's body, parsed when it is JSON. */
  body: unknown;
}

/** What to upload, where. */
export interface UploadRequest {
  /** http://host:port/path */
  url: string;
  /** The file on disk. */
  file: string;
  /** The file part's name (default "file"). */
  fileField?: string;
  /** The file part's file name (default: the file's own name). */
  filename?: string;
  /** Text fields, sent in this order before the file. */
  fields?: Record<string, string>;
  /** The file part's Content-Type (default application/octet-stream). */
  contentType?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
}

/** A name as a multipart header quotes it (the HTML form encoding: `"` and line breaks percent-encoded). */
const quoted = (name: string) => `"${name.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}"`;

/**
 * POSTs `file` as a multipart/form-data body (the text `fields`, then the file part, as a browser
 * sends a form) with node:http, streaming the file from disk under backpressure and giving the
 * exact Content-Length, so the file is never in this process's memory whole. (fetch in Node 20
 * sends the same body at about twice this process's CPU and leaves some 250 MB of copied chunks
 * for the garbage collector, which would compete with the servers on a small machine.)
 * Resolves with the timing and the answer, whatever its status.
 */
export async function uploadFile(request: UploadRequest): Promise<UploadTiming> {
  const boundary = `----tafsiri-bench-${randomBytes(12).toString("hex")}`;
  const fieldParts = Object.entries(request.fields ?? {}).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`,
  );
  const head = Buffer.from(
    `${fieldParts.join("")}--${boundary}\r\n` +
      `Content-Disposition: form-data; name=${quoted(request.fileField ?? "file")}; ` +
      `filename=${quoted(request.filename ?? path.basename(request.file))}\r\n` +
      `Content-Type: ${request.contentType ?? "application/octet-stream"}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { size } = await fs.stat(request.file);
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    yield* createReadStream(request.file);
    yield tail;
  }

  const start = performance.now();
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      request.url,
      {
        method: "POST",
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": head.length + size + tail.length,
          ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
        },
      },
      (res) => {
        let answer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (answer += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: answer }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    pipeline(Readable.from(body()), req).catch(reject);
  });
  const ms = performance.now() - start;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { ms, status, body: parsed };
}
