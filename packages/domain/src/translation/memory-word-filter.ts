import { MIN_FUZZY_SCORE, MIN_TOKENS_FOR_WORDS, tokensOf } from "./similarity";

/**
 * How the translation memory finds fuzzy candidates by their words without missing one (decision
 * 035; docs/performance.md, "Translation memory"): a prefix filter, as set-similarity joins use it.
 *
 * matchScore over words is `round(100 * (max - d) / max)` with d the word-level Levenshtein
 * distance, so a candidate reaches MIN_FUZZY_SCORE only when d ≤ 0.255 · max (for 75). In an
 * alignment with that few edits, at most U = floor(0.255 · n) of the source's n words are left
 * unmatched (a longer candidate spends its extra words' insertions from the same budget), and the
 * candidate has between n − U and n + floor(0.255 · n / 0.745) words. A word type missing from the
 * candidate leaves all its occurrences unmatched. So of any set S of the source's word types whose
 * occurrences, less those of its k − 1 most frequent types, exceed U, a candidate holds at least k:
 * the lookup asks the index for entries holding every word of one of S's k-element subsets, S being
 * the source's rarest types in the memory (the fewest entries), and k 3 (fewer when the source has
 * too few types, or so many words that the subsets would be more than MAX_WORD_SETS). Rarer words
 * read shorter posting lists, and three words together are rare.
 */

/** Words of a subset the index is asked for together (fewer when the source has too few types). */
const WORDS_TOGETHER = 3;
/** The most word sets one lookup asks for (C(10, 3) = 120: a source of up to 31 words takes triples). */
const MAX_WORD_SETS = 120;
/** A memory word is cut to this many characters (a GIN key has a size limit; the score reads the full text). */
export const MEMORY_WORD_MAX = 64;

/** What a source's fuzzy candidates must satisfy (wordFilterOf). */
export interface WordFilter {
  /** The fewest and most words (tokensOf, with repeats) a candidate may have. */
  minWords: number;
  maxWords: number;
  /** A candidate holds every word of at least one of these sets (memory words, memoryWordsOf). */
  wordSets: string[][];
}

/** The distinct words of a normalised source as the memory indexes them: tokensOf, cut to MEMORY_WORD_MAX, in first-seen order. */
export function memoryWordsOf(text: string): string[] {
  return [...new Set(tokensOf(text).map((word) => word.slice(0, MEMORY_WORD_MAX)))];
}

/** The number of k-element subsets of n items. */
function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return result;
}

/**
 * The character lengths (code points) of a normalised text that may score MIN_FUZZY_SCORE or more
 * against `text` by matchScore's character ratio: the length differs by at most the distance,
 * which is at most 0.255 of the longer text (for 75).
 */
export function charLengthRange(text: string): { min: number; max: number } {
  const length = [...text].length;
  const differing = 2 * (100 - MIN_FUZZY_SCORE) + 1;
  return {
    min: length - Math.floor((differing * length) / 200),
    max: length + Math.floor((differing * length) / (200 - differing)),
  };
}

/** `k`-element subsets of `items`, in order. */
function subsets<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [first, ...rest] = items;
  return [...subsets(rest, k - 1).map((subset) => [first!, ...subset]), ...subsets(rest, k)];
}

/**
 * The prefix filter of a source (see the file's comment): takes the text and how many memory
 * entries of the pair hold each memory word (`entriesWith`, 0 for a word none holds); returns the
 * candidates' word-count range and the word sets one of which a candidate holds, or null when the
 * source has fewer than MIN_TOKENS_FOR_WORDS words (matchScore then compares characters; the
 * memory finds those by trigrams).
 */
export function wordFilterOf(text: string, entriesWith: (word: string) => number): WordFilter | null {
  const words = tokensOf(text).map((word) => word.slice(0, MEMORY_WORD_MAX));
  const n = words.length;
  if (n < MIN_TOKENS_FOR_WORDS) return null;
  // Twice the share of words that may differ, in hundredths, over 200: 0.255 for a minimum of 75.
  const differing = 2 * (100 - MIN_FUZZY_SCORE) + 1;
  const unmatched = Math.floor((differing * n) / 200);
  const occurrences = new Map<string, number>();
  for (const word of words) occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
  const rarestFirst = [...occurrences.keys()].sort((a, b) => entriesWith(a) - entriesWith(b) || (a < b ? -1 : 1));
  for (let k = Math.min(WORDS_TOGETHER, rarestFirst.length); k >= 1; k--) {
    for (let size = k; size <= rarestFirst.length; size++) {
      const prefix = rarestFirst.slice(0, size);
      const counts = prefix.map((word) => occurrences.get(word)!).sort((a, b) => b - a);
      const leftUnmatched = counts.slice(k - 1).reduce((sum, count) => sum + count, 0);
      if (leftUnmatched <= unmatched) continue;
      if (k > 1 && choose(size, k) > MAX_WORD_SETS) break;
      return {
        minWords: n - unmatched,
        maxWords: n + Math.floor((differing * n) / (200 - differing)),
        wordSets: subsets(prefix, k),
      };
    }
  }
  // Unreachable: with k = 1 all the source's occurrences (n) exceed floor(0.255 · n).
  throw new Error("wordFilterOf: no prefix");
}
