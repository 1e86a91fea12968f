import { describe, expect, it } from "vitest";
import { groupStatistics } from "../src/measures/group-statistics";
import { speakerMeasures, type SpeakerSpan, type SpeechStretch } from "../src/measures/speech-measures";

/** A 60 s recording: INV asks (0–4 s), PAR answers (5–20 s), INV again (21–25 s), PAR answers from 24.6 s (an overlap) to 40 s. */
const spans: SpeakerSpan[] = [
  { speaker: "INV", startMs: 0, endMs: 4_000 },
  { speaker: "PAR", startMs: 5_000, endMs: 20_000 },
  { speaker: "INV", startMs: 21_000, endMs: 25_000 },
  { speaker: "PAR", startMs: 24_600, endMs: 40_000 },
];
/** Speech: INV 0.2–3.8; PAR 5.3–9.0, 9.2–12.0 (200 ms gap: no pause), 12.5–19.0 (500 ms pause); INV 21–25; PAR 25.0–30.0, 31.0–39.5 (1 s pause). */
const stretches: SpeechStretch[] = [
  { startMs: 200, endMs: 3_800 },
  { startMs: 5_300, endMs: 9_000 },
  { startMs: 9_200, endMs: 12_000 },
  { startMs: 12_500, endMs: 19_000 },
  { startMs: 21_000, endMs: 25_000 },
  { startMs: 25_000, endMs: 30_000 },
  { startMs: 31_000, endMs: 39_500 },
];

describe("speech measures (decision 035)", () => {
  it("measures each speaker from the segments and the detector's stretches, by hand", () => {
    const [par, inv] = speakerMeasures(spans, stretches, 60_000, true);
    // PAR: 15,000 + 15,400 = 30,400 ms of segments, half a minute of a one-minute recording.
    expect(par).toMatchObject({ speaker: "PAR", segmentCount: 2, speakingMs: 30_400, segmentsPerMinute: 2 });
    expect(par!.speakingRatio).toBeCloseTo(30_400 / 60_000, 12);
    // Phonation inside PAR's segments: 3,700 + 2,800 + 6,500 in the first; in the second (24.6–40 s)
    // the INV stretch clipped to 24.6–25.0 (400) + 5,000 + 8,500: 26,900 ms.
    expect(par!.phonationMs).toBe(3_700 + 2_800 + 6_500 + 400 + 5_000 + 8_500);
    // Pauses ≥ 250 ms between stretches inside PAR's segments: 500 (12.0–12.5) and 1,000 (30–31);
    // 200 ms (9.0–9.2) is not one, and 25.0 touching 25.0 is no gap.
    expect(par).toMatchObject({ pauseCount: 2, meanPauseMs: 750 });
    // INV → PAR switches: 4,000 → 5,000 (+1,000) and 25,000 → 24,600 (an overlap: −400); mean 300.
    expect(par).toMatchObject({ responseLatencyMs: 300, responseCount: 2 });

    expect(inv).toMatchObject({ speaker: "INV", segmentCount: 2, speakingMs: 8_000, segmentsPerMinute: 2 });
    // INV's second segment (21–25 s) holds the INV stretch whole; PAR's stretch from 25 s is outside it.
    expect(inv).toMatchObject({ phonationMs: 3_600 + 4_000, pauseCount: 0, meanPauseMs: null });
    expect(inv).toMatchObject({ responseLatencyMs: null, responseCount: 0 });
  });

  it("leaves unknown what it cannot know: no stretches, no duration, ends that are not the segments' own", () => {
    const [par] = speakerMeasures(spans, null, null, false);
    expect(par).toMatchObject({
      speakingMs: 30_400,
      speakingRatio: null,
      segmentsPerMinute: null,
      phonationMs: null,
      pauseCount: null,
      meanPauseMs: null,
      responseLatencyMs: null,
      responseCount: 0,
    });
  });

  it("measures only the speakers who have a segment, and refuses a span that ends before it starts", () => {
    expect(
      speakerMeasures([{ speaker: "INV", startMs: 0, endMs: 1_000 }], [], 2_000, true).map((m) => m.speaker),
    ).toEqual(["INV"]);
    expect(speakerMeasures([], [], 2_000, true)).toEqual([]);
    expect(() => speakerMeasures([{ speaker: "PAR", startMs: 500, endMs: 500 }], [], null, true)).toThrow(
      /must end after it starts/,
    );
  });

  it("counts a 250 ms gap as a pause and a 249 ms one not", () => {
    const one = speakerMeasures(
      [{ speaker: "PAR", startMs: 0, endMs: 10_000 }],
      [
        { startMs: 0, endMs: 1_000 },
        { startMs: 1_250, endMs: 2_000 },
        { startMs: 2_249, endMs: 3_000 },
      ],
      10_000,
      true,
    )[0];
    expect(one).toMatchObject({ pauseCount: 1, meanPauseMs: 250, phonationMs: 1_000 + 750 + 751 });
  });
});

describe("group statistics (decision 035)", () => {
  it("gives n, mean, sample SD and type-7 quartiles, by hand", () => {
    // 1, 2, 4, 7: mean 3.5; squares of deviations 6.25 + 2.25 + 0.25 + 12.25 = 21, / 3 = 7.
    // Quartile positions 0.75, 1.5, 2.25 of 0..3: 1.75, 3, 4.75.
    const stats = groupStatistics([7, 1, 4, 2]);
    expect(stats).toMatchObject({ n: 4, mean: 3.5, median: 3, q1: 1.75, q3: 4.75 });
    expect(stats.sd).toBeCloseTo(Math.sqrt(7), 12);
  });

  it("has no SD for one value and nothing for none; leaves out NaN", () => {
    expect(groupStatistics([5])).toEqual({ n: 1, mean: 5, sd: null, median: 5, q1: 5, q3: 5 });
    expect(groupStatistics([])).toEqual({ n: 0, mean: null, sd: null, median: null, q1: null, q3: null });
    expect(groupStatistics([Number.NaN, 2]).n).toBe(1);
  });
});
