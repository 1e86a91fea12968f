import { createHash } from "node:crypto";
import { createReadStream, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import {
  chatFile,
  chatSegmentSpans,
  translatedRecordingTranscript,
  type ChatSettings,
  type ChatSpan,
  type ChatTranscript,
  type LanguagePair,
} from "@tafsiri/domain";
import type { ExportedAudio } from "@tafsiri/db/repositories/exports";
import type { RecordingSpan } from "@tafsiri/db/repositories/translation/recording-spans";
import type { DatasetFile } from "./dataset-zip";
import type { ParticipantAtSession } from "./participant-data";
import type { AudioTranslation } from "./translation-files";

/**
 * The parallel speech corpus of a dataset export (decision 035; docs/corpus.md, "Parallel speech
 * corpus"): each approved translated recording's own CHAT file (the translation on the main tier,
 * bulleted into the recording), and per language pair under `parallel/{src}-{tgt}/` a MuST-C-style
 * `segments.yaml` with the line-aligned `segments.{src}` and `segments.{tgt}`, and a CoVoST-style
 * `covost.tsv`. The pair files grow audio by audio in a temporary folder, as CorpusFiles' do, so an
 * export never holds them in memory (decision 019).
 */

/** The columns of `covost.tsv`, in order. */
const COVOST_COLUMNS = [
  "path",
  "offset_ms",
  "duration_ms",
  "sentence",
  "translation",
  "client_id",
  "tgt_path",
  "tgt_offset_ms",
  "tgt_duration_ms",
  "speaker",
  "group",
  "split",
] as const;

/** The split every `covost.tsv` row has: Tafsiri makes no held-out split (docs/corpus.md). */
const SPLIT = "train";

/** An audio's approved translated recording in the export: its path in the zip and its CHAT transcript. */
export interface ExportedRecording {
  /** `{category}/{filename}/{filename}_TRANSLATEDAUDIO{.ext}`. */
  path: string;
  /** Its storage key. */
  key: string;
  /** translatedRecordingTranscript's answer; null when the audio has no segment to pair. */
  transcript: ChatTranscript | null;
}

/** The name of an approved translated recording in the zip, without extension: `{filename}_TRANSLATEDAUDIO`. */
const recordingName = (filename: string) => `${filename}_TRANSLATEDAUDIO`;

/** A file name's extension in lower case, with its dot (`.WAV` → `.wav`); "" without one. */
const extname = (name: string) => path.posix.extname(name).toLowerCase();

/**
 * An audio's approved translated recording (null without one) as the export writes it (decision
 * 035): its path in the zip, and the CHAT transcript of its own `.cha` (translatedRecordingTranscript):
 * `transcript` is what the audio's `.cha` is written from (chatFile's input), `translation` its
 * segments with their grid rows' ids (same order), `spans` its grid rows' spans in the recording
 * (currentRecordingSpans; a segment that is no grid row, or a row without a span, has no bullet).
 * The bullets end by the last whole ms of the recording's duration as the waveform job measured
 * it; while that is not known, the spans are taken as stored (measured on the recording when it
 * was assembled, or confirmed by staff).
 */
export function exportedRecording(
  audio: ExportedAudio,
  transcript: ChatTranscript,
  translation: AudioTranslation,
  spans: readonly RecordingSpan[] | undefined,
): ExportedRecording | null {
  const key = audio.recordingKey;
  if (!key) return null;
  const zipPath = `${audio.category}/${audio.filename}/${recordingName(audio.filename)}${extname(key)}`;
  if (!translation.segments) return { path: zipPath, key, transcript: null };
  const seconds = audio.recordingDurationSeconds;
  const byRow = new Map((spans ?? []).map((span) => [span.segmentId, span]));
  const recorded = translatedRecordingTranscript(transcript, {
    mediaName: recordingName(audio.filename),
    durationMs: seconds === null ? null : Math.floor(seconds * 1000 + 1e-6),
    spans: translation.segments.map(({ id }) => {
      const span = id === null ? undefined : byRow.get(id);
      return span ? { startMs: span.startMs, endMs: span.endMs } : null;
    }),
  });
  return { path: zipPath, key, transcript: recorded };
}

/**
 * The translated recording's own CHAT file (decision 035), beside it: `{filename}_TRANSLATEDAUDIO.cha`
 * (the recording's path with `.cha`), written by chatFile with `chat`; its source for export_files
 * names the recording's key and a hash of everything it is written from, so a changed span or
 * text writes it again. Null when the recording has no transcript.
 */
export function recordingChatFile(
  recording: ExportedRecording | null,
  chat: ChatSettings,
): (Omit<DatasetFile, "known"> & { source: string; kind: "recording-transcript" }) | null {
  const transcript = recording?.transcript;
  if (!recording || !transcript) return null;
  const hash = createHash("sha256")
    .update(JSON.stringify([chat, transcript]))
    .digest("hex")
    .slice(0, 32);
  return {
    kind: "recording-transcript",
    path: `${recording.path.slice(0, recording.path.length - extname(recording.path).length)}.cha`,
    source: `${recording.key} as CHAT ${hash}`,
    compress: false,
    open: async () => Readable.from([Buffer.from(chatFile(transcript, chat), "utf8")]),
  };
}

/** A text on one line: control characters and line or paragraph separators as spaces, whitespace runs collapsed. */
function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A string as a YAML double-quoted scalar: JSON's quoting (every JSON string is one), with each
 * character YAML may not carry as it is (controls, format characters, separators, non-characters)
 * escaped as `\uXXXX` too, so PyYAML and others read it back unchanged.
 */
function yamlString(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) =>
    /[\p{L}\p{M}\p{N}\p{P}\p{S}\ud800-\udfff]/u.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Milliseconds as seconds with three decimals (`2500` → `2.500`), a YAML float. */
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** A line of `covost.tsv`: empty fields for null. */
const tsvLine = (fields: readonly (string | number | null)[]) =>
  `${fields.map((field) => (field === null ? "" : oneLine(String(field)))).join("\t")}\n`;

/** One segment of the parallel corpus: its spans in the original audio and (when recorded) in the translated recording. */
interface ParallelSegment {
  span: ChatSpan;
  /** The translated recording's path in the zip and the segment's span in it; null when it has none. */
  recorded: { path: string; span: ChatSpan } | null;
  speaker: string;
  source: string;
  target: string;
}

/**
 * The parallel corpus files of one export (decision 035), written audio by audio into a temporary
 * folder, a set per language pair. Call `add` for each exported audio, then `files()` once all are
 * added, and `dispose()` at the end, whatever happened.
 */
export class ParallelCorpus {
  private readonly pairs = new Map<string, LanguagePair>();
  private constructor(private readonly dir: string) {}

  /** A new, empty corpus in a new temporary folder. */
  static async create(): Promise<ParallelCorpus> {
    return new ParallelCorpus(await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-parallel-")));
  }

  /** The temporary file `name` of the pair `key` (`{src}-{tgt}`). */
  private file(key: string, name: string): string {
    return path.join(this.dir, key, name);
  }

  /**
   * Adds one exported audio: its original audio's path in the zip and duration (ms, null when not
   * known), the participant as of the session, its translation (audioTranslation), and its approved
   * translated recording (exportedRecording; null without one). Each segment with a source and a translation (on
   * one line, not empty) and a span in the original audio (as its `.cha` bullets it:
   * chatSegmentSpans) becomes an entry of its pair's files; its span in the recording is the one
   * the recording's `.cha` bullets (null when it has none). An audio whose two languages are the
   * same is no translation and is left out.
   */
  async add(entry: {
    audioFile: string;
    durationMs: number | null;
    participant: ParticipantAtSession;
    translation: AudioTranslation;
    recording: ExportedRecording | null;
  }): Promise<void> {
    const { translation, participant, recording } = entry;
    const { pair } = translation;
    if (!translation.segments || pair.source === pair.target) return;
    const spans = chatSegmentSpans(translation.segments, entry.durationMs);
    const recordedSegments = recording?.transcript?.segments ?? null;
    const recorded = recordedSegments
      ? chatSegmentSpans(recordedSegments, recording?.transcript?.durationMs ?? null)
      : [];
    const segments: ParallelSegment[] = [];
    translation.segments.forEach((segment, i) => {
      const span = spans[i];
      const source = oneLine(segment.source);
      const target = oneLine(segment.target);
      if (!span || source === "" || target === "") return;
      const spoken = recorded[i];
      segments.push({
        span,
        recorded: spoken && recording ? { path: recording.path, span: spoken } : null,
        speaker: segment.speaker,
        source,
        target,
      });
    });
    if (segments.length === 0) return;

    const key = `${pair.source}-${pair.target}`;
    if (!this.pairs.has(key)) {
      await fs.mkdir(path.join(this.dir, key));
      await fs.writeFile(this.file(key, "covost.tsv"), `${COVOST_COLUMNS.join("\t")}\n`, "utf8");
      this.pairs.set(key, pair);
    }
    const yaml = segments.map((s) => {
      const fields = [
        `wav: ${yamlString(entry.audioFile)}`,
        `offset: ${seconds(s.span.startMs)}`,
        `duration: ${seconds(s.span.endMs - s.span.startMs)}`,
        `tgt_wav: ${s.recorded ? yamlString(s.recorded.path) : "null"}`,
        `tgt_offset: ${s.recorded ? seconds(s.recorded.span.startMs) : "null"}`,
        `tgt_duration: ${s.recorded ? seconds(s.recorded.span.endMs - s.recorded.span.startMs) : "null"}`,
        `speaker_id: ${yamlString(s.speaker)}`,
        `participant_code: ${yamlString(participant.code)}`,
        `group: ${yamlString(participant.group)}`,
      ];
      return `- {${fields.join(", ")}}\n`;
    });
    const covost = segments.map((s) =>
      tsvLine([
        entry.audioFile,
        s.span.startMs,
        s.span.endMs - s.span.startMs,
        s.source,
        s.target,
        participant.code,
        s.recorded?.path ?? null,
        s.recorded?.span.startMs ?? null,
        s.recorded ? s.recorded.span.endMs - s.recorded.span.startMs : null,
        s.speaker,
        participant.group,
        SPLIT,
      ]),
    );
    await fs.appendFile(this.file(key, "segments.yaml"), yaml.join(""), "utf8");
    await fs.appendFile(
      this.file(key, `segments.${pair.source}`),
      segments.map((s) => `${s.source}\n`).join(""),
      "utf8",
    );
    await fs.appendFile(
      this.file(key, `segments.${pair.target}`),
      segments.map((s) => `${s.target}\n`).join(""),
      "utf8",
    );
    await fs.appendFile(this.file(key, "covost.tsv"), covost.join(""), "utf8");
  }

  /**
   * The files of every pair with an entry, to be written after the audios' files, pairs in order
   * of their key: `parallel/{src}-{tgt}/segments.yaml`, `segments.{src}`, `segments.{tgt}` and
   * `covost.tsv`. `source` names them for export_files: never the same twice, so they are always
   * written anew.
   */
  files(exportId: string): Array<Omit<DatasetFile, "known"> & { source: string }> {
    return [...this.pairs.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([key, pair]) =>
        ["segments.yaml", `segments.${pair.source}`, `segments.${pair.target}`, "covost.tsv"].map((name) => ({
          path: `parallel/${key}/${name}`,
          source: `parallel/${key}/${name} of export ${exportId}`,
          compress: true,
          open: async (): Promise<Readable> => createReadStream(this.file(key, name)),
        })),
      );
  }

  /** Removes the temporary folder. */
  async dispose(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}
