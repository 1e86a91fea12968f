// The worker thread that assembles spoken takes into one recording (decision 035: the translated
// recording is assembled from the segments' takes; ARCHITECTURE "Long recordings and the corpus":
// decoding runs off the request path, chunk by chunk, and nothing holds a whole file or its
// samples). Started by assemble-recording.ts, one per assembly, terminated after; a plain .mjs
// file because worker threads under tsx and vitest cannot load TypeScript.
//
// The parent feeds it the takes one after another (the next only once the last is done). Each is
// decoded with audio-decode (the waveform job's decoder), mixed down to mono, resampled to
// `outputRate` with libsamplerate (SRC_SINC_FASTEST, its state kept across the take's chunks) and
// written as 16-bit little-endian PCM into the open file `fd` as it comes; `gapSamples` of digital
// silence go between consecutive takes. The file starts with a placeholder 44-byte WAV header,
// whose sizes are written at the end.
//
// workerData: { fd, outputRate, gapSamples } — the output file, opened for writing by the parent
// (which closes it once this worker is gone), the output's rate in Hz, the gap in output samples.
//
// Messages in:  { type: 'take', index, format } (a take starts: audio-decode's format name),
//               { type: 'chunk', bytes: Uint8Array } (the next bytes of the take, transferred),
//               { type: 'end' } (the take has no more bytes),
//               { type: 'finish' } (no more takes: write the header).
// Messages out: { type: 'ready' } once the decoder and the resampler are loaded;
//               { type: 'ack' } each time the decoder takes a chunk (the parent sends a new one per ack);
//               { type: 'take-done', index, startSample, samples, sampleRate, channelCount, frames,
//               decoderErrors, lastDecoderError } after a take (`startSample`, `samples`: where it lies
//               in the output and how long, in output samples; `frames`: decoded frames; the
//               complaints are this take's);
//               { type: 'done', samples, bytes } after 'finish' (`samples`: of the whole output);
//               { type: 'failed', message, index } when a take cannot be decoded, or with `index`
//               null when the output cannot be written.
//
// As in decode-worker.mjs, the decoders' console complaints about damaged data are counted, not
// printed, so the parent can tell a damaged take.
import { ftruncateSync, writeSync } from "node:fs";
import { endianness } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import LibSampleRate from "@alexanderolsen/libsamplerate-js";
import decode from "audio-decode";
import { countDecoderComplaints } from "../workers/worker-input.mjs";

const { fd, outputRate, gapSamples } = workerData;

/** A canonical WAV header: RIFF, fmt (PCM), data. */
const HEADER_BYTES = 44;
/** Output bytes per sample: 16-bit mono. */
const SAMPLE_BYTES = 2;
/** The largest data chunk a WAV's 32-bit sizes can describe. */
const MAX_DATA_BYTES = 0xffff_ffff - (HEADER_BYTES - 8);

const complaints = countDecoderComplaints();

// --- Input: the current take's chunks, and the parent's commands ('take', 'finish'). ---

/** @type {Uint8Array[]} the current take's chunks not yet taken by the decoder */
const chunks = [];
/** Whether the current take's last chunk has come. */
let ended = false;
/** @type {{ type: string, index?: number, format?: string }[]} */
const commands = [];
/** @type {(() => void) | null} resolves a wait for the next message */
let wake = null;

parentPort.on("message", (message) => {
  if (message.type === "chunk") {
    chunks.push(message.bytes);
  } else if (message.type === "end") {
    ended = true;
  } else {
    // A take starts only once the last is done, so its chunks are the only ones to come.
    if (message.type === "take") ended = false;
    commands.push(message);
  }
  wake?.();
  wake = null;
});

const nextMessage = () => new Promise((resolve) => (wake = resolve));

/** The current take's bytes as the decoder asks, acknowledging each; ends after its 'end'. */
async function* takeInput() {
  for (;;) {
    const bytes = chunks.shift();
    if (bytes) {
      parentPort.postMessage({ type: "ack" });
      yield bytes;
    } else if (ended) {
      return;
    } else {
      await nextMessage();
    }
  }
}

/** @returns {Promise<{ type: string, index?: number, format?: string }>} the parent's next command */
async function nextCommand() {
  while (commands.length === 0) await nextMessage();
  return commands.shift();
}

// --- Output: 16-bit PCM written at `position`. ---

/** Where the next output byte goes. */
let position = HEADER_BYTES;

/** The output cannot be written (the disk is full, …): not the take's fault. */
class OutputError extends Error {}

/** Writes all of `buffer` at `at`; OutputError when the file system refuses. */
function writeAt(buffer, at) {
  try {
    for (let done = 0; done < buffer.length;) {
      done += writeSync(fd, buffer, done, buffer.length - done, at + done);
    }
  } catch (error) {
    throw new OutputError(`the recording cannot be written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The 16-bit samples being written, reused from chunk to chunk (grown when a chunk needs more). */
let pcm = Buffer.alloc(32 * 1024);
/**
 * The same bytes as 16-bit integers in this machine's byte order: ten times faster than
 * Buffer.writeInt16LE, and little-endian as WAV wants on every machine Node commonly runs on.
 */
let pcmSamples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / SAMPLE_BYTES);
const LITTLE_ENDIAN = endianness() === "LE";

/** Writes `samples` (floats, full scale ±1; clipped; NaN as 0) at `position` and moves past them. */
function writeSamples(samples) {
  if (samples.length === 0) return;
  const bytes = samples.length * SAMPLE_BYTES;
  if (pcm.length < bytes) {
    pcm = Buffer.alloc(bytes);
    pcmSamples = new Int16Array(pcm.buffer, pcm.byteOffset, samples.length);
  }
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i];
    // NaN stays NaN here and is stored as 0.
    const value = Math.round((v > 1 ? 1 : v < -1 ? -1 : v) * 32767);
    if (LITTLE_ENDIAN) pcmSamples[i] = value;
    else pcm.writeInt16LE(Number.isNaN(value) ? 0 : value, i * SAMPLE_BYTES);
  }
  writeAt(pcm.subarray(0, bytes), position);
  position += bytes;
}

/** Digital silence, written in pieces of this many bytes at most. */
const SILENCE = Buffer.alloc(64 * 1024);

/** Writes `samples` of digital silence at `position`. */
function writeSilence(samples) {
  for (let left = samples * SAMPLE_BYTES; left > 0;) {
    const piece = Math.min(left, SILENCE.length);
    writeAt(SILENCE.subarray(0, piece), position);
    position += piece;
    left -= piece;
  }
}

/** The RIFF/WAVE header of `dataBytes` of 16-bit mono PCM at `outputRate`. */
function waveHeader(dataBytes) {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(HEADER_BYTES - 8 + dataBytes, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(outputRate, 24);
  header.writeUInt32LE(outputRate * SAMPLE_BYTES, 28); // bytes a second
  header.writeUInt16LE(SAMPLE_BYTES, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

// --- Resampling ---

/**
 * One libsamplerate converter per input rate, made once (each holds a WebAssembly instance, about
 * 3.5 MB, and takes some 20 ms to make) and reset at each take's start.
 * @type {Map<number, { full(data: Float32Array, out?: Float32Array, length?: { frames: number }): Float32Array, inputSampleRate: number }>}
 */
const resamplers = new Map();

/** A converter from `rate` to `outputRate` with no state left from an earlier take. */
async function resamplerFor(rate) {
  const known = resamplers.get(rate);
  if (known) {
    // Setting the rate makes the converter anew (libsamplerate's src_delete, then src_new).
    known.inputSampleRate = rate;
    return known;
  }
  const made = await LibSampleRate.create(1, rate, outputRate, {
    converterType: LibSampleRate.ConverterType.SRC_SINC_FASTEST,
  });
  resamplers.set(rate, made);
  return made;
}

/** The resampled samples of the chunk in hand, reused from chunk to chunk (grown when a chunk needs more). */
let resampled = new Float32Array(16 * 1024);
const resampledLength = { frames: 0 };

/** `mono` at `outputRate` through `resampler` (the next chunk of its take). */
function resample(resampler, mono) {
  // libsamplerate hands back the input itself when the rates are equal.
  if (resampler.inputSampleRate === outputRate) return mono;
  const needed = Math.ceil((mono.length * outputRate) / resampler.inputSampleRate) + 1;
  if (resampled.length < needed) resampled = new Float32Array(needed);
  const out = resampler.full(mono, resampled, resampledLength);
  // A chunk of over a million samples comes back in an array of its own.
  return out === resampled ? resampled.subarray(0, resampledLength.frames) : out;
}

/** The mono samples of the chunk in hand, reused from chunk to chunk (grown when a chunk needs more). */
let monoBuffer = new Float32Array(16 * 1024);

/** The mean of the chunk's channels (one channel as it is). */
function mixDown(channelData, length) {
  if (channelData.length === 1) return channelData[0].subarray(0, length);
  if (monoBuffer.length < length) monoBuffer = new Float32Array(length);
  const mono = monoBuffer.subarray(0, length);
  mono.fill(0);
  for (const channel of channelData) {
    const stop = Math.min(length, channel.length);
    for (let i = 0; i < stop; i++) mono[i] += channel[i];
  }
  const scale = 1 / channelData.length;
  for (let i = 0; i < length; i++) mono[i] *= scale;
  return mono;
}

/**
 * Decodes the current take and writes it, resampled, at `position`; leaves `position` just past
 * its round(frames × outputRate / rate) output samples. Returns the 'take-done' report.
 */
async function assembleTake(index, format) {
  const errorsBefore = complaints.decoderErrors;
  const startByte = position;
  let sampleRate = 0;
  let channelCount = 0;
  let frames = 0;
  let resampler = null;
  for await (const { channelData, sampleRate: rate } of decode(takeInput(), format)) {
    if (sampleRate === 0) {
      sampleRate = rate;
      resampler = await resamplerFor(rate);
    } else if (rate !== sampleRate) {
      throw new Error(`the sample rate changed from ${sampleRate} Hz to ${rate} Hz`);
    }
    if (channelData.length === 0) continue;
    channelCount = Math.max(channelCount, channelData.length);
    const length = channelData[0].length;
    frames += length;
    writeSamples(resample(resampler, mixDown(channelData, length)));
  }
  if (frames === 0 || resampler === null) throw new Error("the decoder found no audio in the file");
  const samples = Math.round((frames * outputRate) / sampleRate);
  const wanted = startByte + samples * SAMPLE_BYTES;
  // The converter holds back the last few samples (its filter's delay): silence pushes them out.
  const flush = new Float32Array(Math.max(64, Math.ceil(sampleRate / 100)));
  for (let round = 0; position < wanted && round < 100; round++) writeSamples(resample(resampler, flush));
  if (position < wanted) writeSilence((wanted - position) / SAMPLE_BYTES);
  // Whatever came past the take's length is overwritten by the next gap or cut at the end.
  position = wanted;
  return {
    type: "take-done",
    index,
    startSample: (startByte - HEADER_BYTES) / SAMPLE_BYTES,
    samples,
    sampleRate,
    channelCount,
    frames,
    decoderErrors: complaints.decoderErrors - errorsBefore,
    lastDecoderError: complaints.decoderErrors > errorsBefore ? complaints.lastDecoderError : "",
  };
}

/** Writes the header and cuts the file at `position`; returns the 'done' report. */
function finish() {
  const dataBytes = position - HEADER_BYTES;
  if (dataBytes > MAX_DATA_BYTES) throw new Error(`the recording is too long for a WAV file (${dataBytes} bytes)`);
  try {
    ftruncateSync(fd, position);
  } catch (error) {
    throw new OutputError(`the recording cannot be written: ${error instanceof Error ? error.message : String(error)}`);
  }
  writeAt(waveHeader(dataBytes), 0);
  return { type: "done", samples: dataBytes / SAMPLE_BYTES, bytes: position };
}

// A placeholder header, and the converter of the commonest rates loaded before the first take.
writeAt(Buffer.alloc(HEADER_BYTES), 0);
await resamplerFor(22_050);
parentPort.postMessage({ type: "ready" });

let taken = 0;
for (;;) {
  const command = await nextCommand();
  if (command.type === "finish") {
    try {
      parentPort.postMessage(finish());
    } catch (error) {
      parentPort.postMessage({
        type: "failed",
        message: error instanceof Error ? error.message : String(error),
        index: null,
      });
    }
    break;
  }
  try {
    if (taken > 0) writeSilence(gapSamples);
    taken += 1;
    parentPort.postMessage(await assembleTake(command.index, command.format));
  } catch (error) {
    parentPort.postMessage({
      type: "failed",
      message: error instanceof Error ? error.message : String(error),
      index: error instanceof OutputError ? null : command.index,
    });
    break;
  }
}
