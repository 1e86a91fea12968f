import { Upload, defaultOptions, type PreviousUpload } from "tus-js-client";
import { CONNECTION_ERROR, type RestResult } from "./rest";
import { readSession } from "./session";

/** Where the server speaks tus 1.0 (decision 020). */
const ENDPOINT = "/api/uploads";

/** The upload kinds of `POST /api/audios/upload/{KIND}`, which the resumable path takes too. */
export type UploadKind = "AUDIO" | "INITIAL_TRANSCRIPT" | "AUDIOTRANSLATION" | "TRANSLATED_TRANSCRIPT";

/** How far an upload is: bytes sent of the total, the rate in bytes per second, and seconds left (null: not known yet). */
export interface UploadProgress {
  bytesSent: number;
  bytesTotal: number;
  bytesPerSecond: number;
  secondsLeft: number | null;
}

/** A running resumable upload: its answer, and Pause and Resume. */
export interface ResumableUpload {
  /** The answer of `finish` (the multipart path's answer); `{status:'failed', message}` on any failure. Never rejects. */
  done: Promise<RestResult>;
  /** Stops sending; the bytes sent stay on the server (for 24 hours). */
  pause(): void;
  /** Goes on from the last byte the server acknowledged. */
  resume(): void;
}

/**
 * Retries after a dropped connection: at once, then ever more slowly up to every 10 s, for about
 * ten minutes (a phone that loses its signal for a while). A refusal (4xx but 409/423/429) is not retried.
 */
const RETRY_DELAYS = [0, 500, 1000, 2000, 3000, 5000, ...Array.from({ length: 60 }, () => 10_000)];

/** The start of the server's answer while another request finishes the same upload. */
const STILL_FINISHING = "This upload is still being finished.";

/** How long the rate is measured over (ms). */
const RATE_WINDOW_MS = 5000;

/**
 * Turns the bytes an upload has sent, told as it goes, into its progress: the rate over about the
 * last 5 s (0 until 0.2 s have been measured, and never below 0), and the seconds left at that
 * rate (null while the rate is 0). `reset` starts measuring afresh (after a pause).
 */
export class ProgressMeter {
  private samples: Array<{ at: number; bytes: number }> = [];

  /** The progress at `now` (ms, performance.now()) with `bytesSent` of `bytesTotal` sent. */
  measure(bytesSent: number, bytesTotal: number, now: number): UploadProgress {
    const samples = this.samples;
    samples.push({ at: now, bytes: bytesSent });
    while (samples.length > 2 && now - samples[0]!.at > RATE_WINDOW_MS) samples.shift();
    const first = samples[0]!;
    const seconds = (now - first.at) / 1000;
    const bytesPerSecond = seconds > 0.2 ? Math.max(0, (bytesSent - first.bytes) / seconds) : 0;
    const secondsLeft = bytesPerSecond > 0 ? (bytesTotal - bytesSent) / bytesPerSecond : null;
    return { bytesSent, bytesTotal, bytesPerSecond, secondsLeft };
  }

  reset(): void {
    this.samples = [];
  }
}

/**
 * What identifies an upload to go on with after a reload: the file (name, type, size, last change),
 * who sends it, and what it is for (kind and fields), so the same file sent for another audio is a
 * new upload.
 */
function fingerprintOf(file: File, kind: UploadKind, fields: Record<string, string>): string {
  const who = readSession()?._id ?? "";
  return ["tafsiri", who, kind, JSON.stringify(fields), file.name, file.type, file.size, file.lastModified].join("|");
}

function failed(message: string): RestResult {
  return { status: "failed", success: false, message };
}

/** The failure message of a refused tus request: the server's JSON message, else the connection error. */
function messageOf(error: unknown): string {
  const response = (error as { originalResponse?: { getBody(): string } | null }).originalResponse;
  if (!response) return CONNECTION_ERROR;
  try {
    const body = JSON.parse(response.getBody()) as RestResult;
    if (typeof body.message === "string") return body.message;
  } catch {
    // not JSON: fall through
  }
  return CONNECTION_ERROR;
}

/** `POST /api/uploads/{id}/finish`, retried while the connection is down (it is safe to repeat). */
async function finish(uploadUrl: string): Promise<RestResult> {
  const path = new URL(uploadUrl, window.location.href).pathname;
  for (const delay of RETRY_DELAYS.slice(0, 20)) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    const token = readSession()?.token;
    try {
      const res = await fetch(`${path}/finish`, {
        method: "POST",
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      const body = (await res.json().catch(() => ({}))) as RestResult;
      if (res.ok) return body;
      // Only "another request still finishes it" is worth asking again; any other answer is final.
      if (!(res.status === 409 && String(body.message).startsWith(STILL_FINISHING)))
        return { ...body, status: "failed", success: false };
    } catch {
      // the connection dropped: try again
    }
  }
  return failed(CONNECTION_ERROR);
}

/** An upload begun earlier (before a reload, say) that did not finish. */
export interface UnfinishedUpload {
  /** The localStorage key tus-js-client keeps its URL under. */
  key: string;
  /** The upload's URL on the server, when it got that far. */
  url: string | null;
  filename: string;
  /** The file's size in bytes. */
  bytesTotal: number;
  startedAt: Date;
}

/** How long the server keeps an unfinished upload (the sweep removes it after 24 hours). */
const KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The signed-in user's unfinished uploads of `kind` begun in this browser within
 * the last 24 hours, newest first, limited to those whose fields include every entry of `match`
 * (e.g. `{ audioId }`). Choosing the same file for the same purpose goes on with one of them.
 */
export async function findUnfinishedUploads(
  kind: UploadKind,
  match: Record<string, string> = {},
): Promise<UnfinishedUpload[]> {
  const who = readSession()?._id;
  if (!who) return [];
  const mine = `tus::${["tafsiri", who, kind].join("|")}|`;
  const all = await defaultOptions.urlStorage.findAllUploads().catch(() => [] as PreviousUpload[]);
  return all
    .filter((p) => p.urlStorageKey.startsWith(mine))
    .filter((p) => Object.entries(match).every(([field, value]) => p.metadata[field] === value))
    .map((p) => ({
      key: p.urlStorageKey,
      url: p.uploadUrl,
      filename: p.metadata.filename ?? "",
      bytesTotal: p.size ?? 0,
      startedAt: new Date(p.creationTime),
    }))
    .filter((u) => Date.now() - u.startedAt.getTime() < KEPT_MS)
    .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
}

/** Gives up an unfinished upload: the server removes its bytes (when it can be reached) and this browser forgets it. */
export async function discardUnfinishedUpload(upload: UnfinishedUpload): Promise<void> {
  if (upload.url) {
    const token = readSession()?.token;
    await Upload.terminate(upload.url, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      retryDelays: [],
    }).catch(() => undefined);
  }
  await defaultOptions.urlStorage.removeUpload(upload.key).catch(() => undefined);
}

/** Forgets the stored upload URLs of `fingerprint` (the upload is finished). */
async function forget(fingerprint: string): Promise<void> {
  const storage = defaultOptions.urlStorage;
  const previous = await storage.findUploadsByFingerprint(fingerprint).catch(() => [] as PreviousUpload[]);
  await Promise.all(previous.map((p) => storage.removeUpload(p.urlStorageKey).catch(() => undefined)));
}

/**
 * Sends `file` as an upload of `kind` with the multipart form's `fields`
 * (category, audioId, recordedBy, replace) over tus to `/api/uploads`, then finishes it, and
 * answers what `POST /api/audios/upload/{KIND}` would. A dropped connection is retried from the
 * last byte the server has; after a reload, choosing the same file for the same purpose goes on
 * where it stopped (the upload URL is kept in localStorage until it is finished). `onProgress`
 * is told bytes sent, the rate (bytes/s over the last 5 s) and the seconds left.
 */
export function startResumableUpload(
  file: File,
  kind: UploadKind,
  fields: Record<string, string>,
  onProgress?: (progress: UploadProgress) => void,
): ResumableUpload {
  const fingerprint = fingerprintOf(file, kind, fields);
  const meter = new ProgressMeter();
  let settle: (result: RestResult) => void = () => undefined;
  const done = new Promise<RestResult>((resolve) => {
    settle = resolve;
  });

  const upload = new Upload(file, {
    endpoint: ENDPOINT,
    retryDelays: RETRY_DELAYS,
    metadata: { ...fields, kind, filename: file.name, filetype: file.type },
    fingerprint: async () => fingerprint,
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: false,
    onBeforeRequest(req) {
      const token = readSession()?.token;
      if (token) req.setHeader("Authorization", `Bearer ${token}`);
    },
    onProgress(bytesSent, bytesTotal) {
      onProgress?.(meter.measure(bytesSent, bytesTotal, performance.now()));
    },
    onError(error) {
      settle(failed(messageOf(error)));
    },
    onSuccess() {
      void finish(upload.url ?? "").then(async (result) => {
        await forget(fingerprint);
        settle(result);
      });
    },
  });

  void upload
    .findPreviousUploads()
    .then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
    })
    .catch(() => undefined)
    .finally(() => upload.start());

  return {
    done,
    pause() {
      meter.reset();
      void upload.abort(false);
    },
    resume() {
      upload.start();
    },
  };
}
