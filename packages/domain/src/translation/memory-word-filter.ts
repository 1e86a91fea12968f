import { MIN_FUZZY_SCORE, MIN_TOKENS_FOR_WORDS, tokensOf } from "./similarity";

/**
 * How the translation memory finds fuzzy candidates by their word pairs without missing one
 * (decision 035; docs/performance.md, "Translation memory"): a prefix filter, as set-similarity
 * joins use it, over the pairs of adjacent words ("that it").
 *
 * matchScore over words is `round(100 * (max - d) / max)` with d the word-level Levenshtein
 * distance, so a candidate reaches MIN_FUZZY_SCORE only when d ≤ 0.255 · max (for 75). In an
 * alignment with that few edits, at most U = floor(0.255 · n) of the source's n words are
 * substituted or deleted (a longer candidate spends its extra words' insertions from the same
 * budget), the candidate has between n − U and M = n + floor(0.255 · n / 0.745) words, and
 * d ≤ floor(0.255 · M). A pair of adjacent source words survives in the candidate unless one of
 * its words is substituted or deleted (each such word breaks at most two pairs) or a word is
 * inserted between them (one pair): at most 2 · (s + del) + ins = (s + del) + d ≤ U + floor(0.255 · M)
 * of the source's n − 1 pairs are broken. A pair type missing from the candidate breaks all its
 * occurrences. So of any set S of the source's pair types whose occurrences, less those of its
 * k − 1 most frequent types, exceed that budget, a candidate holds at least k: the lookup asks the
 * index for entries holding both pairs of one of S's 2-element subsets (one pair when the source
 * has too few pair types, or so many words that the subsets would be more than MAX_PAIR_SETS), S
 * being the source's rarest pairs.
 *
 * A pair's rarity is estimated from its words' entry counts (the product: how often the two would
 * meet by chance), so only words are counted. Pairs of common words ("of the") are still far rarer
 * than the words, and two pairs together rarer again: where the three rarest words of a sentence of
 * function words let through thousands of entries, two of its pairs let through a few.
 */

/** Pairs of a subset the index is asked for together (fewer when the source has too few pair types). */
const PAIRS_TOGETHER = 2;
/** The most pair sets one lookup asks for (C(16, 2) = 120: a source of about 25 words takes pairs of pairs). */
const MAX_PAIR_SETS = 120;
/** A memory word is cut to this many characters (a GIN key has a size limit; the score reads the full text). */
export const MEMORY_WORD_MAX = 64;

/** What a source's fuzzy candidates must satisfy (wordFilterOf). */
export interface WordFilter {
  /** The fewest and most words (tokensOf, with repeats) a candidate may have. */
  minWords: number;
  maxWords: number;
  /** A candidate holds every word pair of at least one of these sets (memoryWordPairsOf). */
  pairSets: string[][];
}

/** The words of a text as the memory indexes them: tokensOf, each cut to MEMORY_WORD_MAX, in order with repeats. */
function memoryTokensOf(text: string): string[] {
  return tokensOf(text).map((word) => word.slice(0, MEMORY_WORD_MAX));
}

/** The distinct words of a normalised source as the memory counts them: tokensOf, cut to MEMORY_WORD_MAX, in first-seen order. */
export function memoryWordsOf(text: string): string[] {
  return [...new Set(memoryTokensOf(text))];
}

/** Two adjacent memory words as one key: a word holds no space. */
const pairOf = (first: string, second: string) => `${first} ${second}`;

/** Each pair of adjacent memory words, in order with repeats. */
function pairsInOrder(words: readonly string[]): string[] {
  return words.slice(1).map((word, i) => pairOf(words[i]!, word));
}

/**
 * The distinct pairs of adjacent words of a normalised source as the memory indexes them ("that
 * it", each word cut to MEMORY_WORD_MAX), in first-seen order; none for a text of one word.
 */
export function memoryWordPairsOf(text: string): string[] {
  return [...new Set(pairsInOrder(memoryTokensOf(text)))];
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
 * candidates' word-count range and the pair sets one of which a candidate holds, or null when the
 * source has fewer than MIN_TOKENS_FOR_WORDS words (matchScore then compares characters; the
 * memory finds those by trigrams).
 */
export function wordFilterOf(text: string, entriesWith: (word: string) => number): WordFilter | null {
  const words = memoryTokensOf(text);
  const n = words.length;
  if (n < MIN_TOKENS_FOR_WORDS) return null;
  // Twice the share of words that may differ, in hundredths, over 200: 0.255 for a minimum of 75.
  const differing = 2 * (100 - MIN_FUZZY_SCORE) + 1;
  const unmatched = Math.floor((differing * n) / 200);
  const maxWords = n + Math.floor((differing * n) / (200 - differing));
  const broken = unmatched + Math.floor((differing * maxWords) / 200);
  const occurrences = new Map<string, number>();
  for (const pair of pairsInOrder(words)) occurrences.set(pair, (occurrences.get(pair) ?? 0) + 1);
  const rarity = new Map(
    [...occurrences.keys()].map((pair) => {
      const [first, second] = pair.split(" ") as [string, string];
      return [pair, entriesWith(first) * entriesWith(second)];
    }),
  );
  const rarestFirst = [...occurrences.keys()].sort((a, b) => rarity.get(a)! - rarity.get(b)! || (a < b ? -1 : 1));
  for (let k = Math.min(PAIRS_TOGETHER, rarestFirst.length); k >= 1; k--) {
    for (let size = k; size <= rarestFirst.length; size++) {
      const prefix = rarestFirst.slice(0, size);
      const counts = prefix.map((pair) => occurrences.get(pair)!).sort((a, b) => b - a);
      const leftBroken = counts.slice(k - 1).reduce((sum, count) => sum + count, 0);
      if (leftBroken <= broken) continue;
      if (k > 1 && choose(size, k) > MAX_PAIR_SETS) break;
      return { minWords: n - unmatched, maxWords, pairSets: subsets(prefix, k) };
    }
  }
  // Unreachable: with k = 1 all the source's n − 1 pair occurrences exceed the broken budget (about 0.6 · n).
  throw new Error("wordFilterOf: no prefix");
}
