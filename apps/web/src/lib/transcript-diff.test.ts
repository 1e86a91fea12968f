import { describe, expect, it } from "vitest";
import { changeCountLabel, transcriptDiff } from "./transcript-diff";

const FIRST = "Nilienda sokoni jana asubuhi na mama yangu. Tulinunua ndizi, nyanya na vitunguu.";
const SECOND = "Nilienda dukani jana jioni na mama yangu. Tulinunua ndizi, nyanya na vitunguu.";

describe("transcriptDiff (decision 025: what changed since the last review)", () => {
  it("finds two replaced words as two changes, removed then added, in reading order", () => {
    expect(transcriptDiff(FIRST, SECOND)).toEqual({
      parts: [
        { kind: "same", text: "Nilienda " },
        { kind: "removed", text: "sokoni" },
        { kind: "added", text: "dukani" },
        { kind: "same", text: " jana " },
        { kind: "removed", text: "asubuhi" },
        { kind: "added", text: "jioni" },
        { kind: "same", text: " na mama yangu. Tulinunua ndizi, nyanya na vitunguu." },
      ],
      changes: 2,
      removedWords: 2,
      addedWords: 2,
    });
  });

  it("counts a removal alone and an addition alone as a change each", () => {
    const diff = transcriptDiff("one two three", "one three four five")!;
    expect(diff.changes).toBe(2);
    expect([diff.removedWords, diff.addedWords]).toEqual([1, 2]);
    expect(diff.parts.filter((p) => p.kind !== "same").map((p) => [p.kind, p.text.trim()])).toEqual([
      ["removed", "two"],
      ["added", "four five"],
    ]);
  });

  it("ignores changes in spacing alone", () => {
    const diff = transcriptDiff("Habari  ya\nasubuhi", "Habari ya asubuhi")!;
    expect([diff.changes, diff.removedWords, diff.addedWords]).toEqual([0, 0, 0]);
  });

  it("sees punctuation as a change of its own", () => {
    const diff = transcriptDiff("Ndiyo.", "Ndiyo!")!;
    expect(diff.changes).toBe(1);
    expect(diff.parts.map((p) => p.kind)).toEqual(["same", "removed", "added"]);
  });

  it("compares with an empty version: everything added", () => {
    expect(transcriptDiff("", "Habari ya asubuhi")).toMatchObject({ changes: 1, removedWords: 0, addedWords: 3 });
  });
});

describe("changeCountLabel", () => {
  it("says how many places changed, or that only spacing did", () => {
    expect(changeCountLabel(0)).toBe("No changes to the words");
    expect(changeCountLabel(1)).toBe("1 change");
    expect(changeCountLabel(3)).toBe("3 changes");
  });
});
