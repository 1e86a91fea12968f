import { describe, expect, it } from "vitest";
import {
  charLengthRange,
  MEMORY_WORD_MAX,
  memoryWordPairsOf,
  memoryWordsOf,
  wordFilterOf,
  type WordFilter,
} from "../src/translation/memory-word-filter";
import { MIN_FUZZY_SCORE, matchScore, normalizeForMatch, tokensOf } from "../src/translation/similarity";

/** Whether `candidate` passes `filter` as the memory's SQL applies it. */
function passes(filter: WordFilter, candidate: string): boolean {
  const count = tokensOf(candidate).length;
  const pairs = new Set(memoryWordPairsOf(candidate));
  return (
    count >= filter.minWords &&
    count <= filter.maxWords &&
    filter.pairSets.some((set) => set.every((pair) => pairs.has(pair)))
  );
}

/** A small seeded generator, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = "the a boy girl stool cookie jar mother water sink falls over is on and you see tell me".split(" ");

describe("the memory's word filter", () => {
  it("keeps sources under four words to the trigram lookup", () => {
    expect(wordFilterOf("The boy falls.", () => 1)).toBeNull();
  });

  it("asks for the rarest word pairs, two together, within the word counts a 75% match can have", () => {
    const entries: Record<string, number> = {
      tell: 50,
      me: 900,
      everything: 40,
      you: 800,
      see: 300,
      in: 950,
      that: 700,
      picture: 5,
    };
    const filter = wordFilterOf("Tell me everything you see in that picture.", (w) => entries[w] ?? 0)!;
    // 8 words: at most 2 substituted or deleted, so 6 to 10 words, and at most 4 of the 7 pairs
    // broken; the 6 rarest pairs (by their words' counts multiplied), any 2 of them.
    expect(filter.minWords).toBe(6);
    expect(filter.maxWords).toBe(10);
    expect(filter.pairSets).toHaveLength(15);
    expect(new Set(filter.pairSets.flat())).toEqual(
      new Set(["that picture", "everything you", "me everything", "tell me", "you see", "see in"]),
    );
    expect(filter.pairSets[0]).toEqual(["that picture", "everything you"]);
  });

  it("asks for one pair when the source repeats one pair", () => {
    const filter = wordFilterOf("no no no no no", () => 10)!;
    expect(filter.pairSets).toEqual([["no no"]]);
  });

  it("asks for single pairs rather than more than 120 sets for a long source", () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const filter = wordFilterOf(words.join(" "), (w) => Number(w.slice(1)))!;
    expect(filter.pairSets.length).toBeLessThanOrEqual(120);
    expect(filter.pairSets[0]).toEqual(["w0 w1"]);
  });

  it("indexes each pair of adjacent words once, each word cut to the indexed length", () => {
    expect(memoryWordPairsOf("the boy, the boy and the girl.")).toEqual([
      "the boy",
      "boy the",
      "boy and",
      "and the",
      "the girl",
    ]);
    expect(memoryWordPairsOf("yes.")).toEqual([]);
  });

  it("bounds the length of a short source's candidates by what a 75% character ratio allows", () => {
    expect(charLengthRange("the girl laughs.")).toEqual({ min: 12, max: 21 });
    const random = seeded(7);
    const letters = "abcdeghilmnorstu ";
    for (let i = 0; i < 5_000; i++) {
      const a = Array.from(
        { length: 1 + Math.floor(random() * 20) },
        () => letters[Math.floor(random() * letters.length)],
      ).join("");
      let b = a;
      for (let e = Math.floor(random() * 6); e > 0; e--) {
        const at = Math.floor(random() * (b.length + 1));
        b =
          random() < 0.5
            ? b.slice(0, at) + letters[Math.floor(random() * letters.length)] + b.slice(at)
            : b.slice(0, at) + b.slice(at + 1);
      }
      if (tokensOf(a).length < 4 && matchScore(a, b) >= MIN_FUZZY_SCORE) {
        const { min, max } = charLengthRange(normalizeForMatch(a));
        const length = normalizeForMatch(b).length;
        expect(length >= min && length <= max, `${a} → ${b}`).toBe(true);
      }
    }
  });

  it("cuts very long words to the indexed length", () => {
    const long = "a".repeat(200);
    expect(memoryWordsOf(`${long} b ${long}`)).toEqual(["a".repeat(MEMORY_WORD_MAX), "b"]);
  });

  it.each([
    { edits: "up to 4 edits", seed: 35, most: () => 5 },
    { edits: "up to a third of the words edited", seed: 36, most: (words: number) => 2 + Math.floor(words / 3) },
  ])("lets through every candidate that scores the minimum or more (10,000 random pairs, $edits)", ({ seed, most }) => {
    const random = seeded(seed);
    const pick = () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]!;
    const entries = new Map(VOCABULARY.map((w) => [w, Math.floor(random() * 1000)]));
    let matching = 0;
    for (let i = 0; i < 10_000; i++) {
      const source = Array.from({ length: 4 + Math.floor(random() * (random() < 0.8 ? 14 : 40)) }, pick);
      const candidate = [...source];
      // A few random edits: replace, insert or delete words.
      for (let e = Math.floor(random() * most(source.length)); e > 0; e--) {
        const at = Math.floor(random() * (candidate.length + 1));
        const edit = random();
        if (edit < 0.4) candidate[Math.min(at, candidate.length - 1)] = pick();
        else if (edit < 0.7) candidate.splice(at, 0, pick());
        else if (candidate.length > 4) candidate.splice(Math.min(at, candidate.length - 1), 1);
      }
      const text = candidate.join(" ");
      const filter = wordFilterOf(source.join(" "), (w) => entries.get(w) ?? 0)!;
      expect(filter.pairSets.length).toBeLessThanOrEqual(120);
      if (matchScore(source.join(" "), text) >= MIN_FUZZY_SCORE) {
        matching++;
        expect(passes(filter, text), `${source.join(" ")} → ${text}`).toBe(true);
      }
    }
    // The sample holds plenty of matches, so the check above means something.
    expect(matching).toBeGreaterThan(2_000);
  });
});
