import type { TranslationSegment } from "./segments";

/**
 * The limits and rules of the segment grid (decision 035): the server refuses past them and the
 * grid stops at them, both reading them from here.
 */

/** The most segments one audio's grid may hold (an hour's interview has about 1,000). */
export const SEGMENTS_MAX = 5_000;
export const TOO_MANY_SEGMENTS = "A transcript may have at most 5,000 segments.";
/** The longest source or translation of one segment, in characters. */
export const SEGMENT_TEXT_MAX_LENGTH = 10_000;
export const SEGMENT_TEXT_TOO_LONG = "A segment's text may be at most 10,000 characters.";
/** The message when the source was rewritten although the programme keeps it as uploaded. */
export const SOURCE_CHANGED =
  "The source text comes from the uploaded transcript: segments may be split and merged, not rewritten.";
/** The message when a segment id belongs to another audio's translation. */
export const SEGMENT_OF_ANOTHER_AUDIO = "A segment belongs to another audio's translation.";
/** The message when two rows share an id. */
export const SEGMENT_ID_TWICE = "Two segments have the same id.";
/** The longest glossary term and note, in characters. */
export const GLOSSARY_TERM_MAX_LENGTH = 200;
export const GLOSSARY_NOTE_MAX_LENGTH = 1_000;
export const GLOSSARY_TERM_TOO_LONG = "A glossary term may be at most 200 characters.";
export const GLOSSARY_NOTE_TOO_LONG = "A glossary note may be at most 1,000 characters.";
export const GLOSSARY_TERM_EMPTY = "A glossary term is empty.";

/** A source text with its whitespace collapsed: splitting or merging segments keeps this. */
function flatSource(segments: readonly Pick<TranslationSegment, "source">[]): string {
  return segments
    .map((s) => s.source)
    .join(" ")
    .replace(/\s+/g, "")
    .trim();
}

/**
 * Whether `edited` holds the same source text as `original`, cut differently: the sources joined
 * in order are equal once whitespace is ignored (a split or merge at any point keeps it; a changed,
 * added or removed word does not). The rule when staff may not write the source (decision 035).
 */
export function sameSourceText(
  original: readonly Pick<TranslationSegment, "source">[],
  edited: readonly Pick<TranslationSegment, "source">[],
): boolean {
  return flatSource(original) === flatSource(edited);
}
