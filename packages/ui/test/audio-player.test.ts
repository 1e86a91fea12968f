import { describe, expect, it } from "vitest";
import { nextSpeed } from "../src/audio-player/controls";
import { normalized, playerWaveform, waveformIdentity } from "../src/audio-player/player-waveform";

describe("playerWaveform (what the player draws, from audios.get's and recordings.get's waveform)", () => {
  it("is ready with its peaks URL and duration only when both are there", () => {
    const ready = { status: "ready", peaksUrl: "/files/a.peaks.dat?sig=1", durationSeconds: 3600 } as const;
    expect(playerWaveform(ready)).toEqual(ready);
    expect(playerWaveform({ ...ready, peaksUrl: null })).toEqual({ status: "pending" });
    expect(playerWaveform({ ...ready, durationSeconds: 0 })).toEqual({ status: "pending" });
    expect(playerWaveform({ ...ready, durationSeconds: null })).toEqual({ status: "pending" });
  });

  it("is failed when the server could not decode the file, and pending otherwise", () => {
    expect(playerWaveform({ status: "failed", peaksUrl: null, durationSeconds: null })).toEqual({ status: "failed" });
    expect(playerWaveform({ status: "pending", peaksUrl: null, durationSeconds: null })).toEqual({ status: "pending" });
    expect(playerWaveform(null)).toEqual({ status: "pending" });
    expect(playerWaveform(undefined)).toEqual({ status: "pending" });
  });
});

describe("waveformIdentity (a new waveform draws again, the same one re-signed does not)", () => {
  it("counts a peaks URL without its query", () => {
    const at = (peaksUrl: string) => waveformIdentity({ status: "ready", peaksUrl, durationSeconds: 60 });
    expect(at("/files/a.peaks.dat?exp=1&sig=x")).toBe(at("/files/a.peaks.dat?exp=2&sig=y"));
    expect(at("/files/a.peaks.dat")).not.toBe(at("/files/b.peaks.dat"));
  });

  it("counts peaks in memory by their array, and a waveform without peaks by its status", () => {
    const peaks = { min: new Float32Array([-0.5]), max: new Float32Array([0.5]) };
    expect(waveformIdentity({ status: "ready", peaks, durationSeconds: 1 })).toBe(peaks.max);
    expect(waveformIdentity({ status: "pending" })).toBe("pending");
    expect(waveformIdentity({ status: "failed" })).toBe("failed");
  });
});

describe("normalized (the channels wavesurfer draws: max on top, min below, the loudest filling the height)", () => {
  it("scales quiet peaks so the loudest reaches 1", () => {
    const [top, bottom] = normalized({ min: new Float32Array([-0.25, -0.1]), max: new Float32Array([0.1, 0.2]) });
    expect(Array.from(top!)).toEqual([0.4, 0.8].map((v) => Math.fround(v)));
    expect(Array.from(bottom!)).toEqual([-1, -0.4].map((v) => Math.fround(v)));
  });

  it("leaves silence and full-scale peaks as they are", () => {
    const silent = { min: new Float32Array(3), max: new Float32Array(3) };
    expect(normalized(silent)).toEqual([silent.max, silent.min]);
    const loud = { min: new Float32Array([-1]), max: new Float32Array([0.5]) };
    expect(normalized(loud)).toEqual([loud.max, loud.min]);
  });
});

describe("nextSpeed (Ctrl+↑ and Ctrl+↓ among the playback speeds)", () => {
  it("steps one speed faster or slower and stays at the ends", () => {
    expect(nextSpeed(1, 1)).toBe(1.5);
    expect(nextSpeed(1, -1)).toBe(0.75);
    expect(nextSpeed(2, 1)).toBe(2);
    expect(nextSpeed(0.25, -1)).toBe(0.25);
  });

  it("counts a rate not in the list as Normal", () => {
    expect(nextSpeed(1.1, 1)).toBe(1.5);
    expect(nextSpeed(1.1, -1)).toBe(0.75);
  });
});
