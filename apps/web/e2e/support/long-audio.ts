import { spawn } from "node:child_process";
import { copyFile, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Category } from "@tafsiri/db";
import { processPendingWaveforms, type WaveformRoundReport } from "@tafsiri/api";
import { createAudio } from "@tafsiri/api/testing/services";
import type { TestServer, TestUser } from "./server";

/**
 * Long recordings for the browser tests (ARCHITECTURE "Long recordings and the corpus"): made with
 * ffmpeg in the test run (nothing large is kept in the repository), stored as audios, and given
 * their waveform by the server's waveform job.
 */

/** Runs ffmpeg with `args`; rejects with the tail of its error output when it fails. */
function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${stderr}`))));
  });
}

/**
 * Writes to `file` an MP3 of `seconds` (mono, CBR; by default 44.1 kHz at 128 kbit/s, about 16 KB a
 * second): a 220 Hz tone whose loudness swells and fades over 20 s, silent for the last 15 s of
 * every minute, so its waveform has loud, quiet and silent parts. An hour at 16 kHz and 40 kbit/s
 * (5 KB a second) takes ffmpeg about 5 s.
 */
export async function makeLongMp3(
  file: string,
  seconds: number,
  { sampleRate = 44_100, bitrate = "128k" }: { sampleRate?: number; bitrate?: string } = {},
): Promise<void> {
  await ffmpeg([
    "-y",
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=220:sample_rate=${sampleRate}:duration=${seconds}`,
    "-af",
    "volume='(0.15+0.85*abs(sin(PI*t/20)))*lt(mod(t,60),45)':eval=frame",
    "-ac",
    "1",
    "-c:a",
    "libmp3lame",
    "-b:a",
    bitrate,
    file,
  ]);
}

/**
 * Stores the audio file `file` as an audio named `filename` (as `admin`, through the service the
 * upload uses), like seedAudio but with any file. Returns the audio's id and storage key.
 */
export async function seedAudioFile(
  server: TestServer,
  admin: TestUser,
  audio: { filename: string; file: string; mimeType: string; category?: Category },
): Promise<{ id: string; fileKey: string }> {
  const { deps } = server.harness;
  const tempFile = deps.storage.tempPath();
  await mkdir(path.dirname(tempFile), { recursive: true });
  await copyFile(audio.file, tempFile);
  const { size } = await stat(tempFile);
  const created = await createAudio(deps, admin, {
    filename: audio.filename,
    category: audio.category ?? "Control",
    file: { tempFile, mimeType: audio.mimeType, extension: path.extname(audio.file), sizeBytes: size },
  });
  const row = await deps.db
    .selectFrom("audios")
    .select("fileKey")
    .where("id", "=", created.id)
    .executeTakeFirstOrThrow();
  return { id: created.id, fileKey: row.fileKey };
}

/**
 * Runs the server's waveform job once over every pending audio and translated recording
 * (processPendingWaveforms: decodes each file, stores its peaks as `{fileKey}.peaks.dat` and marks
 * it ready, or failed), as the running server does after an upload. Returns what it did.
 */
export function prepareWaveforms(server: TestServer): Promise<WaveformRoundReport> {
  const { db, storage } = server.harness.deps;
  return processPendingWaveforms({ db, storage });
}

/**
 * Marks the audio's waveform 'failed', as the waveform job does for a file its decoder cannot read
 * (a file Chromium plays but the decoder refuses is hard to come by, so the row is set directly).
 */
export async function markWaveformFailed(server: TestServer, audioId: string): Promise<void> {
  await server.harness.deps.db
    .updateTable("audios")
    .set({ waveformStatus: "failed" })
    .where("id", "=", audioId)
    .execute();
}
