import { stringify } from "csv-stringify/sync";
import type { ExportedAudio } from "@tafsiri/db/repositories/exports";
import type { DatasetFileRecord, DatasetTextFile } from "./dataset-zip";

/** One audio of an export and the paths of its files in the zip. */
export interface ManifestAudio {
  audio: ExportedAudio;
  files: Array<{ kind: "audio" | "transcript" | "recording"; path: string }>;
}

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
] as const;

type ManifestRow = Record<(typeof MANIFEST_COLUMNS)[number], string | number | null>;

/**
 * One audio's manifest row: its file paths (within the zip), sizes in bytes, SHA-256 (hex) and
 * the durations in seconds of the audio and of its approved recording (null while not known).
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
  const { audio } = entry;
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
  };
}

/**
 * Issue 12 Build 1: the manifests that end an export's zip, one row per audio (MANIFEST_COLUMNS:
 * audio id, file name, category, assignee, recorder, approval dates as ISO times, each file's
 * path in the zip, size in bytes and SHA-256, and the durations in seconds of the audio and of the
 * approved recording): `manifest.csv` (RFC 4180, a header row, empty cells for what an audio has
 * not, a duration not known among them) and `manifest.jsonl` (one JSON object per line, null for those).
 */
export function manifestFiles(audios: ManifestAudio[], records: DatasetFileRecord[]): DatasetTextFile[] {
  const written = new Map(records.map((r) => [r.path, r]));
  const rows = audios.map((entry) => manifestRow(entry, written));
  const csv = stringify(rows, { header: true, columns: [...MANIFEST_COLUMNS], record_delimiter: "\r\n" });
  const jsonl = rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length > 0 ? "\n" : "");
  return [
    { path: "manifest.csv", text: csv },
    { path: "manifest.jsonl", text: jsonl },
  ];
}
