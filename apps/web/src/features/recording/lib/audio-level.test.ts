import { describe, expect, it } from "vitest";
import { audioLevel, formatElapsed } from "./audio-level";

describe("audioLevel (the recorder's level meter: -60..0 dBFS onto 0..1)", () => {
  it("is 0 for silence or no samples, 1 at full scale", () => {
    expect(audioLevel(new Float32Array(0))).toBe(0);
    expect(audioLevel(new Float32Array(128))).toBe(0);
    expect(audioLevel(new Float32Array(128).fill(1))).toBe(1);
    expect(audioLevel(new Float32Array(128).fill(-1))).toBe(1);
  });

  it("moves linearly in decibels: -20 dBFS reads two thirds, -60 and below 0", () => {
    expect(audioLevel(new Float32Array(128).fill(0.1))).toBeCloseTo(2 / 3);
    expect(audioLevel(new Float32Array(128).fill(0.001))).toBeCloseTo(0);
    expect(audioLevel(new Float32Array(128).fill(0.0001))).toBe(0);
  });
});

describe("formatElapsed (the recorder's timer, mm:ss)", () => {
  it("counts whole seconds in minutes and seconds, past 99 minutes too", () => {
    expect(formatElapsed(0)).toBe("00:00");
    expect(formatElapsed(3_999)).toBe("00:03");
    expect(formatElapsed(61_000)).toBe("01:01");
    expect(formatElapsed((125 * 60 + 7) * 1000)).toBe("125:07");
    expect(formatElapsed(-1_000)).toBe("00:00");
  });
});
