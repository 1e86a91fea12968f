import { promises as fs } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import type { FileStorage } from "../storage/file-storage";
import { FileFeeder } from "../workers/file-feeder";
import { openTake, TakeDecodeError, tooDamaged } from "./analyze-take";

/** The assembling worker (a plain .mjs file: worker threads under tsx and vitest cannot load TypeScript). */
const ASSEMBLE_WORKER = new URL("./assemble-worker.mjs", import.meta.url);

/** The assembled recording's rate, Hz: 16-bit mono PCM WAV at 16 kHz, the rate speech corpora use. */
export const ASSEMBLED_SAMPLE_RATE = 16_000;

/**
 * What the assembling worker may use: a pathological take ends the worker, never the server. Its
 * young generation is smaller than the waveform job's (4 MB, not 16): the worker makes garbage of
 * every chunk of every take for the length of an hour's assembly, and a small young generation
 * keeps the process's resident memory some 20 MB lower at no measurable cost in time. The
 * decoders' and the resampler's WebAssembly memory is outside these limits.
 */
const ASSEMBLE_WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 4, stackSizeMb: 4 };

/** How long one assembly may take, by default: 10 minutes (an hour of takes takes well under one). */
const ASSEMBLY_TIMEOUT_MS = 10 * 60 * 1000;

/** What assembleRecording wrote. */
export interface AssembledRecording {
  /** The whole recording, in whole ms. */
  durationMs: number;
  /** Hz: always ASSEMBLED_SAMPLE_RATE. */
  sampleRate: typeof ASSEMBLED_SAMPLE_RATE;
  /**
   * Where each take lies in the recording, in the takes' order, in whole ms from its start:
   * `endMs - startMs` is the take's duration after resampling (±1 ms of rounding).
   */
  spans: { startMs: number; endMs: number }[];
  /** The file's size, header included. */
  bytes: number;
}

/** One take to assemble: a stored file and its type as sniffed at upload. */
interface TakeFile {
  fileKey: string;
  mimeType: string;
}

/** Options of assembleRecording. */
interface AssembleOptions {
  /** Digital silence between consecutive takes, ms (none before the first or after the last). */
  gapMs: number;
  /**
   * The WAV file to write on local disk, e.g. a `storage.tempPath()` to adopt after: made (its
   * folder too) or overwritten, and removed again when the assembly fails.
   */
  outputPath: string;
  signal?: AbortSignal;
  /** Default ASSEMBLY_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** What the worker reports after each take (see assemble-worker.mjs). */
interface TakeDone {
  index: number;
  startSample: number;
  samples: number;
  sampleRate: number;
  frames: number;
  decoderErrors: number;
  lastDecoderError: string;
}

type WorkerMessage =
  | { type: "ready" | "ack" }
  | ({ type: "take-done" } & TakeDone)
  | { type: "done"; samples: number; bytes: number }
  | { type: "failed"; message: string; index: number | null };

/**
 * Decision 035 (the SPEC's translated recording is assembled from the segments' spoken takes),
 * ARCHITECTURE "Long recordings and the corpus": writes `takes` (stored files of any type
 * decoderFormatFor knows, each of any rate and channel count), in their order, into one 16-bit
 * little-endian PCM mono WAV at ASSEMBLED_SAMPLE_RATE at `opts.outputPath` on local disk, with
 * exactly `opts.gapMs` ms of digital silence between consecutive takes. Each take streams through
 * `storage.read` in pieces of at most 16 KB, four in flight, to one worker thread for the whole
 * assembly, which decodes it with audio-decode chunk by chunk, mixes it down to mono, resamples it
 * with libsamplerate (its state carried across the take's chunks; each take is
 * round(frames × 16,000 / rate) samples long) and writes it as it goes: a placeholder header first,
 * its sizes at the end. Neither side holds a take or the recording, so memory stays bounded
 * however long the result (an hour of takes: about 70 MB more RSS, 13 s). The whole assembly may
 * take `opts.timeoutMs` (default 10 minutes).
 *
 * Resolves with the recording's duration, rate, size in bytes and each take's span (whole ms).
 * Rejects with RangeError when `takes` is empty or `gapMs` is not a finite number ≥ 0; with
 * TakeDecodeError (its `takeIndex` set, 0-based) when a take cannot be decoded (unknown type,
 * decoder error, no audio, too much damage, out of the worker's memory) or the assembly runs out of
 * time; with the storage's error (StoredFileMissingError, a read error) when a take cannot be read;
 * with the file system's error when the output cannot be opened, and an Error "the recording cannot
 * be written: …" when writing it fails (a full disk); with `signal.reason` when `signal` aborts. On
 * any failure the output file is removed.
 */
export async function assembleRecording(
  storage: FileStorage,
  takes: TakeFile[],
  opts: AssembleOptions,
): Promise<AssembledRecording> {
  opts.signal?.throwIfAborted();
  if (takes.length === 0) throw new RangeError("there are no takes to assemble");
  if (!Number.isFinite(opts.gapMs) || opts.gapMs < 0) {
    throw new RangeError(`the gap between takes must be a number of ms ≥ 0, not ${opts.gapMs}`);
  }
  await fs.mkdir(path.dirname(opts.outputPath), { recursive: true });
  const output = await fs.open(opts.outputPath, "w");
  let result: AssembledRecording;
  try {
    result = await assembleInWorker(storage, takes, output.fd, opts);
  } catch (error) {
    await output.close();
    await fs.rm(opts.outputPath, { force: true });
    throw error;
  }
  await output.close();
  return result;
}

/** Samples at ASSEMBLED_SAMPLE_RATE → whole ms. */
const toMs = (samples: number) => Math.round((samples * 1000) / ASSEMBLED_SAMPLE_RATE);

/** Runs the worker over every take, writing into `fd`; resolves once the file is complete and the worker gone. */
function assembleInWorker(
  storage: FileStorage,
  takes: TakeFile[],
  fd: number,
  opts: AssembleOptions,
): Promise<AssembledRecording> {
  const worker = new Worker(ASSEMBLE_WORKER, {
    workerData: {
      fd,
      outputRate: ASSEMBLED_SAMPLE_RATE,
      gapSamples: Math.round((opts.gapMs * ASSEMBLED_SAMPLE_RATE) / 1000),
    },
    resourceLimits: ASSEMBLE_WORKER_LIMITS,
  });
  const timeoutMs = opts.timeoutMs ?? ASSEMBLY_TIMEOUT_MS;
  const spans: AssembledRecording["spans"] = [];
  /** The take being fed, its stream and its feeder. */
  let current = -1;
  let stream: Readable | null = null;
  let feeder: FileFeeder | null = null;
  let ready = false;
  let settled = false;

  return new Promise<AssembledRecording>((resolve, reject) => {
    const timer = setTimeout(() => {
      const at = Math.min(current, takes.length - 1);
      settle(
        new TakeDecodeError(
          `assembling took longer than ${Math.round(timeoutMs / 1000)} s (at take ${at + 1} of ${takes.length})`,
          at,
        ),
      );
    }, timeoutMs);
    const onAbort = () => settle(opts.signal?.reason ?? new Error("aborted"));
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    // An abort while the file was being opened fires no event now.
    if (opts.signal?.aborted) onAbort();

    function settle(error: unknown, value?: AssembledRecording) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      feeder?.stop();
      stream?.destroy();
      // Resolve or reject once the worker is gone (and no longer writes into the file).
      void worker.terminate().finally(() => (value ? resolve(value) : reject(error)));
    }

    /** Which take `index` is, for messages. */
    const named = (index: number) => `take ${index + 1} of ${takes.length} (${takes[index]?.fileKey})`;

    /** Sends the next take to the worker, or 'finish' after the last. */
    async function sendNext(): Promise<void> {
      stream?.destroy();
      stream = null;
      current += 1;
      const take = takes[current];
      if (!take) {
        worker.postMessage({ type: "finish" });
        return;
      }
      const opened = await openTake(storage, take.fileKey, take.mimeType, current);
      if (settled) {
        opened.stream.destroy();
        return;
      }
      stream = opened.stream;
      worker.postMessage({ type: "take", index: current, format: opened.format });
      feeder = new FileFeeder(worker);
      // A read error is the storage's, not the take's: it rejects as it is.
      await feeder.pump(opened.start);
    }
    const next = () => void sendNext().catch((error: unknown) => settle(error));

    function takeDone(done: TakeDone) {
      const seconds = done.frames / done.sampleRate;
      if (tooDamaged(done.decoderErrors, seconds)) {
        settle(
          new TakeDecodeError(
            `${named(done.index)} cannot be decoded: the decoder reported ${done.decoderErrors} errors in ${seconds.toFixed(2)} s of audio (last: ${done.lastDecoderError})`,
            done.index,
          ),
        );
        return;
      }
      spans.push({ startMs: toMs(done.startSample), endMs: toMs(done.startSample + done.samples) });
      next();
    }

    worker.on("message", (message: WorkerMessage) => {
      switch (message.type) {
        case "ready":
          ready = true;
          break;
        case "ack":
          feeder?.ack();
          break;
        case "take-done":
          takeDone(message);
          break;
        case "failed":
          settle(
            message.index === null
              ? new Error(message.message)
              : new TakeDecodeError(`${named(message.index)} cannot be decoded: ${message.message}`, message.index),
          );
          break;
        case "done":
          settle(null, {
            durationMs: toMs(message.samples),
            sampleRate: ASSEMBLED_SAMPLE_RATE,
            spans,
            bytes: message.bytes,
          });
          break;
      }
    });
    worker.on("error", (error) => {
      // Before "ready" the worker could not start (not a take's fault); after, the take broke it.
      settle(
        ready && current >= 0 && current < takes.length
          ? new TakeDecodeError(`${named(current)} stopped the decoder: ${error.message}`, current)
          : error,
      );
    });
    worker.on("exit", (code) => settle(new Error(`the assembling worker exited (code ${code})`)));

    next();
  });
}
