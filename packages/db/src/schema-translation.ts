import type { ColumnType, Generated } from "kysely";
import type { SegmentState, Speaker } from "@tafsiri/domain";

/**
 * The tables of segment-by-segment translation (decision 035, migration
 * 20261211000600_translation_segments). Part of `DB` (schema.ts).
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** An initial transcript's segments, in order, written when it is uploaded. */
export interface SourceSegmentTable {
  id: Generated<string>;
  audioId: string;
  position: number;
  speaker: Speaker;
  startMs: number | null;
  endMs: number | null;
  text: string;
}

/** A row of an audio's segment grid: a source segment and its translation. */
export interface TranslationSegmentTable {
  id: string;
  audioId: string;
  position: number;
  speaker: Speaker;
  startMs: number | null;
  endMs: number | null;
  source: string;
  target: string;
  state: SegmentState;
  /** The translation as the last review of the transcript saw it (null: not reviewed since it was made). */
  reviewedTarget: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the last rejection asked to fix in this segment ('' without a note); null when it named none. */
  fixNote: ColumnType<string | null, string | null | undefined, string | null>;
  updatedBy: string | null;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Where a memory entry came from: an approved translation, or a TMX import. */
export type MemoryOrigin = "approved" | "imported";

/** One translation memory entry of a language pair. */
export interface TranslationMemoryTable {
  id: Generated<string>;
  sourceLanguage: string;
  targetLanguage: string;
  source: string;
  /** normalizeForMatch(source): the key of exact and trigram lookups. */
  sourceNorm: string;
  target: string;
  audioId: string | null;
  segmentId: string | null;
  translatorId: string | null;
  origin: ColumnType<MemoryOrigin, MemoryOrigin | undefined, MemoryOrigin>;
  createdAt: CreatedAt;
  /** memoryWordsOf(sourceNorm), counted per pair in translation_memory_words; null only on entries a previous version wrote. */
  words: string[] | null;
  /** tokensOf(sourceNorm).length, repeats counted; null as `words`. */
  wordCount: number | null;
  /** memoryWordPairsOf(sourceNorm), GIN-indexed (the fuzzy lookup); null only on entries a previous version wrote. */
  wordPairs: string[] | null;
}

/** A normalised source of fewer than 4 words stored in a language pair's memory, once, and how many entries have it. */
export interface TranslationMemoryShortSourceTable {
  sourceLanguage: string;
  targetLanguage: string;
  sourceNorm: string;
  entries: number;
}

/** How many memory entries of a language pair hold a word (the lookup asks for the rarest). */
export interface TranslationMemoryWordTable {
  sourceLanguage: string;
  targetLanguage: string;
  word: string;
  entries: number;
}

/** A glossary term of a language pair. */
export interface GlossaryTermTable {
  id: Generated<string>;
  sourceLanguage: string;
  targetLanguage: string;
  sourceTerm: string;
  targetTerm: string;
  note: ColumnType<string, string | undefined, string>;
  createdBy: string | null;
  createdAt: CreatedAt;
}

/** A grid row's spoken translation (decision 035, oral translation by segment). */
export interface SegmentTakeTable {
  segmentId: string;
  audioId: string;
  fileKey: string;
  mimeType: string;
  sizeBytes: number;
  durationMs: number;
  peakDbfs: number;
  rmsDbfs: number;
  longestSilenceMs: number;
  /** What a reviewer asked to change when recording it again; null: nothing asked. */
  redoNote: string | null;
  recordedBy: string | null;
  createdAt: CreatedAt;
}

/**
 * Decision 035: the stretch of the translated recording `recordingKey` that speaks a grid row's
 * translation, in ms; it counts only while `recordingKey` is the submission's recording.
 */
export interface RecordingSpanTable {
  segmentId: string;
  audioId: string;
  recordingKey: string;
  startMs: number;
  endMs: number;
  /** 'takes': made when the recording was assembled from the takes; 'confirmed': staff confirmed it on a whole-file upload. */
  origin: "takes" | "confirmed";
  updatedBy: string | null;
  updatedAt: ColumnType<Date | string, Date | string | undefined, Date | string>;
}
