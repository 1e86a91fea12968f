import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import type { FileStorage } from "../storage/file-storage";
import { DECODER_ERRORS_ALLOWED, decoderFormatFor, type DecoderFormat } from "../waveforms/compute-waveform";
import { FileFeeder, readFileStart, type FileStart } from "../workers/file-feeder";

/** The measuring worker (a plain .mjs file: worker threads under tsx and vitest cannot load TypeScript). */
const TAKE_WORKER = new URL("./take-worker.mjs", import.meta.url);

/** A 20 ms frame whose RMS is below this many dBFS is silent (longestSilenceMs). */
export const SILENCE_DBFS = -40;

/** The length of a silence frame, ms. */
export const SILENCE_FRAME_MS = 20;

/** What a level of no signal at all reads as, dBFS (20·log10(0) is -Infinity). */
const DBFS_FLOOR = -120;

/** How long measuring one take may take, by default: 2 minutes (a take of minutes takes well under a second). */
const TAKE_TIMEOUT_MS = 2 * 60 * 1000;

/**
 * What a decoding worker may use: a pathological file ends the worker (ERR_WORKER_OUT_OF_MEMORY),
 * never the server. The decoders' WebAssembly memory is outside these limits; the timeout covers a
 * decoder that never ends. The same as the waveform job's.
 */
const TAKE_WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

/** What analyzeTake measured in one spoken take. */
export interface TakeMeasures {
  /** Decoded frames / sample rate, in whole ms. */
  durationMs: number;
  /** Hz, of the decoded take. */
  sampleRate: number;
  /** The largest |sample| of any channel, in dBFS (0 is full scale; -120 for digital silence). */
  peakDbfs: number;
  /** The RMS of every sample of every channel over the whole take, in dBFS (floor -120). */
  rmsDbfs: number;
  /**
   * The longest run of consecutive SILENCE_FRAME_MS frames below SILENCE_DBFS inside the take, in
   * whole ms: leading and trailing silence do not count, so an all-silent take has 0.
   */
  longestSilenceMs: number;
}

/**
 * A take cannot be decoded: no decoder for its type, the decoder threw, found no audio, reported
 * more damage than DECODER_ERRORS_ALLOWED allows, ran out of its memory or time. `takeIndex` is the
 * take's place in assembleRecording's list (null from analyzeTake).
 */
export class TakeDecodeError extends Error {
  constructor(
    message: string,
    readonly takeIndex: number | null = null,
  ) {
    super(message);
    this.name = "TakeDecodeError";
  }
}

/** `amplitude` (0 to 1, full scale 1) in dBFS, never below DBFS_FLOOR. */
function dbfs(amplitude: number): number {
  return amplitude > 0 ? Math.max(DBFS_FLOOR, 20 * Math.log10(amplitude)) : DBFS_FLOOR;
}

/**
 * Whether a decoder that printed `errors` complaints over `seconds` of audio was reading a damaged
 * file rather than a sound one with a bad stretch (the waveform job's rule).
 */
export function tooDamaged(errors: number, seconds: number): boolean {
  return errors > DECODER_ERRORS_ALLOWED + seconds;
}

/**
 * Reads the start of the stored file `fileKey` and picks its decoder; TakeDecodeError (with
 * `takeIndex`) when `mimeType` has none. The caller must destroy `stream`.
 */
export async function openTake(
  storage: FileStorage,
  fileKey: string,
  mimeType: string,
  takeIndex: number | null,
): Promise<{ stream: Readable; start: FileStart; format: DecoderFormat }> {
  const stream = await storage.read(fileKey);
  try {
    const start = await readFileStart(stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
    const format = decoderFormatFor(mimeType, Buffer.concat(start.head));
    if (format === null) throw new TakeDecodeError(`no decoder for ${mimeType} (${fileKey})`, takeIndex);
    return { stream, start, format };
  } catch (error) {
    stream.destroy();
    throw error;
  }
}

/** What the worker reports when it has decoded everything (see take-worker.mjs). */
interface MeasureDone {
  sampleRate: number;
  channelCount: number;
  frames: number;
  peak: number;
  sumSquares: number;
  values: number;
  frameSamples: number;
  longestSilentFrames: number;
  decoderErrors: number;
  lastDecoderError: string;
}

type WorkerMessage = { type: "ready" | "ack" } | ({ type: "done" } & MeasureDone) | { type: "failed"; message: string };

/**
 * Decision 035 (a segment's spoken translation is a take of its own), ARCHITECTURE "Long
 * recordings and the corpus": measures the stored take `fileKey` of `mimeType` (audio/wav,
 * audio/mpeg, audio/ogg, audio/flac, … as decoderFormatFor reads them): its duration and sample
 * rate, its peak and RMS level in dBFS, and its longest inner silence in ms (see TakeMeasures).
 * The file streams through `storage.read` in pieces of at most 16 KB, four in flight, to a worker
 * thread (one per call, terminated after) that decodes it with audio-decode chunk by chunk and keeps
 * running sums only, so memory stays bounded however long the take. The whole run may take
 * `timeoutMs` (default 2 minutes).
 *
 * Rejects with TakeDecodeError when the take cannot be decoded (unknown type, decoder error, no
 * audio, too much damage, out of the worker's memory or time); with the storage's error
 * (StoredFileMissingError, a read error) when the file cannot be read; with `signal.reason` when
 * `signal` aborts; with a plain Error when the worker cannot start.
 */
export async function analyzeTake(
  storage: FileStorage,
  fileKey: string,
  mimeType: string,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<TakeMeasures> {
  opts.signal?.throwIfAborted();
  const { stream, start, format } = await openTake(storage, fileKey, mimeType, null);
  try {
    return await measureInWorker(format, start, opts);
  } finally {
    stream.destroy();
  }
}

/** Runs the worker over `start`, then the rest of the file; resolves with the measures. */
function measureInWorker(
  format: DecoderFormat,
  start: FileStart,
  opts: { signal?: AbortSignal; timeoutMs?: number },
): Promise<TakeMeasures> {
  const worker = new Worker(TAKE_WORKER, {
    workerData: { format, frameMs: SILENCE_FRAME_MS, silenceMeanSquare: 10 ** (SILENCE_DBFS / 10) },
    resourceLimits: TAKE_WORKER_LIMITS,
  });
  const feeder = new FileFeeder(worker);
  const timeoutMs = opts.timeoutMs ?? TAKE_TIMEOUT_MS;
  let ready = false;
  let settled = false;

  return new Promise<TakeMeasures>((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new TakeDecodeError(`measuring the take took longer than ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    const onAbort = () => settle(opts.signal?.reason ?? new Error("aborted"));
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    // An abort while the file was being opened fires no event now.
    if (opts.signal?.aborted) onAbort();

    function settle(error: unknown, value?: TakeMeasures) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      feeder.stop();
      // Resolve or reject once the worker (and its memory) is gone.
      void worker.terminate().finally(() => (value ? resolve(value) : reject(error)));
    }

    worker.on("message", (message: WorkerMessage) => {
      switch (message.type) {
        case "ready":
          ready = true;
          break;
        case "ack":
          feeder.ack();
          break;
        case "failed":
          settle(new TakeDecodeError(`the take cannot be decoded: ${message.message}`));
          break;
        case "done":
          try {
            settle(null, measures(message));
          } catch (error) {
            settle(error);
          }
          break;
      }
    });
    worker.on("error", (error) => {
      // Before "ready" the worker could not start (not the file's fault); after, the file broke it.
      settle(ready ? new TakeDecodeError(`the decoder stopped: ${error.message}`) : error);
    });
    worker.on("exit", (code) => settle(new TakeDecodeError(`the decoder exited (code ${code})`)));

    // A read error is the storage's, not the file's: it rejects as it is.
    feeder.pump(start).catch((error: unknown) => settle(error));
  });
}

/** The measures from the worker's report; TakeDecodeError for a damaged file. */
function measures(done: MeasureDone): TakeMeasures {
  const seconds = done.frames / done.sampleRate;
  if (tooDamaged(done.decoderErrors, seconds)) {
    throw new TakeDecodeError(
      `the decoder reported ${done.decoderErrors} errors in ${seconds.toFixed(2)} s of audio (last: ${done.lastDecoderError})`,
    );
  }
  return {
    durationMs: Math.round(seconds * 1000),
    sampleRate: done.sampleRate,
    peakDbfs: dbfs(done.peak),
    rmsDbfs: dbfs(done.values > 0 ? Math.sqrt(done.sumSquares / done.values) : 0),
    longestSilenceMs: Math.round((done.longestSilentFrames * done.frameSamples * 1000) / done.sampleRate),
  };
}
