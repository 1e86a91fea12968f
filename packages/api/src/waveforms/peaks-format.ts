/**
 * The peaks file format (ARCHITECTURE "Long recordings and the corpus"): BBC audiowaveform's
 * binary `.dat`, version 1, 8-bit, as the `waveform-data` package reads it in the browser.
 *
 * Little-endian header of 20 bytes: int32 version (1), uint32 flags (1: 8-bit values), int32 sample
 * rate of the decoded audio (Hz), int32 samples per pixel, uint32 length (number of pixels); then
 * `length` pairs of int8 (min, max), one pair per pixel, every channel merged into one.
 */

/** The format version written (audiowaveform's version 1: one channel of pairs). */
const PEAKS_VERSION = 1;
/** Header flags: bit 0 set means 8-bit values. */
const PEAKS_FLAGS_8_BIT = 1;
/** Bytes before the first pair in a version 1 file. */
const PEAKS_HEADER_BYTES = 20;
/** About how many (min, max) pairs the server writes per second of audio. */
export const PEAKS_PER_SECOND = 100;

/**
 * The samples per pixel for audio at `sampleRate` Hz: round(sampleRate / 100), so about 100 pairs
 * a second (at least 1). Throws RangeError for a sample rate that is not a positive finite number.
 */
export function samplesPerPixelFor(sampleRate: number): number {
  if (!Number.isFinite(sampleRate) || sampleRate <= 0) throw new RangeError(`Invalid sample rate: ${sampleRate}`);
  return Math.max(1, Math.round(sampleRate / PEAKS_PER_SECOND));
}

/**
 * One sample (a float, nominally -1 to 1) as an 8-bit peak value: round(sample × 127), clamped to
 * [-128, 127]. NaN counts as 0.
 */
export function peakValue(sample: number): number {
  if (Number.isNaN(sample)) return 0;
  return Math.min(127, Math.max(-128, Math.round(sample * 127)));
}

/**
 * The storage key of a file's peaks: `${fileKey}.peaks.dat`, beside the file (so
 * `audios/2f1c….wav` has `audios/2f1c….wav.peaks.dat`).
 */
export function peaksKeyOf(fileKey: string): string {
  return `${fileKey}.peaks.dat`;
}

/**
 * The bytes of a peaks file: the version 1 header for audio at `sampleRate` Hz with
 * `samplesPerPixel`, then `pairs` (interleaved min, max int8 values, one pair per pixel; the
 * length written is pairs.length / 2). Throws RangeError for an odd number of values or a header
 * field out of range.
 */
export function encodePeaks(opts: { sampleRate: number; samplesPerPixel: number; pairs: Int8Array }): Buffer {
  const { sampleRate, samplesPerPixel, pairs } = opts;
  if (pairs.length % 2 !== 0) throw new RangeError("Peaks need (min, max) pairs: an even number of values");
  for (const [name, value] of [
    ["sample rate", sampleRate],
    ["samples per pixel", samplesPerPixel],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > 0x7fffffff) throw new RangeError(`Invalid ${name}: ${value}`);
  }
  const out = Buffer.alloc(PEAKS_HEADER_BYTES + pairs.length);
  out.writeInt32LE(PEAKS_VERSION, 0);
  out.writeUInt32LE(PEAKS_FLAGS_8_BIT, 4);
  out.writeInt32LE(sampleRate, 8);
  out.writeInt32LE(samplesPerPixel, 12);
  out.writeUInt32LE(pairs.length / 2, 16);
  out.set(new Uint8Array(pairs.buffer, pairs.byteOffset, pairs.length), PEAKS_HEADER_BYTES);
  return out;
}
