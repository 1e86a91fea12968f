/**
 * What the capture AudioWorklet makes of the microphone (SPEC §2.13, decision 018): mono samples at
 * the device's rate in, 16-bit PCM at the take's rate out in chunks of about a second, each with
 * the min/max peaks of its audio at PEAKS_PER_SECOND pairs a second for the take's waveform. Pure
 * code; it holds at most one chunk, never the take.
 */
import { StreamResampler } from "./pcm-resampler";
import { toInt16 } from "./wav-encoding";

/** The name the capture AudioWorklet (lib/pcm-capture-worklet.ts) registers its processor under. */
export const PCM_CAPTURE_PROCESSOR = "pcm-capture";

/** Min/max pairs of a take's waveform per second of audio (about 800 bytes a second in Float32). */
export const PEAKS_PER_SECOND = 100;

/** A piece of a take: its 16-bit PCM samples and the peaks of the bins that closed in it. */
export interface PcmChunk {
  /** Mono 16-bit samples at the chunker's output rate. */
  pcm: Int16Array;
  /** The lowest sample (-1..1) of each closed peak bin, in order. */
  min: Float32Array;
  /** The highest sample (-1..1) of each closed peak bin, in order. */
  max: Float32Array;
}

/**
 * Turns mono samples (-1..1) at `inputRate` Hz into PcmChunks at `outputRate` Hz (positive
 * integers), `chunkSamples` output samples each (default: one second), given to `onChunk` as they
 * fill. Peak bin k covers output samples floor(k × outputRate / 100) up to the next bin's first,
 * so a take of s seconds has ceil(s × 100) bins. `flush` ends the take: the last, shorter chunk
 * and the last bin follow.
 */
export class PcmChunker {
  private readonly resampler: StreamResampler;
  private readonly outputRate: number;
  private readonly chunkSamples: number;
  private readonly onChunk: (chunk: PcmChunk) => void;
  private pcm: Int16Array;
  private filled = 0;
  /** Output samples seen so far. */
  private samples = 0;
  private bin = 0;
  private binEnd: number;
  private binMin = Number.POSITIVE_INFINITY;
  private binMax = Number.NEGATIVE_INFINITY;
  private mins: number[] = [];
  private maxes: number[] = [];

  constructor(inputRate: number, outputRate: number, onChunk: (chunk: PcmChunk) => void, chunkSamples = outputRate) {
    if (!Number.isInteger(chunkSamples) || chunkSamples <= 0) {
      throw new RangeError(`A chunk must hold a positive whole number of samples, not ${chunkSamples}.`);
    }
    this.resampler = new StreamResampler(inputRate, outputRate);
    this.outputRate = outputRate;
    this.chunkSamples = chunkSamples;
    this.onChunk = onChunk;
    this.pcm = new Int16Array(chunkSamples);
    this.binEnd = this.binBoundary(1);
  }

  /** Takes the next mono samples (-1..1) at the input rate; full chunks go to onChunk. */
  write(input: Float32Array): void {
    this.take(this.resampler.push(input));
  }

  /** Ends the take: the rest of the samples, the last bin and the last chunk (if not empty) go to onChunk. */
  flush(): void {
    this.take(this.resampler.flush());
    if (this.binMin <= this.binMax) this.closeBin();
    if (this.filled > 0 || this.mins.length > 0) this.emit();
  }

  private binBoundary(bin: number): number {
    return Math.floor((bin * this.outputRate) / PEAKS_PER_SECOND);
  }

  private closeBin(): void {
    this.mins.push(Math.max(-1, this.binMin));
    this.maxes.push(Math.min(1, this.binMax));
    this.binMin = Number.POSITIVE_INFINITY;
    this.binMax = Number.NEGATIVE_INFINITY;
    this.bin += 1;
    this.binEnd = this.binBoundary(this.bin + 1);
  }

  private take(samples: Float32Array): void {
    for (let i = 0; i < samples.length; i += 1) {
      const sample = samples[i]!;
      if (this.samples >= this.binEnd) this.closeBin();
      if (sample < this.binMin) this.binMin = sample;
      if (sample > this.binMax) this.binMax = sample;
      this.pcm[this.filled] = toInt16(sample);
      this.filled += 1;
      this.samples += 1;
      if (this.filled === this.chunkSamples) this.emit();
    }
  }

  private emit(): void {
    const pcm = this.filled === this.chunkSamples ? this.pcm : this.pcm.slice(0, this.filled);
    this.onChunk({ pcm, min: Float32Array.from(this.mins), max: Float32Array.from(this.maxes) });
    this.pcm = new Int16Array(this.chunkSamples);
    this.filled = 0;
    this.mins = [];
    this.maxes = [];
  }
}
