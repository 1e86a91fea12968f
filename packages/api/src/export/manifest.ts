import { stringify } from "csv-stringify/sync";
import { chatAge, SCORE_INSTRUMENT_KEYS, type ScoreInstrument } from "@tafsiri/domain";
import { LEFT_OUT_REASONS, type ExportedAudio, type LeftOutCounts } from "@tafsiri/db/repositories/exports";
import type { DatasetFileRecord, DatasetTextFile } from "./dataset-zip";
import type { ParticipantAtSession } from "./participant-data";

/** One audio of an export, its participant as of the session, and the paths of its files in the zip. */
export interface ManifestAudio {
  audio: ExportedAudio;
  participant: ParticipantAtSession;
  /** Its files; (decision 035) the translated recording's own `.cha` (`recording-transcript`) has no manifest column. */
  files: Array<{ kind: "audio" | "transcript" | "recording" | "recording-transcript"; path: string }>;
}

/** What the consent gate left out of an export (decision 024). */
export interface ManifestLeftOut {
  counts: LeftOutCounts;
  /** Whether the export took participants with 'restricted' consent. */
  includeRestricted: boolean;
}

/** Each reason an audio was left out, in words, for `left_out.csv`. */
const LEFT_OUT_MEANINGS: Record<keyof LeftOutCounts, string> = {
  no_participant: "No participant is linked to the audio.",
  consent_not_recorded: "The participant's consent is not recorded.",
  consent_withdrawn: "The participant withdrew consent.",
  consent_restricted: "The participant's consent is restricted, and the export did not include restricted consent.",
};

/** The score columns of each instrument (`mmse`, `mmse_taken_on`, `moca`, …), in SCORE_INSTRUMENTS' order. */
const scoreColumn = (instrument: ScoreInstrument) => instrument.toLowerCase() as Lowercase<ScoreInstrument>;
const SCORE_COLUMNS = SCORE_INSTRUMENT_KEYS.flatMap((i) => [scoreColumn(i), `${scoreColumn(i)}_taken_on`] as const);

/** The columns of `manifest.csv`, in order; `manifest.jsonl` has the same fields on each line. */
export const MANIFEST_COLUMNS = [
  "audio_id",
  "filename",
  "category",
  "assignee",
  "recorder",
  "transcript_approved_at",
  "recording_approved_at",
  "audio_file",
  "audio_bytes",
  "audio_sha256",
  "audio_duration_seconds",
  "transcript_file",
  "transcript_bytes",
  "transcript_sha256",
  "recording_file",
  "recording_bytes",
  "recording_sha256",
  "recording_duration_seconds",
  // Decision 024: the participant recorded, as of the session.
  "session_date",
  "participant_code",
  "participant_group",
  "sex",
  "age_months",
  "age_chat",
  "education_years",
  "languages",
  ...SCORE_COLUMNS,
  "consent_status",
] as const;

type ManifestRow = Record<(typeof MANIFEST_COLUMNS)[number], string | number | null>;

/**
 * One audio's manifest row: its file paths (within the zip), sizes in bytes, SHA-256 (hex), the
 * durations in seconds of the audio and of its approved recording (null while not known), and its
 * participant as of the session (decision 024: code, group, sex, age in months and as CHAT's
 * `Y;MM.`, years of education, languages joined by `;`, each instrument's score nearest the
 * session and its day, consent) with the session day. No names exist; the notes are never written.
 */
function manifestRow(entry: ManifestAudio, written: Map<string, DatasetFileRecord>): ManifestRow {
  const file = (kind: "audio" | "transcript" | "recording") => {
    const path = entry.files.find((f) => f.kind === kind)?.path;
    const record = path === undefined ? undefined : written.get(path);
    return { path: record?.path ?? null, bytes: record?.sizeBytes ?? null, sha256: record?.sha256 ?? null };
  };
  const audioFile = file("audio");
  const transcript = file("transcript");
  const recording = file("recording");
  const { audio, participant } = entry;
  const scores = Object.fromEntries(
    SCORE_INSTRUMENT_KEYS.flatMap((i) => [
      [scoreColumn(i), participant.scores[i]?.score ?? null],
      [`${scoreColumn(i)}_taken_on`, participant.scores[i]?.takenOn ?? null],
    ]),
  ) as Record<(typeof SCORE_COLUMNS)[number], number | string | null>;
  return {
    audio_id: audio.audioId,
    filename: audio.filename,
    category: audio.category,
    assignee: audio.assignee,
    recorder: audio.recorder,
    transcript_approved_at: audio.transcriptApprovedAt?.toISOString() ?? null,
    recording_approved_at: audio.recordingApprovedAt?.toISOString() ?? null,
    audio_file: audioFile.path,
    audio_bytes: audioFile.bytes,
    audio_sha256: audioFile.sha256,
    audio_duration_seconds: audio.audioDurationSeconds,
    transcript_file: transcript.path,
    transcript_bytes: transcript.bytes,
    transcript_sha256: transcript.sha256,
    recording_file: recording.path,
    recording_bytes: recording.bytes,
    recording_sha256: recording.sha256,
    recording_duration_seconds: recording.path === null ? null : audio.recordingDurationSeconds,
    session_date: audio.sessionDate,
    participant_code: participant.code,
    participant_group: participant.group,
    sex: participant.sex,
    age_months: participant.ageMonths,
    age_chat: participant.ageMonths === null ? null : chatAge(participant.ageMonths),
    education_years: participant.educationYears,
    languages: participant.languages.length > 0 ? participant.languages.join(";") : null,
    ...scores,
    consent_status: audio.participant.consentStatus,
  };
}

/**
 * What the consent gate left out (decision 024), for people and programs: `left_out.csv` (a
 * header `reason,audios,meaning`, one row per reason, every reason listed, 0 included) and
 * `left_out.json` (`{ include_restricted, left_out: { reason: audios }, left_out_total }`).
 */
function leftOutFiles(leftOut: ManifestLeftOut): DatasetTextFile[] {
  const rows = LEFT_OUT_REASONS.map((reason) => ({
    reason,
    audios: leftOut.counts[reason],
    meaning: LEFT_OUT_MEANINGS[reason],
  }));
  const json = {
    include_restricted: leftOut.includeRestricted,
    left_out: leftOut.counts,
    left_out_total: rows.reduce((sum, row) => sum + row.audios, 0),
  };
  return [
    {
      path: "left_out.csv",
      text: stringify(rows, { header: true, columns: ["reason", "audios", "meaning"], record_delimiter: "\r\n" }),
    },
    { path: "left_out.json", text: `${JSON.stringify(json, null, 2)}\n` },
  ];
}

/**
 * The manifests that end an export's zip (after each audio's files under `{category}/{filename}/`,
 * then (decision 035) `segments.tsv` and `translation-memory.tmx`, see CorpusFiles in
 * translation-files.ts), one row per audio (MANIFEST_COLUMNS:
 * audio id, file name, category, assignee, recorder, approval dates as ISO times, each file's
 * path in the zip, size in bytes and SHA-256, the durations in seconds of the audio and of the
 * approved recording, and (decision 024) the session day and the participant's fields):
 * `manifest.csv` (RFC 4180, a header row, empty cells for what an audio has not, a duration not
 * known among them) and `manifest.jsonl` (one JSON object per line, null for those); then what the
 * consent gate left out, by reason: `left_out.csv` and `left_out.json`.
 */
export function manifestFiles(
  audios: ManifestAudio[],
  records: DatasetFileRecord[],
  leftOut: ManifestLeftOut,
): DatasetTextFile[] {
  const written = new Map(records.map((r) => [r.path, r]));
  const rows = audios.map((entry) => manifestRow(entry, written));
  const csv = stringify(rows, { header: true, columns: [...MANIFEST_COLUMNS], record_delimiter: "\r\n" });
  const jsonl = rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length > 0 ? "\n" : "");
  return [{ path: "manifest.csv", text: csv }, { path: "manifest.jsonl", text: jsonl }, ...leftOutFiles(leftOut)];
}
