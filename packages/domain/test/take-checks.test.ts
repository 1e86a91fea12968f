import { describe, expect, it } from "vitest";
import { checkTakes, expectedTakeMs, takesBlockAssembly, type TakeLevels } from "../src/translation/take-checks";

/** A well-recorded take of `ms`. */
const good = (ms: number): TakeLevels => ({ durationMs: ms, peakDbfs: -6, rmsDbfs: -20, longestSilenceMs: 400 });
const SENTENCE = "Mvulana yuko juu ya kiti na anachukua biskuti kwenye mtungi."; // 10 words: 4 s at 150 a minute

const found = (take: TakeLevels | undefined, target = SENTENCE) =>
  checkTakes([{ id: "s1", target }], take ? new Map([["s1", take]]) : new Map()).map((f) => [f.check, f.severity]);

describe("take checks (decision 035)", () => {
  it("expects a translation to take its words at 150 a minute", () => {
    expect(expectedTakeMs(SENTENCE)).toBe(4_000);
  });

  it("passes a well-recorded take of about the translation's reading time", () => {
    expect(found(good(4_200))).toEqual([]);
    expect(found(good(1_700))).toEqual([]);
    expect(found(good(9_900))).toEqual([]);
  });

  it("makes a missing take and a silent one errors that block the assembly", () => {
    expect(found(undefined)).toEqual([["missing", "error"]]);
    expect(found({ ...good(4_000), rmsDbfs: -90, peakDbfs: -70 })).toEqual([["silent", "error"]]);
    expect(takesBlockAssembly(checkTakes([{ id: "s1", target: SENTENCE }], new Map()))).toBe(true);
    // A row with nothing to say needs no take.
    expect(found(undefined, "  ")).toEqual([]);
  });

  it("warns about a take much shorter or longer than its text, long silence, clipping and a low level", () => {
    expect(found(good(1_500))).toEqual([["too-short", "warning"]]);
    expect(found(good(10_100))).toEqual([["too-long", "warning"]]);
    expect(found({ ...good(4_000), longestSilenceMs: 3_200 })).toEqual([["long-silence", "warning"]]);
    expect(found({ ...good(4_000), peakDbfs: -0.1 })).toEqual([["clipped", "warning"]]);
    expect(found({ ...good(4_000), rmsDbfs: -45 })).toEqual([["quiet", "warning"]]);
    expect(takesBlockAssembly(checkTakes([{ id: "s1", target: SENTENCE }], new Map([["s1", good(1_000)]])))).toBe(
      false,
    );
  });

  it("does not judge the duration of a very short translation", () => {
    expect(found(good(300), "Ndiyo.")).toEqual([]);
  });
});
