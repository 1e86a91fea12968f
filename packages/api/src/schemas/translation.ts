import { z } from "zod";
import {
  GLOSSARY_NOTE_MAX_LENGTH,
  GLOSSARY_NOTE_TOO_LONG,
  GLOSSARY_TERM_EMPTY,
  GLOSSARY_TERM_MAX_LENGTH,
  GLOSSARY_TERM_TOO_LONG,
  LANGUAGE_CODE,
  SEGMENT_STATES,
  SEGMENT_TEXT_MAX_LENGTH,
  SEGMENT_TEXT_TOO_LONG,
  REVIEW_REASON_MAX_LENGTH,
  REVIEW_REASON_TOO_LONG,
  SEGMENTS_MAX,
  SPEAKERS,
  TAKE_CHECK_NAMES,
  TOO_MANY_SEGMENTS,
} from "@tafsiri/domain";
import { ZId, ZTranscriptStatus } from "./common";

/** The message for a language that is not an ISO 639-3 code. */
export const LANGUAGE_CODE_INVALID = "A language is an ISO 639-3 code of three lower-case letters, such as eng or swa.";

/** Decision 035: an ISO 639-3 code. */
const ZLanguageCode = z.string({ error: LANGUAGE_CODE_INVALID }).regex(LANGUAGE_CODE, LANGUAGE_CODE_INVALID);

/** Decision 035: a language pair (source, target), ISO 639-3. */
export const ZLanguagePair = z.object({ source: ZLanguageCode, target: ZLanguageCode });

/** Decision 035: the programme's translation settings. */
export const ZTranslationSettings = z.object({
  /** The languages recordings are in; the first is the default source of an audio. */
  sourceLanguages: z
    .array(ZLanguageCode, { error: "Give between one and five source languages." })
    .min(1, "Give between one and five source languages.")
    .max(5, "Give between one and five source languages."),
  targetLanguage: ZLanguageCode,
  /** Staff write the source text themselves where no source transcript was uploaded. */
  staffWriteSource: z.boolean(),
  /** Translations keep the source's CHAT markers (fillers, repetitions, pauses, xxx). */
  keepChatMarkers: z.boolean(),
});
export type TranslationSettings = z.infer<typeof ZTranslationSettings>;

/** Decision 035: an audio's own languages; null keeps the programme's. */
export const ZAudioLanguagesInput = z.object({
  audioId: ZId,
  sourceLanguage: ZLanguageCode.nullable(),
  targetLanguage: ZLanguageCode.nullable(),
});

const segmentText = z.string().max(SEGMENT_TEXT_MAX_LENGTH, SEGMENT_TEXT_TOO_LONG);
const ms = z
  .number()
  .int()
  .min(0)
  .max(24 * 3_600_000)
  .nullable();

/** Decision 035: one row of the segment grid. */
const ZTranslationSegment = z.object({
  id: ZId,
  speaker: z.enum(SPEAKERS),
  startMs: ms,
  endMs: ms,
  source: segmentText,
  target: segmentText,
  state: z.enum(SEGMENT_STATES),
});

/** Decision 035: the rows of one audio's grid, to save as a draft or to submit. */
export const ZSaveSegmentsInput = z.object({
  audioId: ZId,
  segments: z.array(ZTranslationSegment).max(SEGMENTS_MAX, TOO_MANY_SEGMENTS),
});

const ZGlossaryTermFields = z.object({
  sourceTerm: z.string().trim().min(1, GLOSSARY_TERM_EMPTY).max(GLOSSARY_TERM_MAX_LENGTH, GLOSSARY_TERM_TOO_LONG),
  targetTerm: z.string().trim().min(1, GLOSSARY_TERM_EMPTY).max(GLOSSARY_TERM_MAX_LENGTH, GLOSSARY_TERM_TOO_LONG),
  note: z.string().trim().max(GLOSSARY_NOTE_MAX_LENGTH, GLOSSARY_NOTE_TOO_LONG).default(""),
});
export const ZGlossaryTerm = ZGlossaryTermFields.extend({ id: ZId });
export const ZAddGlossaryTermInput = ZGlossaryTermFields.extend({ pair: ZLanguagePair });

/** Decision 035: the segment grid of an audio, as its screen opens it. */
export const ZSegmentGrid = z.object({
  pair: ZLanguagePair,
  staffWriteSource: z.boolean(),
  keepChatMarkers: z.boolean(),
  /** The transcript's approval status ('No transcript' before the first Submit). */
  status: ZTranscriptStatus,
  /** Whether the caller may change the rows (not once the transcript is Approved; never for an admin who only reviews). */
  editable: z.boolean(),
  /** Whether the source came from an uploaded transcript (then it is split and merged, not rewritten). */
  hasSourceTranscript: z.boolean(),
  segments: z.array(ZTranslationSegment),
  glossary: z.array(ZGlossaryTerm),
  /** Other translations in the memory of the rows' sources, by normalised source (the 'inconsistent' check). */
  memoryVariants: z.record(z.string(), z.array(z.string())),
  /** The translation of each row as the last review saw it, by row id (rows reviewed only). */
  reviewedTargets: z.record(z.string(), z.string()),
  /** What the last rejection asked to fix, by row id ('' without a note). */
  toFix: z.record(z.string(), z.string()),
});
export type SegmentGrid = z.infer<typeof ZSegmentGrid>;

/** Decision 035: a translation memory match of a source. */
export const ZMemoryMatch = z.object({
  id: ZId,
  score: z.number().int().min(0).max(100),
  source: z.string(),
  target: z.string(),
  origin: z.enum(["approved", "imported"]),
  audioFilename: z.string().nullable(),
  translator: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** The match's source against the current one, word by word. */
  diff: z.array(z.object({ text: z.string(), change: z.enum(["same", "added", "removed"]) })),
});

export const ZMemoryMatchesInput = z.object({ audioId: ZId, source: segmentText });

/** A file to import: its text (TMX, TBX or CSV) and the pair it is for. */
export const ZImportInput = z.object({
  pair: ZLanguagePair,
  content: z.string().min(1, "The file is empty.").max(20_000_000, "The file may be at most 20 MB."),
});
export const ZGlossaryExportInput = z.object({ pair: ZLanguagePair, format: z.enum(["csv", "tbx"]).default("csv") });
export const ZExportedFile = z.object({ fileName: z.string(), contentType: z.string(), content: z.string() });

/** Decision 035, oral translation: a grid row's take as the grid and the reviewer see it. */
const ZTakeView = z.object({
  segmentId: z.string(),
  durationMs: z.number(),
  peakDbfs: z.number(),
  rmsDbfs: z.number(),
  longestSilenceMs: z.number(),
  redoNote: z.string().nullable(),
  url: z.string(),
  createdAt: z.string(),
});
const ZTakeFinding = z.object({
  check: z.enum(TAKE_CHECK_NAMES),
  severity: z.enum(["error", "warning"]),
  segmentId: z.string(),
  message: z.string(),
});
/** Decision 035: a grid row's stretch of the current translated recording, ms. */
const ZRecordingSpan = z.object({
  segmentId: z.string(),
  startMs: z.number(),
  endMs: z.number(),
  origin: z.enum(["takes", "confirmed"]),
});
export const ZTakesOutput = z.object({
  takes: z.array(ZTakeView),
  checks: z.array(ZTakeFinding),
  spans: z.array(ZRecordingSpan),
});
export const ZSegmentIdInput = z.object({ segmentId: ZId });
/** Takes to record again, each with what to change (at most 1,000 characters; null clears the request). */
export const ZRedoTakesInput = z.object({
  audioId: ZId,
  takes: z
    .array(
      z.object({
        segmentId: ZId,
        // As a review's reason (transcripts' ZReviewReason, which imports this file).
        note: z.string().trim().max(REVIEW_REASON_MAX_LENGTH, REVIEW_REASON_TOO_LONG).nullable(),
      }),
    )
    .min(1, "Name at least one take.")
    .max(SEGMENTS_MAX, TOO_MANY_SEGMENTS),
});

/** Decision 035, SPEC §2.13: a grid row's span in the translated recording, whole ms. */
const ZSegmentSpan = z.object({
  segmentId: ZId,
  startMs: z.number().int("Times are whole milliseconds.").min(0, "A span starts at 0 ms or later."),
  endMs: z.number().int("Times are whole milliseconds.").min(1, "A span ends after 0 ms."),
});
/** What translation.proposeSpans answers: the recording's length and one span per row, in row order. */
export const ZProposedSpans = z.object({ recordingDurationMs: z.number().int(), spans: z.array(ZSegmentSpan) });
/** The spans staff confirm: one per row of the audio (at most SEGMENTS_MAX). */
export const ZConfirmSpansInput = z.object({
  audioId: ZId,
  spans: z.array(ZSegmentSpan).min(1, "Give a span for every segment.").max(SEGMENTS_MAX, TOO_MANY_SEGMENTS),
});
