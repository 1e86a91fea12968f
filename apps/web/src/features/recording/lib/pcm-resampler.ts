/**
 * A streaming sample-rate converter for takes recorded in the browser (SPEC §2.13, decision 018):
 * the microphone runs at the device's rate (often 48 kHz), the take is written at TAKE_SAMPLE_RATE.
 * Pure code on Float32 samples, run inside the capture AudioWorklet on blocks of 128 frames; it
 * holds a few dozen samples of history, never the take.
 *
 * Band-limited interpolation: each output sample is a Blackman-windowed sinc of the input around
 * its position, low-passed below the lower of the two Nyquist frequencies so that downsampling
 * does not alias. The kernel is tabulated once per fractional position (exactly when the rates'
 * ratio needs at most MAX_PHASES positions, the nearest of MAX_PHASES otherwise).
 */

/** Zero crossings of the sinc on each side of an output sample, at the lower of the two rates. */
const ZERO_CROSSINGS = 12;
/** The low-pass cut-off as a share of the lower Nyquist frequency (the rest is transition band). */
const PASSBAND = 0.92;
/** Most fractional positions tabulated (each one a kernel of 2 × half-width taps). */
const MAX_PHASES = 1024;

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** The windowed sinc at `x` input samples from the output position: cut-off `fc` (share of Nyquist), `half` taps a side. */
function kernel(x: number, fc: number, half: number): number {
  if (Math.abs(x) >= half) return 0;
  const window = 0.42 + 0.5 * Math.cos((Math.PI * x) / half) + 0.08 * Math.cos((2 * Math.PI * x) / half);
  const y = fc * x;
  const sinc = y === 0 ? 1 : Math.sin(Math.PI * y) / (Math.PI * y);
  return fc * sinc * window;
}

/**
 * Converts a stream of mono samples from `inputRate` to `outputRate` Hz (positive integers), block
 * by block: `push` returns the output samples the input so far allows, `flush` the rest once the
 * input has ended. In all, `round(inputSamples × outputRate / inputRate)` samples come out, the
 * first aligned with the first input sample. Equal rates pass samples through unchanged.
 */
export class StreamResampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /** Taps on each side of an output position, in input samples. */
  private readonly half: number;
  private readonly taps: number;
  private readonly phases: number;
  /** Whether `phases` covers every fractional position exactly (the rates' reduced ratio). */
  private readonly exact: boolean;
  private readonly phaseUnit: number;
  /** `phases` kernels of `taps` weights each, each summing to 1. */
  private readonly table: Float32Array;
  /** Input samples still needed; history[0] is input sample number `historyStart` (negative: zeros before the start). */
  private history: Float32Array;
  private historyStart: number;
  private historyLength = 0;
  private output = new Float32Array(0);
  /** Output samples given so far. */
  private produced = 0;
  /** Input samples received so far. */
  private received = 0;
  private flushed = false;

  constructor(inputRate: number, outputRate: number) {
    for (const rate of [inputRate, outputRate]) {
      if (!Number.isInteger(rate) || rate <= 0)
        throw new RangeError(`A sample rate must be a positive integer, not ${rate}.`);
    }
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    const fc = inputRate === outputRate ? 1 : PASSBAND * Math.min(1, outputRate / inputRate);
    this.half = Math.ceil(ZERO_CROSSINGS / fc);
    this.taps = 2 * this.half;
    const divisor = gcd(inputRate, outputRate);
    const reduced = outputRate / divisor;
    this.exact = reduced <= MAX_PHASES;
    this.phases = this.exact ? reduced : MAX_PHASES;
    this.phaseUnit = divisor;
    this.table = new Float32Array(this.phases * this.taps);
    for (let p = 0; p < this.phases; p += 1) {
      const fraction = p / this.phases;
      let sum = 0;
      for (let t = 0; t < this.taps; t += 1) {
        const weight = kernel(t - this.half + 1 - fraction, fc, this.half);
        this.table[p * this.taps + t] = weight;
        sum += weight;
      }
      for (let t = 0; t < this.taps; t += 1) this.table[p * this.taps + t]! /= sum;
    }
    // Zeros stand for the input before its first sample.
    this.history = new Float32Array(4 * this.taps);
    this.historyStart = -(this.half - 1);
    this.historyLength = this.half - 1;
  }

  /**
   * Adds input samples (-1..1) and returns the output samples now complete. The returned array
   * is reused by the next call: copy what must be kept. Throws once flushed.
   */
  push(input: Float32Array): Float32Array {
    if (this.flushed) throw new Error("The resampler was already flushed.");
    this.append(input);
    this.received += input.length;
    return this.drain(Number.POSITIVE_INFINITY);
  }

  /** Ends the input and returns the last output samples (the array is reused as by push). */
  flush(): Float32Array {
    if (this.flushed) return this.output.subarray(0, 0);
    this.flushed = true;
    this.append(new Float32Array(this.half));
    const total = Math.round((this.received * this.outputRate) / this.inputRate);
    return this.drain(total);
  }

  private append(input: Float32Array): void {
    const needed = this.historyLength + input.length;
    if (needed > this.history.length) {
      const grown = new Float32Array(Math.max(needed, 2 * this.history.length));
      grown.set(this.history.subarray(0, this.historyLength));
      this.history = grown;
    }
    this.history.set(input, this.historyLength);
    this.historyLength = needed;
  }

  /** Computes output samples while their input is there, up to `limit` in all; drops the input no longer needed. */
  private drain(limit: number): Float32Array {
    const available = this.historyStart + this.historyLength; // first input index not yet received
    let count = 0;
    for (;;) {
      if (this.produced >= limit) break;
      const position = this.produced * this.inputRate;
      let base = Math.floor(position / this.outputRate);
      const remainder = position - base * this.outputRate;
      let phase: number;
      if (this.exact) {
        phase = remainder / this.phaseUnit;
      } else {
        phase = Math.round((remainder * this.phases) / this.outputRate);
        if (phase === this.phases) {
          base += 1;
          phase = 0;
        }
      }
      if (base + this.half > available - 1) break;
      const offset = base - this.half + 1 - this.historyStart;
      const row = phase * this.taps;
      let sum = 0;
      for (let t = 0; t < this.taps; t += 1) sum += this.history[offset + t]! * this.table[row + t]!;
      if (count === this.output.length) {
        const grown = new Float32Array(2 * this.output.length + 64);
        grown.set(this.output);
        this.output = grown;
      }
      this.output[count] = sum;
      count += 1;
      this.produced += 1;
    }
    // Keep only the input from the first tap of the next output sample on.
    const next = Math.floor((this.produced * this.inputRate) / this.outputRate) - this.half + 1;
    const drop = Math.min(this.historyLength, Math.max(0, next - this.historyStart));
    if (drop > 0) {
      this.history.copyWithin(0, drop, this.historyLength);
      this.historyLength -= drop;
      this.historyStart += drop;
    }
    return this.output.subarray(0, count);
  }
}
