// The worker thread that measures one spoken take (decision 035: a staff member records the
// translation of each segment as a short take; ARCHITECTURE "Long recordings and the corpus":
// decoding runs off the request path, chunk by chunk). Started by analyze-take.ts, one per take,
// terminated after; a plain .mjs file because worker threads under tsx and vitest cannot load
// TypeScript. It decodes the take with audio-decode (the waveform job's decoder) and keeps running
// figures only, never the samples.
//
// workerData: { format, frameMs, silenceMeanSquare } — audio-decode's format name ('mp3', 'wav',
// …), the length of a silence frame in ms, and the mean square of the samples below which a frame
// counts as silent (10^(SILENCE_DBFS / 10)).
//
// Messages in:  { type: 'chunk', bytes: Uint8Array } (the next bytes of the file, transferred),
//               { type: 'end' } (no more bytes).
// Messages out: { type: 'ready' } once the decoder is loaded;
//               { type: 'ack' } each time the decoder takes a chunk (the parent sends a new one per ack);
//               { type: 'done', sampleRate, channelCount, frames, peak, sumSquares, values,
//               frameSamples, longestSilentFrames, decoderErrors, lastDecoderError } after the last
//               chunk (`peak`: largest |sample| of any channel; `sumSquares` over `values` samples of
//               every channel; `longestSilentFrames`: the longest run of silent frames with sound on
//               both sides);
//               { type: 'failed', message } when the decoder throws, the sample rate changes, or no frame came.
//
// As in decode-worker.mjs, the decoders' console complaints about damaged data are counted, not
// printed, so the parent can tell a damaged file.
import { parentPort, workerData } from "node:worker_threads";
import decode from "audio-decode";
import { countDecoderComplaints, fileInput } from "../workers/worker-input.mjs";

const { format, frameMs, silenceMeanSquare } = workerData;

const complaints = countDecoderComplaints();
const { input } = fileInput(parentPort);

/**
 * Decodes the input and measures it as it comes.
 * @returns {Promise<{ sampleRate: number, channelCount: number, frames: number, peak: number,
 *   sumSquares: number, values: number, frameSamples: number, longestSilentFrames: number,
 *   decoderErrors: number, lastDecoderError: string }>}
 */
async function measure() {
  let sampleRate = 0;
  let channelCount = 0;
  let frames = 0;
  let peak = 0;
  let sumSquares = 0;
  let values = 0;
  let frameSamples = 0;
  // The silence frame being filled: its frames so far, and its samples' sum of squares and count.
  let filled = 0;
  let frameSum = 0;
  let frameValues = 0;
  // Silent frames since the last frame with sound; whether one with sound came yet; the longest
  // run closed by sound.
  let run = 0;
  let heardSound = false;
  let longestSilentFrames = 0;

  const closeFrame = () => {
    if (frameValues === 0) return;
    if (frameSum / frameValues < silenceMeanSquare) {
      run += 1;
    } else {
      // A run before the first sound is the take's leading silence, not counted.
      if (heardSound && run > longestSilentFrames) longestSilentFrames = run;
      heardSound = true;
      run = 0;
    }
    filled = 0;
    frameSum = 0;
    frameValues = 0;
  };

  for await (const { channelData, sampleRate: rate } of decode(input(), format)) {
    if (sampleRate === 0) {
      sampleRate = rate;
      frameSamples = Math.max(1, Math.round((rate * frameMs) / 1000));
    } else if (rate !== sampleRate) {
      throw new Error(`the sample rate changed from ${sampleRate} Hz to ${rate} Hz`);
    }
    if (channelData.length === 0) continue;
    channelCount = Math.max(channelCount, channelData.length);
    const length = channelData[0].length;
    for (let start = 0; start < length;) {
      const end = Math.min(length, start + frameSamples - filled);
      for (const channel of channelData) {
        const stop = Math.min(end, channel.length);
        for (let i = start; i < stop; i++) {
          const v = channel[i];
          // NaN (a damaged stretch) counts as silence and as no peak.
          if (Number.isNaN(v)) {
            frameValues += 1;
            continue;
          }
          const square = v * v;
          frameSum += square;
          frameValues += 1;
          const magnitude = v < 0 ? -v : v;
          if (magnitude > peak) peak = magnitude;
        }
      }
      filled += end - start;
      start = end;
      if (filled === frameSamples) {
        sumSquares += frameSum;
        values += frameValues;
        closeFrame();
      }
    }
    frames += length;
  }
  if (frames === 0) throw new Error("the decoder found no audio in the file");
  // The last, partial frame: part of the take's end (a run it closes still counts).
  sumSquares += frameSum;
  values += frameValues;
  closeFrame();
  return {
    sampleRate,
    channelCount,
    frames,
    peak,
    sumSquares,
    values,
    frameSamples,
    longestSilentFrames,
    ...complaints,
  };
}

parentPort.postMessage({ type: "ready" });
try {
  parentPort.postMessage({ type: "done", ...(await measure()) });
} catch (error) {
  parentPort.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
