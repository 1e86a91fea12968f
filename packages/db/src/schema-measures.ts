import type { ColumnType } from "kysely";
import type { Category, GroupMeasure, GroupStatistics, SpeakerMeasures } from "@tafsiri/domain";

/**
 * The tables of the speech measures of the original audio (decision 035, migration
 * 20261211001000_speech_measures). Part of `DB` (schema.ts).
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** The voice activity detector's speech stretches of one original audio file. */
export interface SpeechStretchTable {
  /** The audio file's storage key: a new file is a new row. */
  fileKey: string;
  audioId: string;
  status: "ready" | "failed";
  /** [startMs, endMs] pairs in order (written as JSON text); null when the file could not be decoded. */
  stretches: ColumnType<Array<[number, number]> | null, string | null, string | null>;
  /** The detector's settings, as they are written into the export. */
  vad: string;
  /** The approved transcript version the audio's speech_measures rows were made from; null: not yet. */
  measuredTranscriptKey: string | null;
  createdAt: CreatedAt;
}

/** The group report of PAR (GroupStatistics per group and measure), rewritten by the measures job. */
export interface SpeechMeasureGroupTable extends GroupStatistics {
  category: Category;
  measure: GroupMeasure;
}

/** One speaker's measures of one audio (SpeakerMeasures of @tafsiri/domain) and the recording's duration, ms. */
export interface SpeechMeasureTable extends SpeakerMeasures {
  audioId: string;
  /** The audio's category (its participant's group), copied: an audio's category never changes. */
  category: Category;
  durationMs: number | null;
  measuredAt: CreatedAt;
}
