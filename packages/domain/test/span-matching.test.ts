import { describe, expect, it } from "vitest";
import { matchSpans, spanProblem, type SegmentSpan } from "../src/translation/span-matching";

/** A row whose translation has `words` words (400 ms each at 150 words a minute). */
const row = (id: string, words: number) => ({ id, target: Array.from({ length: words }, () => "neno").join(" ") });
const stretch = (startMs: number, endMs: number) => ({ startMs, endMs });
const times = (spans: SegmentSpan[]) => spans.map((s) => [s.startMs, s.endMs]);

/** Spans are one per row, in order, whole ms, each ending after it starts, not overlapping, inside [0, ms]. */
function expectWellFormed(spans: SegmentSpan[], ids: string[], recordingMs: number) {
  expect(spans.map((s) => s.segmentId)).toEqual(ids);
  expect(spanProblem(ids, spans, recordingMs)).toBeNull();
}

describe("matching a whole recording to the rows (decision 035)", () => {
  it("gives each row its own stretch when there are as many stretches as rows", () => {
    const rows = [row("a", 5), row("b", 2), row("c", 8)];
    const stretches = [stretch(300, 2_300), stretch(3_800, 4_600), stretch(6_100, 9_300)];
    const spans = matchSpans(rows, stretches, 10_000);
    expect(times(spans)).toEqual([
      [300, 2_300],
      [3_800, 4_600],
      [6_100, 9_300],
    ]);
    expectWellFormed(spans, ["a", "b", "c"], 10_000);
  });

  it("keeps a row's inner pause inside its span and cuts at the long pauses between rows", () => {
    // Row b is read in two parts with a 0.4 s pause; the rows are 1.5 s apart. Its words are
    // fewer than its speech suggests, so the shares alone would pull the cut towards the pause.
    const rows = [row("a", 5), row("b", 3), row("c", 5), row("d", 4), row("e", 5)];
    const stretches = [
      stretch(500, 2_500),
      stretch(4_000, 5_200),
      stretch(5_600, 6_900),
      stretch(8_400, 10_300),
      stretch(11_800, 13_400),
      stretch(14_900, 16_800),
    ];
    const spans = matchSpans(rows, stretches, 17_500);
    expect(times(spans)).toEqual([
      [500, 2_500],
      [4_000, 6_900],
      [8_400, 10_300],
      [11_800, 13_400],
      [14_900, 16_800],
    ]);
    expectWellFormed(spans, ["a", "b", "c", "d", "e"], 17_500);
  });

  it("follows the expected shares where the pauses are all alike", () => {
    // Four stretches of 1 s, 1 s apart; the first row has three times the words of the second.
    const rows = [row("long", 6), row("short", 2)];
    const stretches = [stretch(0, 1_000), stretch(2_000, 3_000), stretch(4_000, 5_000), stretch(6_000, 7_000)];
    expect(times(matchSpans(rows, stretches, 7_000))).toEqual([
      [0, 5_000],
      [6_000, 7_000],
    ]);
    expect(times(matchSpans([row("short", 2), row("long", 6)], stretches, 7_000))).toEqual([
      [0, 1_000],
      [2_000, 7_000],
    ]);
  });

  it("splits the longest stretch in proportion when there are fewer stretches than rows", () => {
    // Three rows, two stretches: the long one holds rows b and c (2 and 6 words: a quarter and three quarters).
    const rows = [row("a", 2), row("b", 2), row("c", 6)];
    const spans = matchSpans(rows, [stretch(0, 800), stretch(1_800, 5_000)], 5_500);
    expect(times(spans)).toEqual([
      [0, 800],
      [1_800, 2_600],
      [2_600, 5_000],
    ]);
    expectWellFormed(spans, ["a", "b", "c"], 5_500);
  });

  it("splits one stretch among every row, and shares the whole recording out when there is no speech", () => {
    const rows = [row("a", 1), row("b", 2), row("c", 1)];
    expect(times(matchSpans(rows, [stretch(1_000, 3_000)], 4_000))).toEqual([
      [1_000, 1_500],
      [1_500, 2_500],
      [2_500, 3_000],
    ]);
    const none = matchSpans(rows, [], 4_000);
    expect(times(none)).toEqual([
      [0, 1_000],
      [1_000, 3_000],
      [3_000, 4_000],
    ]);
    expectWellFormed(none, ["a", "b", "c"], 4_000);
    // More rows than one stretch may be split into: the speech is shared out among them all.
    const many = Array.from({ length: 40 }, (_, i) => row(`m${i}`, 1));
    const shared = matchSpans(many, [stretch(1_000, 41_000)], 42_000);
    expect(shared.map((s) => s.endMs - s.startMs)).toEqual(many.map(() => 1_000));
    expect(shared[0]!.startMs).toBe(1_000);
  });

  it("gives a row with no translation a short share, and answers nothing without rows", () => {
    const rows = [row("a", 4), { id: "empty", target: "  " }, row("c", 4)];
    const spans = matchSpans(rows, [stretch(0, 4_000)], 4_000);
    expect(times(spans)).toEqual([
      [0, 1_778],
      [1_778, 2_222],
      [2_222, 4_000],
    ]);
    expect(matchSpans([], [stretch(0, 1_000)], 1_000)).toEqual([]);
  });

  it("stays within limits and in order for a long recording: 600 rows, 900 stretches", () => {
    const rows = Array.from({ length: 600 }, (_, i) => row(`r${i}`, 3 + (i % 7)));
    // Each row read as one or two stretches (every third row has an inner pause), 1.2 s between rows.
    const stretches: { startMs: number; endMs: number }[] = [];
    const truth: [number, number][] = [];
    let at = 500;
    for (const [i, r] of rows.entries()) {
      const ms = r.target.split(" ").length * 400;
      if (i % 2 === 0) {
        stretches.push(stretch(at, at + ms / 2), stretch(at + ms / 2 + 350, at + ms + 350));
        truth.push([at, at + ms + 350]);
        at += ms + 350 + 1_200;
      } else {
        stretches.push(stretch(at, at + ms));
        truth.push([at, at + ms]);
        at += ms + 1_200;
      }
    }
    const started = performance.now();
    const spans = matchSpans(rows, stretches, at);
    expect(performance.now() - started).toBeLessThan(5_000);
    expectWellFormed(
      spans,
      rows.map((r) => r.id),
      at,
    );
    expect(times(spans)).toEqual(truth);
  });
});

describe("checking confirmed spans (decision 035)", () => {
  const ids = ["a", "b"];
  const ok: SegmentSpan[] = [
    { segmentId: "a", startMs: 0, endMs: 1_000 },
    { segmentId: "b", startMs: 1_000, endMs: 2_000 },
  ];

  it("accepts each row once, in order, inside the recording", () => {
    expect(spanProblem(ids, ok, 2_000)).toBeNull();
    expect(spanProblem(ids, [...ok].reverse(), 2_000)).toBeNull();
  });

  it("names the first problem", () => {
    expect(spanProblem(ids, [ok[0]!], 2_000)).toBe("Segment 2 has no span.");
    expect(spanProblem(ids, [...ok, ok[0]!], 2_000)).toBe("Segment 1 has more than one span.");
    expect(spanProblem(ids, [...ok, { segmentId: "x", startMs: 0, endMs: 1 }], 2_000)).toBe(
      "A span names a segment that is not in this transcript.",
    );
    expect(spanProblem(ids, [ok[0]!, { ...ok[1]!, endMs: 2_001 }], 2_000)).toBe(
      "Segment 2 lies outside the recording.",
    );
    expect(spanProblem(ids, [{ ...ok[0]!, startMs: -1 }, ok[1]!], 2_000)).toBe("Segment 1 lies outside the recording.");
    expect(spanProblem(ids, [ok[0]!, { ...ok[1]!, endMs: 1_000 }], 2_000)).toBe("Segment 2 ends before it starts.");
    expect(spanProblem(ids, [ok[0]!, { ...ok[1]!, startMs: 999 }], 2_000)).toBe(
      "Segment 2 starts before segment 1 ends.",
    );
    expect(spanProblem(ids, [{ ...ok[0]!, endMs: 999.5 }, ok[1]!], 2_000)).toBe(
      "Segment 1: times are whole milliseconds.",
    );
  });
});
