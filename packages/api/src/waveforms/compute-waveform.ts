import { Worker } from "node:worker_threads";
import type { FileStorage } from "../storage/file-storage";
import { FileFeeder, readFileStart, type FileStart } from "../workers/file-feeder";
import { encodePeaks, peakValue, PEAKS_PER_SECOND, samplesPerPixelFor } from "./peaks-format";

/** The decoder worker (a plain .mjs file: worker threads under tsx and vitest cannot load TypeScript). */
const DECODE_WORKER = new URL("./decode-worker.mjs", import.meta.url);

/** How long one file may take to decode, by default: 10 minutes (an hour of MP3 takes seconds). */
const WAVEFORM_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * What the decoder worker may use: a pathological file ends the worker (ERR_WORKER_OUT_OF_MEMORY),
 * never the server. The decoders' own memory is WebAssembly memory outside these limits; the
 * timeout covers a decoder that never ends.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

/**
 * How many complaints the decoder may print about damaged data before the file counts as
 * undecodable: this many, plus one per second of decoded audio. A sound file with a damaged
 * stretch or trailing junk gets a handful over minutes; garbage behind a valid header gets dozens
 * for the fraction of a second of false frames the decoder finds in it.
 */
export const DECODER_ERRORS_ALLOWED = 5;

/** audio-decode's name of each format the uploads accept, and of M4A/AAC and AMR, which phones record. */
export type DecoderFormat = "mp3" | "wav" | "flac" | "oga" | "opus" | "m4a" | "amr";

/** What decoding a stored audio file found, and its peaks (see peaks-format.ts). */
export interface ComputedWaveform {
  /** Decoded frames / sample rate, in seconds. */
  durationSeconds: number;
  /** Hz, of the decoded audio. */
  sampleRate: number;
  /** The most channels a decoded chunk had (a mono MP3 decodes as one channel). */
  channelCount: number;
  /** The peaks file's bytes: audiowaveform binary `.dat` version 1, 8-bit, about 100 pairs a second. */
  peaks: Buffer;
}

/**
 * The file cannot be decoded: no decoder for its type, the decoder threw, found no audio, ran out
 * of its memory or time. The file stays stored and playable; its waveform is 'failed'.
 */
export class WaveformDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WaveformDecodeError";
  }
}

/** Whether `head` starts with an Ogg page whose packet is an Opus identification header ("OpusHead"). */
function isOggOpus(head: Uint8Array): boolean {
  const ascii = (at: number, text: string) => [...text].every((c, i) => head[at + i] === c.charCodeAt(0));
  if (head.length < 27 || !ascii(0, "OggS")) return false;
  const segments = head[26] ?? 0;
  return ascii(27 + segments, "OpusHead");
}

/**
 * The audio-decode format for a stored file of `mimeType` (as sniffed at upload; parameters
 * ignored) whose first bytes are `head`: audio/mpeg and audio/mp3 → mp3; audio/wav, audio/x-wav,
 * audio/wave → wav; audio/flac, audio/x-flac → flac; audio/ogg → opus when the first Ogg page holds
 * "OpusHead", else oga (Vorbis). Null for any other type.
 */
export function decoderFormatFor(mimeType: string, head: Uint8Array): DecoderFormat | null {
  const type = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  switch (type) {
    case "audio/mpeg":
    case "audio/mp3":
      return "mp3";
    case "audio/wav":
    case "audio/x-wav":
    case "audio/wave":
      return "wav";
    case "audio/flac":
    case "audio/x-flac":
      return "flac";
    case "audio/ogg":
      return isOggOpus(head) ? "opus" : "oga";
    // Not accepted as uploads (SPEC §5), but what phones record: the benchmark measures them.
    case "audio/mp4":
    case "audio/x-m4a":
    case "audio/aac":
      return "m4a";
    case "audio/amr":
      return "amr";
    default:
      return null;
  }
}

/** What the worker reports when it has decoded everything (see decode-worker.mjs). */
interface DecodeDone {
  sampleRate: number;
  samplesPerPixel: number;
  channelCount: number;
  frames: number;
  /** Complaints the decoder printed about damaged data, and the last one. */
  decoderErrors: number;
  lastDecoderError: string;
}

type WorkerMessage =
  | { type: "ready" | "ack" }
  | { type: "peaks"; values: Float32Array }
  | ({ type: "done" } & DecodeDone)
  | { type: "failed"; message: string };

/**
 * ARCHITECTURE "Long recordings and the corpus": decodes the stored file `fileKey` of `mimeType`
 * into its duration, sample rate, channel count and peaks, off the main thread and chunk by chunk.
 * The file streams through `storage.read` here; each read is cut into pieces of at most 16 KB,
 * each copied into an ArrayBuffer of its own and transferred to a worker thread (one per file,
 * terminated after) that decodes it with audio-decode's streaming decoder; at most four pieces are
 * in flight, so memory stays bounded however long the file (an hour of 128 kbit/s MP3: about 50 MB
 * more RSS while it decodes). The worker has resource limits, and the whole decode `timeoutMs`
 * (default 10 minutes).
 *
 * Rejects with WaveformDecodeError when the file cannot be decoded (unknown type, decoder error, no
 * audio, more damage than DECODER_ERRORS_ALLOWED allows, out of the worker's memory or time); with
 * the storage's error (StoredFileMissingError, a read error) when the file cannot be read; with
 * `signal.reason` when `signal` aborts; with a plain Error when the worker cannot start.
 */
export async function computeWaveform(
  storage: FileStorage,
  fileKey: string,
  mimeType: string,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<ComputedWaveform> {
  opts.signal?.throwIfAborted();
  const stream = await storage.read(fileKey);
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    // Enough of the start to tell Ogg Opus from Ogg Vorbis.
    const start = await readFileStart(chunks);
    const format = decoderFormatFor(mimeType, Buffer.concat(start.head));
    if (format === null) throw new WaveformDecodeError(`no decoder for ${mimeType}`);
    return await decodeInWorker(format, start, opts);
  } finally {
    stream.destroy();
  }
}

/** Runs the worker over `head`, then the rest of `chunks`; resolves with the waveform. */
function decodeInWorker(
  format: DecoderFormat,
  start: FileStart,
  opts: { signal?: AbortSignal; timeoutMs?: number },
): Promise<ComputedWaveform> {
  const worker = new Worker(DECODE_WORKER, {
    workerData: { format, pixelsPerSecond: PEAKS_PER_SECOND },
    resourceLimits: WORKER_LIMITS,
  });
  const pairs: Int8Array[] = [];
  const feeder = new FileFeeder(worker);
  let ready = false;
  let settled = false;
  const timeoutMs = opts.timeoutMs ?? WAVEFORM_TIMEOUT_MS;

  return new Promise<ComputedWaveform>((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new WaveformDecodeError(`decoding took longer than ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    const onAbort = () => settle(opts.signal?.reason ?? new Error("aborted"));
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    function settle(error: unknown, value?: ComputedWaveform) {
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
        case "peaks": {
          const values = new Int8Array(message.values.length);
          for (let i = 0; i < values.length; i++) values[i] = peakValue(message.values[i] ?? 0);
          pairs.push(values);
          break;
        }
        case "failed":
          settle(new WaveformDecodeError(message.message));
          break;
        case "done":
          try {
            settle(null, finish(message, pairs));
          } catch (error) {
            settle(error);
          }
          break;
      }
    });
    worker.on("error", (error) => {
      // Before "ready" the worker could not start (not the file's fault); after, the file broke it.
      settle(ready ? new WaveformDecodeError(`the decoder stopped: ${error.message}`) : error);
    });
    worker.on("exit", (code) => settle(new WaveformDecodeError(`the decoder exited (code ${code})`)));

    // A read error is the storage's, not the file's: it rejects as it is.
    feeder.pump(start).catch((error: unknown) => settle(error));
  });
}

/** The waveform from the worker's report and the quantized pairs; WaveformDecodeError for a damaged file. */
function finish(done: DecodeDone, pairs: Int8Array[]): ComputedWaveform {
  const durationSeconds = done.frames / done.sampleRate;
  if (done.decoderErrors > DECODER_ERRORS_ALLOWED + durationSeconds) {
    throw new WaveformDecodeError(
      `the decoder reported ${done.decoderErrors} errors in ${durationSeconds.toFixed(2)} s of audio (last: ${done.lastDecoderError})`,
    );
  }
  if (done.samplesPerPixel !== samplesPerPixelFor(done.sampleRate)) {
    throw new Error(`decoder worker used ${done.samplesPerPixel} samples per pixel at ${done.sampleRate} Hz`);
  }
  const all = new Int8Array(pairs.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pairs) {
    all.set(p, at);
    at += p.length;
  }
  return {
    durationSeconds,
    sampleRate: done.sampleRate,
    channelCount: done.channelCount,
    peaks: encodePeaks({ sampleRate: done.sampleRate, samplesPerPixel: done.samplesPerPixel, pairs: all }),
  };
}
