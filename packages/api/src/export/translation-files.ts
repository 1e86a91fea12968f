import { createReadStream, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import {
  chatSegmentSpans,
  paragraphSpans,
  parseTranscript,
  type ChatSegment,
  type ChatSpan,
  type LanguagePair,
} from "@tafsiri/domain";
import type { ExportedAudio } from "@tafsiri/db/repositories/exports";
import type { ExportedTranslation } from "@tafsiri/db/repositories/translation/export-segments";
import type { TranslationSettings } from "../schemas/translation";
import { writeTmx, type MemoryUnit } from "../translation/formats/tmx";
import { languagePairOf } from "../translation/translation-settings";
import type { DatasetFile } from "./dataset-zip";
import type { ParticipantAtSession } from "./participant-data";

/**
 * What a dataset export writes of the translations (decision 035): which text goes on each CHAT
 * file's tiers, and the two corpus-wide files, `segments.tsv` (every segment of every exported
 * audio) and `translation-memory.tmx` (their approved source/translation pairs, TMX 1.4b). The two
 * files grow audio by audio in a temporary folder, so an export never holds them in memory
 * (decision 019), and are streamed into the zip after the audios' files.
 */

/** A segment of an exported audio, with its grid row's id when it is one. */
type ExportedSegment = ChatSegment & { id: string | null };

/** What an exported audio's CHAT file and corpus files are written from. */
export interface AudioTranslation {
  /** The audio's language pair (its own languages, else the programme's). */
  pair: LanguagePair;
  /**
   * Its segments with source and translation; null when it has none to write, and the stored
   * transcript (the translation) is what its CHAT file's main tier holds.
   */
  segments: ExportedSegment[] | null;
}

/** The columns of `segments.tsv`, in order. */
const SEGMENT_COLUMNS = [
  "audio_file",
  "offset_ms",
  "duration_ms",
  "speaker",
  "participant_code",
  "group",
  "source",
  "translation",
] as const;

/** Whitespace runs collapsed to one space, the ends trimmed. */
const collapsed = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * The segments an approved audio's files are written from (decision 035):
 * - its segment grid rows, when their translations are the approved transcript's lines (one line
 *   per row with a translation, as Submit writes it; rows the plain editor's later save no longer
 *   matches are not used);
 * - else, when it has source segments as many as the approved transcript's lines with text, each
 *   source segment with its line as the translation (its speaker and times; the line's start when
 *   the segment has none), as the memory pairs them;
 * - else none (null): the transcript was saved as plain text without a source to pair it with.
 */
function exportedSegments(transcriptText: string, stored: ExportedTranslation | undefined): ExportedSegment[] | null {
  if (!stored) return null;
  const lines = parseTranscript(transcriptText).filter((line) => line.text.trim() !== "");
  const translated = stored.rows.filter((row) => row.target.trim() !== "");
  if (
    stored.rows.length > 0 &&
    translated.length === lines.length &&
    translated.every((row, i) => collapsed(row.target) === collapsed(lines[i]!.text))
  ) {
    return stored.rows.map((row) => ({
      id: row.id,
      speaker: row.speaker,
      startMs: row.startMs,
      endMs: row.endMs,
      source: row.source,
      target: row.target,
    }));
  }
  if (stored.source.length > 0 && stored.source.length === lines.length) {
    return stored.source.map((segment, i) => ({
      id: null,
      speaker: segment.speaker,
      startMs: segment.startMs ?? lines[i]!.startMs,
      endMs: segment.endMs,
      source: segment.text,
      target: lines[i]!.text,
    }));
  }
  return null;
}

/**
 * What an exported audio's files are written from (decision 035): its language pair
 * (languagePairOf: the audio's own languages, else the programme's `settings`) and its segments
 * (exportedSegments; null when none has a source, so the main tier holds the transcript).
 */
export function audioTranslation(
  audio: Pick<ExportedAudio, "transcriptText">,
  stored: ExportedTranslation | undefined,
  settings: TranslationSettings,
): AudioTranslation {
  const pair = languagePairOf(settings, {
    sourceLanguage: stored?.sourceLanguage ?? null,
    targetLanguage: stored?.targetLanguage ?? null,
  });
  const segments = exportedSegments(audio.transcriptText, stored);
  const withSource = segments?.some((segment) => segment.source.trim() !== "") ?? false;
  return { pair, segments: withSource ? segments : null };
}

/** A text as one TSV field: tabs, line breaks and other control characters as spaces. */
function tsvField(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, " ");
}

/** A TSV line of `segments.tsv`. */
function tsvLine(fields: readonly (string | number | null)[]): string {
  return `${fields.map((field) => (field === null ? "" : tsvField(String(field)))).join("\t")}\n`;
}

/** The TMX skeleton's opening (up to `<body>`) and closing, from writeTmx with no unit. */
function tmxSkeleton(pair: LanguagePair): { head: string; tail: string } {
  const empty = writeTmx([], pair);
  const body = empty.indexOf("<body>\n") + "<body>\n".length;
  return { head: empty.slice(0, body), tail: empty.slice(body) };
}

/** The `<tu>` elements writeTmx writes for `units` of `pair`. */
function tmxUnits(units: readonly MemoryUnit[], pair: LanguagePair): string {
  const skeleton = tmxSkeleton(pair);
  const file = writeTmx(units, pair);
  return file.slice(skeleton.head.length, file.length - skeleton.tail.length);
}

/** Chunks of text, then a file's bytes, as one stream's chunks. */
async function* joined(parts: readonly (string | { file: string })[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    if (typeof part === "string") yield Buffer.from(part, "utf8");
    else for await (const chunk of createReadStream(part.file)) yield chunk as Buffer;
  }
}

/**
 * The corpus-wide files of one export (decision 035), written audio by audio into a temporary
 * folder: `segments.tsv` (a header of SEGMENT_COLUMNS, then a row per segment of every exported
 * audio, in the order of the audios' files) and `translation-memory.tmx` (TMX 1.4b, writeTmx: a
 * `<tu>` per segment with a source and a translation, `tuid` its grid row's id when it is one,
 * `creationdate` the transcript's approval, `x-audio` and `x-speaker` props). Call `add` for each
 * audio, then `files()` once all are added, and `dispose()` at the end, whatever happened.
 */
export class CorpusFiles {
  private readonly pairs = new Map<string, LanguagePair>();
  private constructor(
    private readonly dir: string,
    private readonly fallbackPair: LanguagePair,
  ) {}

  /** A new, empty pair of files in a new temporary folder; `fallbackPair` heads the TMX when no audio is added. */
  static async create(fallbackPair: LanguagePair): Promise<CorpusFiles> {
    return new CorpusFiles(await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-export-")), fallbackPair);
  }

  private get tsvPath() {
    return path.join(this.dir, "segments.tsv");
  }
  private get tmxPath() {
    return path.join(this.dir, "units.tmx");
  }

  /**
   * Adds one exported audio: its audio file's path in the zip, its duration (ms, null when not
   * known), the participant as of the session, the approval of its transcript, its translation
   * (audioTranslation) and its stored transcript. Its segments with a source or a translation
   * become `segments.tsv` rows, their offset and duration the span its CHAT file bullets
   * (chatSegmentSpans: within the audio's duration when known, empty when not known); without
   * segments, each paragraph of the transcript is a row with an empty source (paragraphSpans). Its
   * segments with both become TMX units of its pair.
   */
  async add(entry: {
    audioFile: string;
    durationMs: number | null;
    participant: ParticipantAtSession;
    approvedAt: Date | null;
    transcriptText: string;
    translation: AudioTranslation;
  }): Promise<void> {
    const { translation, participant } = entry;
    const rows: { speaker: string; span: ChatSpan | null; source: string; target: string }[] = [];
    if (translation.segments) {
      const spans = chatSegmentSpans(translation.segments, entry.durationMs);
      translation.segments.forEach((segment, i) => {
        if (segment.source.trim() === "" && segment.target.trim() === "") return;
        rows.push({ speaker: segment.speaker, span: spans[i] ?? null, source: segment.source, target: segment.target });
      });
    } else {
      const paragraphs = parseTranscript(entry.transcriptText);
      const spans = paragraphSpans(
        paragraphs.map((p) => p.startMs),
        entry.durationMs,
      );
      paragraphs.forEach((paragraph, i) => {
        if (paragraph.text.trim() === "") return;
        rows.push({ speaker: paragraph.speaker, span: spans[i] ?? null, source: "", target: paragraph.text });
      });
    }
    const tsv = rows
      .map((row) =>
        tsvLine([
          entry.audioFile,
          row.span?.startMs ?? null,
          row.span ? row.span.endMs - row.span.startMs : null,
          row.speaker,
          participant.code,
          participant.group,
          row.source.trim(),
          row.target.trim(),
        ]),
      )
      .join("");
    if (tsv !== "") await fs.appendFile(this.tsvPath, tsv, "utf8");

    const { pair } = translation;
    const units: MemoryUnit[] = (translation.segments ?? [])
      .filter((segment) => segment.source.trim() !== "" && segment.target.trim() !== "")
      .map((segment) => ({
        source: segment.source.trim(),
        target: segment.target.trim(),
        sourceLanguage: pair.source,
        targetLanguage: pair.target,
        ...(segment.id !== null ? { id: segment.id } : {}),
        ...(entry.approvedAt ? { createdAt: entry.approvedAt } : {}),
        props: { audio: entry.audioFile, speaker: segment.speaker },
      }));
    if (units.length > 0) {
      this.pairs.set(`${pair.source}>${pair.target}`, pair);
      await fs.appendFile(this.tmxPath, tmxUnits(units, pair), "utf8");
    }
  }

  /**
   * The two files, to be written after every audio's files: `segments.tsv` and
   * `translation-memory.tmx`, whose header's `srclang` is the source language of its units (of the
   * programme's pair when it has none), or `*all*` (TMX's word for several) when they have several.
   * `source` names them for export_files: never the same twice, so they are always written anew.
   */
  async files(exportId: string): Promise<Array<Omit<DatasetFile, "known"> & { source: string }>> {
    const exists = async (file: string) =>
      fs.stat(file).then(
        () => true,
        () => false,
      );
    const tsvBody = (await exists(this.tsvPath)) ? [{ file: this.tsvPath }] : [];
    const tmxBody = (await exists(this.tmxPath)) ? [{ file: this.tmxPath }] : [];
    const pairs = [...this.pairs.values()];
    const sources = new Set(pairs.map((pair) => pair.source));
    const first = pairs[0] ?? this.fallbackPair;
    const { head, tail } = tmxSkeleton(sources.size > 1 ? { source: "*all*", target: first.target } : first);
    return [
      {
        path: "segments.tsv",
        source: `segments of export ${exportId}`,
        compress: true,
        open: async () => Readable.from(joined([`${SEGMENT_COLUMNS.join("\t")}\n`, ...tsvBody])),
      },
      {
        path: "translation-memory.tmx",
        source: `translation memory of export ${exportId}`,
        compress: true,
        open: async () => Readable.from(joined([head, ...tmxBody, tail])),
      },
    ];
  }

  /** Removes the temporary folder. */
  async dispose(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}
