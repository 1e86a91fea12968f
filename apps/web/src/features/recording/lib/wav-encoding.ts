/**
 * 16-bit PCM WAV pieces for takes recorded in the browser (SPEC §2.13, decision 018): the sample
 * conversion and the 44-byte header put in front of the PCM parts written while recording. Pure
 * functions, no Web Audio here (the AudioWorklet imports them too): the server accepts WAV
 * (packages/api/src/uploads/file-rules.ts sniffs "RIFF....WAVE").
 */

/** Bytes of the canonical RIFF/WAVE header written by wavHeader (RIFF, fmt and data chunk heads). */
const WAV_HEADER_BYTES = 44;
/** Bytes of one mono 16-bit sample. */
export const BYTES_PER_SAMPLE = 2;

/**
 * One sample in -1..1 as a signed 16-bit integer: clipped when outside, 0 when not a number,
 * rounded to the nearest step (-32768..32767).
 */
export function toInt16(sample: number): number {
  const s = Number.isNaN(sample) ? 0 : Math.max(-1, Math.min(1, sample));
  return s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
}

/**
 * The 44-byte header of a mono 16-bit little-endian PCM WAV file holding `sampleCount` samples
 * at `sampleRate` Hz (a positive integer, e.g. 22050); the file is this header followed by the
 * samples' 2 bytes each. Throws a RangeError for a bad sample rate or count, or audio too long
 * for a WAV file's 32-bit sizes (about 27 hours at 22.05 kHz).
 */
export function wavHeader(sampleCount: number, sampleRate: number): ArrayBuffer {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`The sample rate must be a positive integer, not ${sampleRate}.`);
  }
  if (!Number.isInteger(sampleCount) || sampleCount < 0) {
    throw new RangeError(`The sample count must be a whole number, not ${sampleCount}.`);
  }
  const dataBytes = sampleCount * BYTES_PER_SAMPLE;
  if (WAV_HEADER_BYTES - 8 + dataBytes > 0xffffffff) throw new RangeError("The audio is too long for a WAV file.");
  const buffer = new ArrayBuffer(WAV_HEADER_BYTES);
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
  view.setUint32(28, sampleRate * BYTES_PER_SAMPLE, true); // bytes per second
  view.setUint16(32, BYTES_PER_SAMPLE, true); // block align
  view.setUint16(34, 8 * BYTES_PER_SAMPLE, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  return buffer;
}
