/**
 * 16-bit PCM WAV encoding of audio samples, for takes recorded in the browser (issue 12 Build 3,
 * SPEC §2.13). Pure functions on Float32 samples, no Web Audio here: the server accepts WAV
 * (packages/api/src/uploads/file-rules.ts sniffs "RIFF....WAVE"), and not the WebM/Opus that
 * Chromium's MediaRecorder produces.
 */

/** Bytes of the canonical RIFF/WAVE header written by encodeWav (RIFF, fmt and data chunk heads). */
export const WAV_HEADER_BYTES = 44;

/**
 * Mixes the channels of one piece of audio to mono by averaging them, sample by sample.
 * Takes one Float32Array per channel (all of the same length; extra samples of a longer channel
 * are ignored) and returns a new array; a single channel is returned as it is. Throws a
 * RangeError when there is no channel.
 */
export function mixToMono(channels: readonly Float32Array[]): Float32Array {
  const [first] = channels;
  if (!first) throw new RangeError("mixToMono needs at least one channel.");
  if (channels.length === 1) return first;
  const length = Math.min(...channels.map((c) => c.length));
  const mono = new Float32Array(length);
  for (const channel of channels) {
    for (let i = 0; i < length; i += 1) mono[i]! += channel[i]! / channels.length;
  }
  return mono;
}

/** One sample in -1..1 (clipped when outside, 0 when not a number) as a signed 16-bit integer. */
function toInt16(sample: number): number {
  const s = Number.isNaN(sample) ? 0 : Math.max(-1, Math.min(1, sample));
  return s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
}

/**
 * Encodes mono samples (-1..1, clipped outside) as a 16-bit little-endian PCM WAV file at
 * `sampleRate` Hz (a positive integer, e.g. 22050). Returns the file's bytes: a 44-byte header
 * and 2 bytes per sample. Throws a RangeError for a bad sample rate or audio too long for a WAV
 * file's 32-bit sizes (about 27 hours at 22.05 kHz).
 */
export function encodeWav(samples: Float32Array, sampleRate: number): ArrayBuffer {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`The sample rate must be a positive integer, not ${sampleRate}.`);
  }
  const bytesPerSample = 2;
  const dataBytes = samples.length * bytesPerSample;
  if (WAV_HEADER_BYTES - 8 + dataBytes > 0xffffffff) throw new RangeError("The audio is too long for a WAV file.");
  const buffer = new ArrayBuffer(WAV_HEADER_BYTES + dataBytes);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i += 1) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, "RIFF");
  view.setUint32(4, WAV_HEADER_BYTES - 8 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // channels
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * bytesPerSample, true); // bytes per second
  view.setUint16(32, bytesPerSample, true); // block align
  view.setUint16(34, 8 * bytesPerSample, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i += 1) {
    view.setInt16(WAV_HEADER_BYTES + i * bytesPerSample, toInt16(samples[i]!), true);
  }
  return buffer;
}
