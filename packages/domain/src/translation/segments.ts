import type { Speaker } from "../transcript-lines";

/**
 * The vocabulary of segment-by-segment translation (decision 035): a transcript is cut into
 * segments, each a speaker's stretch of the recording with its source text and its translation.
 */

/** One segment of a source (initial) transcript, as read from an uploaded file. */
export interface SourceSegment {
  speaker: Speaker;
  /** Where the segment starts in the original recording, whole ms; null when the source does not say. */
  startMs: number | null;
  /** Where it ends, whole ms; null when the source does not say. */
  endMs: number | null;
  /** The source text, CHAT codes (`&-uh`, `[/]`, `(.)`, `xxx`) kept as written. */
  text: string;
}

/** Where a translated segment is: nothing typed yet, typed, or confirmed by its translator. */
export const SEGMENT_STATES = ["empty", "draft", "translated"] as const;
export type SegmentState = (typeof SEGMENT_STATES)[number];

/** One row of the segment grid: a source segment and its translation. */
export interface TranslationSegment {
  /** Stable across saves, splits and merges (a uuid). */
  id: string;
  speaker: Speaker;
  startMs: number | null;
  endMs: number | null;
  source: string;
  target: string;
  state: SegmentState;
}

/** A glossary entry of one language pair. */
export interface GlossaryTerm {
  sourceTerm: string;
  targetTerm: string;
  /** Free text for translators ('' when none). */
  note: string;
}

/** A language pair: ISO 639-3 codes of the source and the target language. */
export interface LanguagePair {
  source: string;
  target: string;
}

/** An ISO 639-3 code: three lower-case letters (`eng`, `swa`, `lug`). */
export const LANGUAGE_CODE = /^[a-z]{3}$/;
