import { describe, expect, it } from "vitest";
import type { TranslationSegment } from "@tafsiri/domain";
import { confirmed, mergedWithNext, nextUntranslated, splitAt, withTarget } from "./grid-edits";

const row = (id: string, over: Partial<TranslationSegment> = {}): TranslationSegment => ({
  id,
  speaker: "PAR",
  startMs: null,
  endMs: null,
  source: "",
  target: "",
  state: "empty",
  ...over,
});

describe("segment grid edits (decision 035)", () => {
  it("typing makes a draft, confirming a translation, and a confirmed row a draft again when edited", () => {
    let rows = [row("a", { source: "Hello." })];
    rows = withTarget(rows, 0, "Habari.");
    expect(rows[0]!.state).toBe("draft");
    rows = confirmed(rows, 0);
    expect(rows[0]!.state).toBe("translated");
    expect(withTarget(rows, 0, "Habari!")[0]!.state).toBe("draft");
    expect(confirmed(withTarget(rows, 0, "  "), 0)[0]!.state).toBe("empty");
  });

  it("splits the source at the caret with the span cut in proportion, keeping the other rows' objects", () => {
    const other = row("z");
    const rows = [
      row("a", { source: "The boy falls. The girl laughs.", startMs: 1000, endMs: 4100, target: "x" }),
      other,
    ];
    const split = splitAt(rows, 0, "source", 14, "b");
    expect(split.map((r) => [r.id, r.source, r.target, r.startMs, r.endMs])).toEqual([
      ["a", "The boy falls.", "x", 1000, 2400],
      ["b", "The girl laughs.", "", 2400, 4100],
      ["z", "", "", null, null],
    ]);
    expect(split[2]).toBe(other);
    expect(splitAt(rows, 0, "source", 0, "b")).toEqual(rows);
  });

  it("splits a translation at the caret; merging joins both texts and spans", () => {
    const rows = [
      row("a", { source: "One.", target: "Moja. Mbili.", startMs: 0, endMs: 1000 }),
      row("b", { source: "Two.", endMs: 2000, startMs: 1000 }),
    ];
    const split = splitAt(rows, 0, "target", 5, "c");
    expect(split.map((r) => [r.source, r.target, r.state])).toEqual([
      ["One.", "Moja.", "draft"],
      ["", "Mbili.", "draft"],
      ["Two.", "", "empty"],
    ]);
    const merged = mergedWithNext(rows, 0);
    expect(merged).toEqual([
      row("a", { source: "One. Two.", target: "Moja. Mbili.", startMs: 0, endMs: 2000, state: "draft" }),
    ]);
  });

  it("finds the next row to translate, wrapping to the start", () => {
    const rows = [row("a"), row("b", { state: "translated" }), row("c", { state: "translated" })];
    expect(nextUntranslated(rows, 1)).toBe(0);
    expect(nextUntranslated([row("a", { state: "translated" })], 0)).toBe(-1);
  });
});
