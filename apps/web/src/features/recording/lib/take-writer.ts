/**
 * Writes a take recorded in the browser as it comes (SPEC §2.13, decision 018): each PcmChunk from
 * the capture worklet becomes a small Blob part (Chromium keeps blob data out of the renderer's
 * heap) and its peaks are appended to the take's waveform; `finish` puts a WAV header in front of
 * the parts. Nothing here ever holds the take's samples in one buffer, so memory stays bounded
 * however long the take.
 */
import { PEAKS_PER_SECOND, type PcmChunk } from "./pcm-chunker";
import { BYTES_PER_SAMPLE, wavHeader } from "./wav-encoding";

/**
 * Sample rate (Hz) of a take's WAV file: enough for speech, and 2.6 MB a minute in mono 16-bit,
 * so an hour stays far below the upload limit (MAX_UPLOAD_BYTES, 512 MB by default).
 */
export const TAKE_SAMPLE_RATE = 22_050;

/** The min/max peaks of a take's waveform, PEAKS_PER_SECOND pairs a second, each -1..1. */
interface TakePeaks {
  min: Float32Array;
  max: Float32Array;
}

/** A recorded take, ready to upload and to play. */
export interface WavTake {
  /** The take as a mono 16-bit PCM WAV file (audio/wav), named as asked. */
  file: File;
  /** Its length in seconds. */
  durationSeconds: number;
  /** Its waveform, drawn by the player without decoding the file. */
  peaks: TakePeaks;
}

/** Peak pairs the waveform grows by when full: a minute's worth (48 KB for min and max together). */
const PEAK_GROWTH = 60 * PEAKS_PER_SECOND;

/**
 * Collects a take's PcmChunks at `sampleRate` Hz (the rate the chunks were written at) and makes
 * its WAV file once the take has ended.
 */
export class TakeWriter {
  readonly sampleRate: number;
  private parts: Blob[] = [];
  private sampleCount = 0;
  private peakCount = 0;
  private min: Float32Array<ArrayBuffer> = new Float32Array(PEAK_GROWTH);
  private max: Float32Array<ArrayBuffer> = new Float32Array(PEAK_GROWTH);

  constructor(sampleRate: number = TAKE_SAMPLE_RATE) {
    this.sampleRate = sampleRate;
  }

  /** Seconds of audio written so far. */
  get seconds(): number {
    return this.sampleCount / this.sampleRate;
  }

  /** Bytes of PCM written so far (the file will be WAV_HEADER_BYTES more). */
  get bytes(): number {
    return this.sampleCount * BYTES_PER_SAMPLE;
  }

  /** Appends the chunk's samples as one Blob part and its peaks to the waveform. */
  append(chunk: PcmChunk): void {
    if (chunk.pcm.length > 0) {
      this.parts.push(new Blob([chunk.pcm as Int16Array<ArrayBuffer>]));
      this.sampleCount += chunk.pcm.length;
    }
    const needed = this.peakCount + chunk.min.length;
    if (needed > this.min.length) {
      const capacity = Math.ceil(needed / PEAK_GROWTH + 1) * PEAK_GROWTH;
      this.min = grow(this.min, capacity, this.peakCount);
      this.max = grow(this.max, capacity, this.peakCount);
    }
    this.min.set(chunk.min, this.peakCount);
    this.max.set(chunk.max, this.peakCount);
    this.peakCount = needed;
  }

  /**
   * The take as a `fileName` WAV File (a 44-byte header, then the parts: no copy of the samples),
   * its length and its peaks. Throws an Error when nothing was recorded.
   */
  finish(fileName: string): WavTake {
    if (this.sampleCount === 0) throw new Error("Nothing was recorded.");
    const file = new File([wavHeader(this.sampleCount, this.sampleRate), ...this.parts], fileName, {
      type: "audio/wav",
    });
    return {
      file,
      durationSeconds: this.seconds,
      peaks: { min: this.min.slice(0, this.peakCount), max: this.max.slice(0, this.peakCount) },
    };
  }
}

/** A copy of the first `length` values of `values` in a new array of `capacity`. */
function grow(values: Float32Array, capacity: number, length: number): Float32Array<ArrayBuffer> {
  const grown = new Float32Array(capacity);
  grown.set(values.subarray(0, length));
  return grown;
}
