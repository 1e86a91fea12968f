import { sql } from "kysely";
import type { Database } from "@tafsiri/db";
import type { FileStorage } from "@tafsiri/api";

/**
 * A mono 8-bit PCM WAV at 8 kHz: `seconds` of a sine tone at `frequency` Hz, faded in and out
 * (44-byte header plus one byte a sample; 8,044 bytes a second). Small, and every browser plays it.
 */
export function toneWav(seconds: number, frequency: number): Buffer {
  const rate = 8000;
  const samples = Math.round(seconds * rate);
  const buffer = Buffer.alloc(44 + samples);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + samples, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(rate, 24); // sample rate
  buffer.writeUInt32LE(rate, 28); // byte rate
  buffer.writeUInt16LE(1, 32); // block align
  buffer.writeUInt16LE(8, 34); // bits per sample
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(samples, 40);
  const fade = rate / 20;
  for (let i = 0; i < samples; i++) {
    const envelope = Math.min(1, i / fade, (samples - 1 - i) / fade);
    buffer.writeUInt8(Math.round(128 + 90 * envelope * Math.sin((2 * Math.PI * frequency * i) / rate)), 44 + i);
  }
  return buffer;
}

/** The file of every seeded audio: one second of A (440 Hz). */
export const AUDIO_WAV = toneWav(1, 440);
/** The file of every seeded translated recording: one second of E (660 Hz). */
export const RECORDING_WAV = toneWav(1, 660);

/** Audios whose files are written per page (their rows are read 500 at a time). */
const PAGE = 500;
/** Files written at once. */
const CONCURRENCY = 16;

/**
 * Writes a file for every storage key the rows of `audioIds` point at: the audio (AUDIO_WAV), its
 * initial transcript (a line of text), each transcript version (its text, as the app stores it)
 * and each translated recording (RECORDING_WAV), through `storage` as the app writes them; `wavs`
 * replaces the two WAVs (longer ones for the export benchmark). `onProgress` hears after each page
 * with the audios done. Resolves to the files and bytes written.
 */
export async function writeSeedFiles(
  db: Database,
  storage: FileStorage,
  audioIds: readonly string[],
  onProgress: (audiosDone: number) => void = () => undefined,
  wavs: { audio: Buffer; recording: Buffer } = { audio: AUDIO_WAV, recording: RECORDING_WAV },
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (let start = 0; start < audioIds.length; start += PAGE) {
    const ids = sql`array[${sql.join(audioIds.slice(start, start + PAGE).map((id) => sql`${id}::uuid`))}]`;
    const { rows: audios } = await sql<{ filename: string; fileKey: string; transcriptKey: string | null }>`
      select filename, file_key, transcript_key from audios where id = any(${ids})`.execute(db);
    const { rows: versions } = await sql<{ fileKey: string; text: string }>`
      select v.file_key, v.text from transcript_versions v
      join submissions s on s.id = v.submission_id join tasks t on t.id = s.task_id
      where t.audio_id = any(${ids})`.execute(db);
    const { rows: recordings } = await sql<{ fileKey: string }>`
      select r.file_key from translated_recordings r
      join submissions s on s.id = r.submission_id join tasks t on t.id = s.task_id
      where t.audio_id = any(${ids})`.execute(db);
    const writes: Array<[string, Buffer | string]> = [
      ...audios.map((a): [string, Buffer] => [a.fileKey, wavs.audio]),
      ...audios
        .filter((a) => a.transcriptKey !== null)
        .map((a): [string, string] => [
          a.transcriptKey ?? "",
          `Initial transcript of ${a.filename}, as written at the interview.\n`,
        ]),
      ...versions.map((v): [string, string] => [v.fileKey, v.text]),
      ...recordings.map((r): [string, Buffer] => [r.fileKey, wavs.recording]),
    ];
    let next = 0;
    const worker = async () => {
      while (next < writes.length) {
        const [key, body] = writes[next++]!;
        const { sizeBytes } = await storage.put(key, body);
        files += 1;
        bytes += sizeBytes;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    onProgress(Math.min(start + PAGE, audioIds.length));
  }
  return { files, bytes };
}
