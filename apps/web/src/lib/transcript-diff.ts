import { diffWords } from "diff";

/** A run of the diff: words both versions share, or words only the earlier (removed) or the later (added) one has. */
export interface DiffPart {
  kind: "same" | "removed" | "added";
  text: string;
}

/** A word-level comparison of two transcript versions (decision 025). */
export interface TranscriptDiff {
  /** In reading order; a replaced run is its removed part followed by its added part. */
  parts: DiffPart[];
  /** Places that changed: a removal, an addition, or a removal directly followed by an addition (a replacement). */
  changes: number;
  /** Words (runs of non-space characters) only in the earlier version, and only in the later one. */
  removedWords: number;
  addedWords: number;
}

/** How long the comparison may run before giving up (ms): two very different long texts are shown plain. */
const DIFF_TIMEOUT_MS = 1_500;

/** Words in `text`: runs of non-space characters. */
function wordCount(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/**
 * Decision 025, "what changed since the last review": the word-level diff (`diffWords` of the
 * `diff` package: words and punctuation compared, changes in spacing alone ignored) of `before`
 * (the version last reviewed) and `after` (the current one), as parts to render, with the number
 * of changed places and of removed and added words. Returns null when the texts are too different
 * to compare within DIFF_TIMEOUT_MS.
 */
export function transcriptDiff(before: string, after: string): TranscriptDiff | null {
  const changes = diffWords(before, after, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return null;
  const parts: DiffPart[] = [];
  let places = 0;
  let removedWords = 0;
  let addedWords = 0;
  for (const change of changes) {
    const kind = change.removed ? "removed" : change.added ? "added" : "same";
    if (kind === "removed") removedWords += wordCount(change.value);
    if (kind === "added") addedWords += wordCount(change.value);
    // An addition right after a removal replaces it: one place, not two.
    if (kind !== "same" && !(kind === "added" && parts.at(-1)?.kind === "removed")) places += 1;
    const last = parts.at(-1);
    if (last && last.kind === kind) last.text += change.value;
    else parts.push({ kind, text: change.value });
  }
  return { parts, changes: places, removedWords, addedWords };
}

/** '1 change', '3 changes', 'No changes to the words' (only spacing changed). */
export function changeCountLabel(changes: number): string {
  if (changes === 0) return "No changes to the words";
  return changes === 1 ? "1 change" : `${changes} changes`;
}
