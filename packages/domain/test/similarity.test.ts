import { describe, expect, it } from "vitest";
import { MIN_FUZZY_SCORE, matchScore, normalizeForMatch, tokensOf, wordDiff } from "../src/translation/similarity";

const PROMPT = "Tell me everything you see going on in that picture.";

describe("translation memory normalisation", () => {
  it("lower-cases, straightens quotes, turns dashes into hyphens and collapses whitespace", () => {
    expect(normalizeForMatch("  The Boy’s on the “STOOL” \u2013 see?\t\n")).toBe('the boy\'s on the "stool" - see?');
    // A decomposed é is stored like a composed one.
    expect(normalizeForMatch("Cafe\u0301")).toBe(normalizeForMatch("Caf\u00e9"));
  });

  it("takes words and numbers as tokens, without punctuation or CHAT symbols", () => {
    expect(tokensOf("&-uh the boy’s [/] boy's getting 2 cookies (.) out-of the jar .")).toEqual([
      "uh",
      "the",
      "boy's",
      "boy's",
      "getting",
      "2",
      "cookies",
      "out",
      "of",
      "the",
      "jar",
    ]);
    expect(tokensOf("Mtoto anapanda kigoda.")).toEqual(["mtoto", "anapanda", "kigoda"]);
  });
});

describe("translation memory match score", () => {
  it("scores 100 for the same text, whatever its case, quotes or spacing", () => {
    expect(matchScore(PROMPT, PROMPT)).toBe(100);
    expect(matchScore("The boy’s on the “stool”.", 'the  boy\'s on the "stool".')).toBe(100);
  });

  it("scores a one-word change in the 80s-90s, above the fuzzy floor", () => {
    const score = matchScore(PROMPT, "Tell me everything you see going on in this picture.");
    expect(score).toBe(90);
    expect(score).toBeGreaterThanOrEqual(MIN_FUZZY_SCORE);
    expect(matchScore(PROMPT, "Tell me everything you see happening in that picture.")).toBe(80);
  });

  it("scores unrelated sentences low", () => {
    expect(matchScore(PROMPT, "The mother is drying the dishes at the sink.")).toBeLessThan(30);
    expect(matchScore("Where did you grow up as a child?", PROMPT)).toBeLessThan(MIN_FUZZY_SCORE);
  });

  it("never scores 100 when the texts differ, even by punctuation alone", () => {
    expect(matchScore(PROMPT, PROMPT.replace(".", "?"))).toBe(99);
    expect(matchScore("", "yes")).toBe(0);
  });

  it("compares characters for short texts, so a one-word segment does not jump between 0 and 100", () => {
    expect(matchScore("cookie", "cookies")).toBe(86);
    expect(matchScore("jar", "car")).toBe(67);
    expect(matchScore("Yes.", "yes")).toBe(75);
    expect(matchScore("the boy fell", "the boy fell down")).toBe(71);
  });
});

describe("word differences of a memory match", () => {
  it("marks the changed word and keeps the rest as written", () => {
    expect(wordDiff(PROMPT, "Tell me everything you see going on in this picture.")).toEqual([
      { text: "Tell me everything you see going on in ", change: "same" },
      { text: "that ", change: "removed" },
      { text: "this ", change: "added" },
      { text: "picture.", change: "same" },
    ]);
  });

  it("marks added and removed words and punctuation, ignoring case and quote style", () => {
    const from = "The boy’s  falling off the stool!";
    const to = "the boy's falling off the tall stool?";
    const diff = wordDiff(from, to);
    expect(diff).toEqual([
      { text: "the boy's falling off the ", change: "same" },
      { text: "tall ", change: "added" },
      { text: "stool", change: "same" },
      { text: "!", change: "removed" },
      { text: "?", change: "added" },
    ]);
    expect(
      diff
        .filter((part) => part.change !== "removed")
        .map((part) => part.text)
        .join(""),
    ).toBe(to);
  });

  it("shows no difference between equal texts and everything added to an empty one", () => {
    expect(wordDiff(PROMPT, PROMPT)).toEqual([{ text: PROMPT, change: "same" }]);
    expect(wordDiff("", "Hello there.")).toEqual([{ text: "Hello there.", change: "added" }]);
  });
});
