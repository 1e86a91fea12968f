import { distance } from "fastest-levenshtein";

/**
 * How alike two source texts are, for the translation memory's matches (decision 035): the score
 * is OmegaT's formula over words, with Weblate's character ratio for short texts, and the
 * word-level differences that show a translator what changed between a match and the segment.
 */

/** The lowest score a fuzzy match is shown at, 0..100. */
export const MIN_FUZZY_SCORE = 75;

/** Below this many tokens in either text, the score compares characters rather than words. */
export const MIN_TOKENS_FOR_WORDS = 4;
/** The first of the private-use characters that stand for distinct tokens. */
const PRIVATE_USE_START = 0xe000;
/** How many characters the Basic Multilingual Plane's private-use area holds (U+E000..U+F8FF). */
const PRIVATE_USE_SIZE = 0x1900;
/** Above this many cells (words of one text times words of the other), wordDiff does not align words. */
const MAX_DIFF_CELLS = 1_000_000;
/** A word or number: letters, marks and digits, with apostrophes only inside. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*/gu;
/** A unit of wordDiff in text as written: a word (curly apostrophes too) or one other character, and the spaces after it. */
const DIFF_UNIT = /(?:[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*|\S)\s*/gu;

/**
 * A text as the translation memory compares and stores it (decision 035): NFC, lower-case, curly
 * quotes and apostrophes straight (`'`, `"`), en and em dashes as `-`, whitespace runs as one
 * space, the ends trimmed. Two sources are an exact match when these are equal.
 */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFC")
    .replace(/[‘’‚‛′]/g, "'")
    .replace(/[“”„‟″]/g, '"')
    .replace(/[‒–—―]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The words and numbers of a text, normalised (normalizeForMatch), in order (decision 035): runs
 * of Unicode letters, marks and digits, apostrophes inside a word kept (`water's`). Punctuation
 * and CHAT's symbols are not tokens (`&-uh` gives `uh`, `[/]` nothing), nor are hyphens (`ice-cream`
 * gives `ice`, `cream`).
 */
export function tokensOf(text: string): string[] {
  return normalizeForMatch(text).match(WORD) ?? [];
}

/** `round(100 * (max - distance) / max)` of two strings, 100 when both are empty. */
function ratio(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 100 : Math.round((100 * (longest - distance(a, b))) / longest);
}

/** Two token lists as strings of one private-use character per distinct token; null when there are too many. */
function encodeTokens(a: readonly string[], b: readonly string[]): [string, string] | null {
  const codes = new Map<string, string>();
  const encode = (tokens: readonly string[]) =>
    tokens
      .map((token) => {
        let code = codes.get(token);
        if (code === undefined) {
          code = String.fromCharCode(PRIVATE_USE_START + codes.size);
          codes.set(token, code);
        }
        return code;
      })
      .join("");
  if (new Set([...a, ...b]).size > PRIVATE_USE_SIZE) return null;
  return [encode(a), encode(b)];
}

/**
 * The translation memory's match score of a candidate source against the segment's source, an
 * integer 0..100 (decision 035):
 * - 100 exactly when the normalised texts (normalizeForMatch) are equal;
 * - else OmegaT's `round(100 * (max(La, Lb) - distance) / max(La, Lb))` over the tokens (tokensOf),
 *   distance being the word-level Levenshtein distance;
 * - when either text has fewer than 4 tokens, the same formula over the normalised characters, so
 *   a one-word segment scores by its spelling rather than 0 or 100;
 * - at most 99 for texts that differ after normalisation (punctuation alone, say).
 */
export function matchScore(source: string, candidate: string): number {
  const a = normalizeForMatch(source);
  const b = normalizeForMatch(candidate);
  if (a === b) return 100;
  const tokensA = tokensOf(a);
  const tokensB = tokensOf(b);
  const encoded =
    tokensA.length < MIN_TOKENS_FOR_WORDS || tokensB.length < MIN_TOKENS_FOR_WORDS
      ? null
      : encodeTokens(tokensA, tokensB);
  const score = encoded ? ratio(encoded[0], encoded[1]) : ratio(a, b);
  return Math.min(99, score);
}

/** One stretch of wordDiff's answer. */
export interface WordChange {
  text: string;
  change: "same" | "added" | "removed";
}

/** A text's diff units (a word or other character with the spaces after it), leading spaces on the first. */
function diffUnits(text: string): string[] {
  const units = text.match(DIFF_UNIT) ?? [];
  const leading = /^\s*/.exec(text)?.[0] ?? "";
  if (units.length === 0) return text === "" ? [] : [text];
  units[0] = leading + units[0];
  return units;
}

/** Appends a stretch to `changes`, joining it to the last one when they are the same kind of change. */
function pushChange(changes: WordChange[], text: string, change: WordChange["change"]): void {
  const last = changes.at(-1);
  if (last && last.change === change) last.text += text;
  else changes.push({ text, change });
}

/**
 * The word-level differences between a translation-memory match's source (`from`) and the
 * segment's current source (`to`), for highlighting (decision 035): stretches in order, each the
 * same in both, added in `to`, or removed from `from` (a removed stretch comes before the added
 * one replacing it). Words and punctuation characters are compared normalised (normalizeForMatch),
 * so case and quote style are no difference. The text is as written with its spacing: the `same`
 * and `added` stretches joined give `to` exactly; `same` stretches carry `to`'s writing. Over a
 * million word pairs, everything is one removal and one addition.
 */
export function wordDiff(from: string, to: string): WordChange[] {
  const a = diffUnits(from);
  const b = diffUnits(to);
  const keyA = a.map(normalizeForMatch);
  const keyB = b.map(normalizeForMatch);
  const changes: WordChange[] = [];
  if (a.length * b.length > MAX_DIFF_CELLS) {
    if (from !== "") changes.push({ text: from, change: "removed" });
    if (to !== "") changes.push({ text: to, change: "added" });
    return changes;
  }
  // common[i * width + j]: the length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i * width + j] =
        keyA[i] === keyB[j]
          ? (common[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * width + j] ?? 0, common[i * width + j + 1] ?? 0);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const skipA = common[(i + 1) * width + j] ?? 0;
    const skipB = common[i * width + j + 1] ?? 0;
    if (i < a.length && j < b.length && keyA[i] === keyB[j]) {
      pushChange(changes, b[j++] ?? "", "same");
      i++;
    } else if (j >= b.length || (i < a.length && skipA >= skipB)) {
      pushChange(changes, a[i++] ?? "", "removed");
    } else {
      pushChange(changes, b[j++] ?? "", "added");
    }
  }
  return changes;
}
