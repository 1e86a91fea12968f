import { describe, expect, it } from "vitest";
import { PcmChunker, type PcmChunk } from "./pcm-chunker";

/** A chunker at equal rates (no resampling to blur the samples) with the chunks it gave. */
function chunker(rate: number, chunkSamples?: number): { chunker: PcmChunker; chunks: PcmChunk[] } {
  const chunks: PcmChunk[] = [];
  return { chunker: new PcmChunker(rate, rate, (chunk) => chunks.push(chunk), chunkSamples), chunks };
}

const all = (chunks: PcmChunk[], part: "pcm" | "min" | "max") => chunks.flatMap((c) => Array.from(c[part]));

describe("PcmChunker (SPEC §2.13: 16-bit PCM chunks of about a second, with the waveform's peaks)", () => {
  it("refuses a chunk size that is not a positive whole number", () => {
    expect(() => new PcmChunker(48_000, 22_050, () => undefined, 0)).toThrow(
      "A chunk must hold a positive whole number of samples, not 0.",
    );
    expect(() => new PcmChunker(48_000, 22_050, () => undefined, 1.5)).toThrow(RangeError);
  });

  it("gives a chunk per second of output by default, and the rest on flush", () => {
    const { chunker: c, chunks } = chunker(1000);
    for (let i = 0; i < 25; i += 1) c.write(new Float32Array(100).fill(0.25));
    expect(chunks.map((chunk) => chunk.pcm.length)).toEqual([1000, 1000]);
    c.flush();
    expect(chunks.map((chunk) => chunk.pcm.length)).toEqual([1000, 1000, 500]);
  });

  it("writes the samples as 16-bit PCM, clipped, in order", () => {
    const { chunker: c, chunks } = chunker(1000, 4);
    c.write(Float32Array.from([0, 0.5, -0.5, 1, -1, 2]));
    c.flush();
    expect(all(chunks, "pcm")).toEqual([0, 16384, -16384, 32767, -32768, 32767]);
    expect(chunks.map((chunk) => chunk.pcm.length)).toEqual([4, 2]);
  });

  it("closes a peak bin every hundredth of a second, with its lowest and highest sample", () => {
    const { chunker: c, chunks } = chunker(1000);
    // Bin k (10 samples) rises from -k/100 to k/100.
    const samples = Float32Array.from({ length: 50 }, (_, i) => {
      const k = Math.floor(i / 10);
      return i % 10 === 0 ? -k / 100 : i % 10 === 9 ? k / 100 : 0;
    });
    c.write(samples);
    c.flush();
    const hundredths = (values: number[]) => values.map((v) => expect.closeTo(v / 100, 6));
    expect(all(chunks, "min")).toEqual(hundredths([0, -1, -2, -3, -4]));
    expect(all(chunks, "max")).toEqual(hundredths([0, 1, 2, 3, 4]));
  });

  it("has ceil(seconds × 100) bins, the last one short, across chunks", () => {
    const { chunker: c, chunks } = chunker(22_050, 22_050);
    c.write(new Float32Array(22_050 * 2 + 1234).fill(0.1));
    c.flush();
    const seconds = (22_050 * 2 + 1234) / 22_050;
    expect(all(chunks, "min").length).toBe(Math.ceil(seconds * 100));
    expect(all(chunks, "max").every((v) => Math.abs(v - 0.1) < 1e-6)).toBe(true);
    // A full chunk carries the bins that closed in it: a second's 100, less the one still open.
    expect(chunks[0]!.min.length).toBe(99);
  });

  it("keeps peaks within -1..1 even when the input clips", () => {
    const { chunker: c, chunks } = chunker(1000);
    c.write(Float32Array.from([3, -3, 0.5]));
    c.flush();
    expect([all(chunks, "min")[0], all(chunks, "max")[0]]).toEqual([-1, 1]);
  });

  it("resamples to the output rate: a second at 48 kHz is a second at 22,050 Hz", () => {
    const chunks: PcmChunk[] = [];
    const c = new PcmChunker(48_000, 22_050, (chunk) => chunks.push(chunk));
    for (let i = 0; i < 48_000; i += 128) c.write(new Float32Array(Math.min(128, 48_000 - i)));
    c.flush();
    expect(all(chunks, "pcm").length).toBe(22_050);
    expect(all(chunks, "min").length).toBe(100);
  });

  it("gives nothing when nothing was written", () => {
    const { chunker: c, chunks } = chunker(1000);
    c.flush();
    expect(chunks).toEqual([]);
  });
});
