import { createReadStream, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import {
  GROUP_MEASURES,
  groupStatistics,
  MEASURED_SPEAKERS,
  PARTICIPANT_GROUPS,
  type SpeakerMeasures,
} from "@tafsiri/domain";
import { findAudio } from "@tafsiri/db/repositories/audios";
import type { ExportedAudio } from "@tafsiri/db/repositories/exports";
import { stretchesOfFile, type StoredStretches } from "@tafsiri/db/repositories/speech-measures";
import type { AppDeps } from "../context";
import { MEASURE_VAD, measuresOf, stretchesOfAudio } from "../measures/measure-audio";
import { SpeechModelUnavailableError } from "../segments/detect-speech";
import type { DatasetFile } from "./dataset-zip";
import type { ParticipantAtSession } from "./participant-data";
import type { AudioTranslation } from "./translation-files";

/**
 * The speech measures an export writes (decision 035, "Speech measures"; docs/corpus.md):
 * `measures.csv`, one row per exported recording × speaker, measured on the ORIGINAL audio with the
 * segments and spans its CHAT file bullets, and `measures-summary.csv`, per group × speaker ×
 * measure n, mean, SD, median and quartiles (groupStatistics). The rows grow audio by audio in a
 * temporary file, as CorpusFiles' do; the summary keeps only the numbers it summarises.
 */

/** The columns of `measures.csv`, in order. */
const MEASURE_COLUMNS = [
  "audio_file",
  "participant_code",
  "group",
  "speaker",
  "duration_ms",
  "speaking_ms",
  "speaking_ratio",
  "phonation_ms",
  "pause_count",
  "mean_pause_ms",
  "response_latency_ms",
  "response_count",
  "segment_count",
  "segments_per_minute",
] as const;

/** The columns of `measures-summary.csv`, in order. */
const SUMMARY_COLUMNS = ["group", "speaker", "measure", "n", "mean", "sd", "median", "q1", "q3", "iqr", "vad"] as const;

/** A number rounded to `digits` decimals, as text; "" for null. */
const fixed = (value: number | null, digits: number) => (value === null ? "" : String(Number(value.toFixed(digits))));

/** One speaker's `measures.csv` row: times in whole ms, the ratio to 4 decimals, the rate to 3. */
function measureRow(
  audioFile: string,
  participant: ParticipantAtSession,
  durationMs: number | null,
  m: SpeakerMeasures,
) {
  return [
    audioFile,
    participant.code,
    participant.group,
    m.speaker,
    fixed(durationMs, 0),
    fixed(m.speakingMs, 0),
    fixed(m.speakingRatio, 4),
    fixed(m.phonationMs, 0),
    m.pauseCount ?? "",
    fixed(m.meanPauseMs, 0),
    m.speaker === "PAR" ? fixed(m.responseLatencyMs, 0) : "",
    m.speaker === "PAR" ? m.responseCount : "",
    m.segmentCount,
    fixed(m.segmentsPerMinute, 3),
  ];
}

/**
 * The measures files of one export (decision 035). Call `add` for each exported audio, then
 * `files()` once all are added, and `dispose()` at the end, whatever happened.
 */
export class MeasuresFile {
  /** Every value summarised, by `group speaker measure`. */
  private readonly values = new Map<string, number[]>();
  private constructor(
    private readonly deps: Pick<AppDeps, "db" | "storage" | "log">,
    private readonly dir: string,
  ) {}

  /** A new, empty file in a new temporary folder. */
  static async create(deps: Pick<AppDeps, "db" | "storage" | "log">): Promise<MeasuresFile> {
    return new MeasuresFile(deps, await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-measures-")));
  }

  private get csvPath() {
    return path.join(this.dir, "measures.csv");
  }

  /**
   * The stretches of the audio's original file: stored, else found now (stretchesOfAudio, which
   * stores them), so the export is complete; null when the model cannot load here (then the
   * measures that need them are left empty, and the server log says why).
   */
  private async stretches(audio: ExportedAudio): Promise<StoredStretches | null> {
    const stored = await stretchesOfFile(this.deps.db, audio.audioKey);
    if (stored) return stored;
    const mimeType = (await findAudio(this.deps.db, audio.audioId))?.mimeType ?? "";
    try {
      return await stretchesOfAudio(this.deps, { audioId: audio.audioId, fileKey: audio.audioKey, mimeType });
    } catch (error) {
      if (!(error instanceof SpeechModelUnavailableError)) throw error;
      this.deps.log?.(`speech measures: ${audio.audioKey} not measured: ${error.message}`);
      return null;
    }
  }

  /**
   * Adds one exported audio `audio`: its audio file's path in the zip (`audioFile`, as
   * `segments.tsv` names it), the participant as of the session and its translation
   * (audioTranslation). Its measures (measuresOf, with the audio's duration as its CHAT file has
   * it) become one row per speaker who has a segment. Rejects with a storage or database error.
   */
  async add(
    audio: ExportedAudio,
    audioFile: string,
    participant: ParticipantAtSession,
    translation: AudioTranslation,
  ): Promise<void> {
    const durationMs = audio.audioDurationSeconds === null ? null : Math.round(audio.audioDurationSeconds * 1000);
    const found = (await this.stretches(audio)) ?? { status: "failed" };
    const measures = measuresOf(audio.transcriptText, translation, durationMs, found);
    if (measures.length === 0) return;
    const rows = measures.map((m) => measureRow(audioFile, participant, durationMs, m));
    await fs.appendFile(this.csvPath, stringify(rows, { record_delimiter: "\r\n" }), "utf8");
    for (const m of measures) {
      for (const measure of GROUP_MEASURES) {
        const value = m[measure];
        if (value === null) continue;
        const key = `${participant.group} ${m.speaker} ${measure}`;
        const list = this.values.get(key) ?? [];
        list.push(value);
        this.values.set(key, list);
      }
    }
  }

  /** `measures-summary.csv`: a row per group × speaker × measure with values, in that order. */
  private summary(): string {
    const rows = PARTICIPANT_GROUPS.flatMap((group) =>
      MEASURED_SPEAKERS.flatMap((speaker) =>
        GROUP_MEASURES.flatMap((measure) => {
          const values = this.values.get(`${group} ${speaker} ${measure}`);
          if (!values) return [];
          const s = groupStatistics(values);
          const iqr = s.q1 === null || s.q3 === null ? null : s.q3 - s.q1;
          const figures = [s.mean, s.sd, s.median, s.q1, s.q3, iqr].map((v) => fixed(v, 4));
          return [[group, speaker, measure, s.n, ...figures, MEASURE_VAD]];
        }),
      ),
    );
    return stringify(rows, { header: true, columns: [...SUMMARY_COLUMNS], record_delimiter: "\r\n" });
  }

  /**
   * The two files, to be written after the corpus-wide files: `measures.csv` (a header of
   * MEASURE_COLUMNS, then the rows in the order of the audios) and `measures-summary.csv`.
   * `source` names them for export_files: never the same twice, so they are always written anew.
   */
  async files(exportId: string): Promise<Array<Omit<DatasetFile, "known"> & { source: string }>> {
    const header = stringify([[...MEASURE_COLUMNS]], { record_delimiter: "\r\n" });
    const hasRows = await fs.stat(this.csvPath).then(
      () => true,
      () => false,
    );
    const csvPath = this.csvPath;
    const summary = this.summary();
    return [
      {
        path: "measures.csv",
        source: `speech measures of export ${exportId}`,
        compress: true,
        open: async () =>
          Readable.from(
            (async function* () {
              yield Buffer.from(header, "utf8");
              if (hasRows) for await (const chunk of createReadStream(csvPath)) yield chunk as Buffer;
            })(),
          ),
      },
      {
        path: "measures-summary.csv",
        source: `speech measures summary of export ${exportId}`,
        compress: true,
        open: async () => Readable.from([Buffer.from(summary, "utf8")]),
      },
    ];
  }

  /** Removes the temporary folder. */
  async dispose(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}
