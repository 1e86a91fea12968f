// The worker thread that decodes one stored audio file into min/max peaks (ARCHITECTURE "Long
// recordings and the corpus": decoding runs off the request path, chunk by chunk). Started by
// compute-waveform.ts, one per file, terminated after; a plain .mjs file because worker threads
// under tsx and vitest cannot load TypeScript.
//
// workerData: { format, pixelsPerSecond } — audio-decode's format name ('mp3', 'wav', 'flac',
// 'oga', 'opus', …) and about how many pixels a second of audio makes.
//
// Messages in:  { type: 'chunk', bytes: Uint8Array } (the next bytes of the file, transferred),
//               { type: 'end' } (no more bytes).
// Messages out: { type: 'ready' } once the decoder is loaded;
//               { type: 'ack' } each time the decoder takes a chunk (the parent sends a new one per ack,
//               so only a few chunks are ever queued here);
//               { type: 'peaks', values: Float32Array } min, max of each finished pixel, interleaved, every
//               channel merged (transferred);
//               { type: 'done', sampleRate, samplesPerPixel, channelCount, frames, decoderErrors,
//               lastDecoderError } after the last pixel;
//               { type: 'failed', message } when the decoder throws, the sample rate changes, or no frame came.
//
// The decoders' console complaints about damaged data are counted, not printed (worker-input.mjs),
// so the parent can tell a damaged file.
import { parentPort, workerData } from "node:worker_threads";
import decode from "audio-decode";
import { countDecoderComplaints, fileInput } from "../workers/worker-input.mjs";

const { format, pixelsPerSecond } = workerData;

const complaints = countDecoderComplaints();
const { input } = fileInput(parentPort);

/**
 * Decodes the input and posts the peaks as they come: each pixel covers `samplesPerPixel` frames
 * (round(sampleRate / pixelsPerSecond), at least 1), the last one whatever is left.
 * @returns {Promise<{ sampleRate: number, samplesPerPixel: number, channelCount: number, frames: number,
 *   decoderErrors: number, lastDecoderError: string }>}
 */
async function peaks() {
  let sampleRate = 0;
  let samplesPerPixel = 0;
  let channelCount = 0;
  let frames = 0;
  // The pixel being filled: frames in it so far, lowest and highest sample.
  let filled = 0;
  let low = Infinity;
  let high = -Infinity;
  const pixel = (out, at) => {
    // A pixel of NaN samples only has no peak: (0, 0).
    out[at] = low <= high ? low : 0;
    out[at + 1] = low <= high ? high : 0;
    filled = 0;
    low = Infinity;
    high = -Infinity;
  };
  for await (const { channelData, sampleRate: rate } of decode(input(), format)) {
    if (sampleRate === 0) {
      sampleRate = rate;
      samplesPerPixel = Math.max(1, Math.round(rate / pixelsPerSecond));
    } else if (rate !== sampleRate) {
      throw new Error(`the sample rate changed from ${sampleRate} Hz to ${rate} Hz`);
    }
    channelCount = Math.max(channelCount, channelData.length);
    const length = channelData[0].length;
    const out = new Float32Array(2 * Math.floor((filled + length) / samplesPerPixel));
    let written = 0;
    for (let start = 0; start < length;) {
      const end = Math.min(length, start + samplesPerPixel - filled);
      for (const channel of channelData) {
        const stop = Math.min(end, channel.length);
        for (let i = start; i < stop; i++) {
          const v = channel[i];
          if (v < low) low = v;
          if (v > high) high = v;
        }
      }
      filled += end - start;
      start = end;
      if (filled === samplesPerPixel) {
        pixel(out, written);
        written += 2;
      }
    }
    frames += length;
    if (written > 0) parentPort.postMessage({ type: "peaks", values: out }, [out.buffer]);
  }
  if (filled > 0) {
    const last = new Float32Array(2);
    pixel(last, 0);
    parentPort.postMessage({ type: "peaks", values: last }, [last.buffer]);
  }
  if (frames === 0) throw new Error("the decoder found no audio in the file");
  return { sampleRate, samplesPerPixel, channelCount, frames, ...complaints };
}

parentPort.postMessage({ type: "ready" });
try {
  parentPort.postMessage({ type: "done", ...(await peaks()) });
} catch (error) {
  parentPort.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
