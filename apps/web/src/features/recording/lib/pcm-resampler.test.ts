import { describe, expect, it } from "vitest";
import { StreamResampler } from "./pcm-resampler";

/** `seconds` of a sine of `hz` at `rate`, amplitude `amplitude`. */
function sine(hz: number, rate: number, seconds: number, amplitude = 0.5): Float32Array {
  return Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate),
  );
}

/** Everything `input` becomes, pushed in blocks of `block` samples (the worklet's 128 frames) and flushed. */
function resample(input: Float32Array, from: number, to: number, block = 128): Float32Array {
  const resampler = new StreamResampler(from, to);
  const out: number[] = [];
  for (let i = 0; i < input.length; i += block) out.push(...resampler.push(input.subarray(i, i + block)));
  out.push(...resampler.flush());
  return Float32Array.from(out);
}

function rms(samples: Float32Array): number {
  return Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
}

/** The middle of `samples`, away from the edges where the filter sees the zeros around the take. */
const middle = (samples: Float32Array) =>
  samples.subarray(Math.floor(samples.length / 4), Math.floor((3 * samples.length) / 4));

describe("StreamResampler (SPEC §2.13: the microphone's rate to the take's)", () => {
  it("refuses a rate that is not a positive integer", () => {
    expect(() => new StreamResampler(0, 22_050)).toThrow("A sample rate must be a positive integer, not 0.");
    expect(() => new StreamResampler(48_000, 22_050.5)).toThrow(RangeError);
    expect(() => new StreamResampler(-8000, 8000)).toThrow(RangeError);
  });

  it("passes samples through unchanged at equal rates", () => {
    const input = sine(440, 8000, 0.25);
    const output = resample(input, 8000, 8000);
    expect(output.length).toBe(input.length);
    for (let i = 0; i < input.length; i += 1) expect(output[i]).toBeCloseTo(input[i]!, 5);
  });

  it("gives round(input × outputRate / inputRate) samples in all, whatever the blocks", () => {
    for (const [from, to, length] of [
      [48_000, 22_050, 48_000],
      [44_100, 22_050, 1001],
      [16_000, 22_050, 333],
      [48_000, 22_050, 1],
      [96_000, 22_050, 12_345],
    ] as const) {
      const input = sine(300, from, length / from);
      expect(resample(input, from, to).length, `${from} → ${to}, ${length}`).toBe(Math.round((length * to) / from));
      expect(resample(input, from, to, 1000).length).toBe(Math.round((length * to) / from));
    }
  });

  it("gives the same samples in blocks of 128 as in one piece", () => {
    const input = sine(440, 48_000, 0.1);
    const whole = resample(input, 48_000, 22_050, input.length);
    const blocks = resample(input, 48_000, 22_050, 128);
    expect(Array.from(blocks)).toEqual(Array.from(whole));
  });

  it("keeps a speech-band tone's level and its frequency", () => {
    const output = resample(sine(440, 48_000, 1), 48_000, 22_050);
    expect(rms(middle(output))).toBeCloseTo(0.5 / Math.SQRT2, 2);
    // Against the same tone written at 22,050 Hz from the start: the same samples, nearly.
    const expected = sine(440, 22_050, 1);
    const mid = middle(output);
    const offset = Math.floor(output.length / 4);
    const worst = mid.reduce((most, s, i) => Math.max(most, Math.abs(s - expected[offset + i]!)), 0);
    expect(worst).toBeLessThan(0.002);
  });

  it("upsamples too (a 16 kHz microphone)", () => {
    const output = resample(sine(440, 16_000, 1), 16_000, 22_050);
    expect(rms(middle(output))).toBeCloseTo(0.5 / Math.SQRT2, 2);
  });

  it("filters out what the take's rate cannot hold instead of folding it down", () => {
    // 15 kHz is above 22,050 Hz's Nyquist frequency (11,025 Hz): it would alias to 7,050 Hz.
    const output = resample(sine(15_000, 48_000, 1), 48_000, 22_050);
    expect(rms(middle(output))).toBeLessThan(0.001);
  });

  it("aligns the first output sample with the first input sample", () => {
    const input = new Float32Array(4800);
    input[0] = 1;
    const output = resample(input, 48_000, 22_050);
    const peak = output.reduce((best, s, i) => (s > output[best]! ? i : best), 0);
    expect(peak).toBe(0);
  });

  it("refuses more input once flushed; a second flush gives nothing", () => {
    const resampler = new StreamResampler(48_000, 22_050);
    resampler.push(sine(440, 48_000, 0.01));
    expect(resampler.flush().length).toBeGreaterThan(0);
    expect(resampler.flush().length).toBe(0);
    expect(() => resampler.push(new Float32Array(128))).toThrow("The resampler was already flushed.");
  });
});
