import { describe, expect, it } from "vitest";
import type { PcmChunk } from "./pcm-chunker";
import { TAKE_SAMPLE_RATE, TakeWriter } from "./take-writer";

/** A chunk of `samples` 16-bit values and `peaks` min/max pairs (min -k/1000, max k/1000 for the k-th). */
function chunk(samples: number[], peaks: number[] = []): PcmChunk {
  return {
    pcm: Int16Array.from(samples),
    min: Float32Array.from(peaks, (k) => -k / 1000),
    max: Float32Array.from(peaks, (k) => k / 1000),
  };
}

describe("TakeWriter (SPEC §2.13: a take written as it comes, then one WAV file)", () => {
  it("counts seconds and bytes as chunks arrive", () => {
    const writer = new TakeWriter(10);
    expect(writer.sampleRate).toBe(10);
    expect([writer.seconds, writer.bytes]).toEqual([0, 0]);
    writer.append(chunk([1, 2, 3, 4, 5]));
    writer.append(chunk([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]));
    expect([writer.seconds, writer.bytes]).toEqual([1.5, 30]);
  });

  it("writes at TAKE_SAMPLE_RATE (22,050 Hz) unless told otherwise", () => {
    expect(TAKE_SAMPLE_RATE).toBe(22_050);
    expect(new TakeWriter().sampleRate).toBe(22_050);
  });

  it("makes a WAV file of the header and every sample in order, with its duration", async () => {
    const writer = new TakeWriter(8000);
    writer.append(chunk([1, -2, 300]));
    writer.append(chunk([]));
    writer.append(chunk([-32768, 32767]));
    const take = writer.finish("lake_take.wav");
    expect(take.file.name).toBe("lake_take.wav");
    expect(take.file.type).toBe("audio/wav");
    expect(take.file.size).toBe(44 + 5 * 2);
    expect(take.durationSeconds).toBe(5 / 8000);
    const bytes = await take.file.arrayBuffer();
    const view = new DataView(bytes);
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint32(40, true)).toBe(10);
    expect(Array.from(new Int16Array(bytes.slice(44)))).toEqual([1, -2, 300, -32768, 32767]);
  });

  it("keeps every peak pair in order, past the first minute's room", () => {
    const writer = new TakeWriter(100);
    const perChunk = Array.from({ length: 100 }, (_, k) => k + 1);
    for (let second = 0; second < 130; second += 1) writer.append(chunk(new Array<number>(100).fill(0), perChunk));
    const { peaks } = writer.finish("long.wav");
    expect(peaks.min.length).toBe(13_000);
    expect(peaks.max.length).toBe(13_000);
    expect(peaks.max[0]).toBeCloseTo(0.001);
    expect(peaks.max[99]).toBeCloseTo(0.1);
    expect(peaks.max[12_999]).toBeCloseTo(0.1);
    expect(peaks.min[6_000]).toBeCloseTo(-0.001);
  });

  it("refuses to make a file when nothing was recorded", () => {
    const writer = new TakeWriter();
    writer.append(chunk([], [1]));
    expect(() => writer.finish("empty.wav")).toThrow("Nothing was recorded.");
  });
});
