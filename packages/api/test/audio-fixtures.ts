import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { SessionUser } from "../src/context";
import type { TestHarness } from "../src/testing/harness";
import { sniffAudio } from "../src/uploads/file-rules";
import { createAudio, type TempUpload } from "../src/uploads/store-upload";

/**
 * Audio files made during the test run with ffmpeg (ARCHITECTURE "Long recordings and the
 * corpus": the waveform tests), each of a known duration, sample rate and channel count: silent
 * for its first half, loud in its second (a 440 Hz tone at 0.8 on the first channel, 660 Hz at 0.5
 * on the second), so its peaks can be checked against the signal.
 */

const run = promisify(execFile);

/** A fixture's format: what the upload accepts and ffmpeg can make. */
export type FixtureFormat = "mp3" | "wav" | "flac" | "vorbis" | "opus";

export interface AudioFixtureSpec {
  format: FixtureFormat;
  sampleRate: number;
  channels: 1 | 2;
  /** Seconds; the first half is silent. */
  seconds: number;
}

/** A made fixture: its spec, where it is and its file name. */
export interface AudioFixture extends AudioFixtureSpec {
  file: string;
  name: string;
}

/** The amplitude of the loud half's first channel (the second's is 0.5). */
export const LOUD_AMPLITUDE = 0.8;

/** Every format the upload accepts that ffmpeg makes, each at a sample rate and channel count of its own. */
export const FIXTURE_SPECS: readonly AudioFixtureSpec[] = [
  { format: "mp3", sampleRate: 44_100, channels: 2, seconds: 2 },
  { format: "wav", sampleRate: 16_000, channels: 1, seconds: 2 },
  { format: "flac", sampleRate: 32_000, channels: 2, seconds: 2 },
  { format: "vorbis", sampleRate: 22_050, channels: 1, seconds: 2 },
  { format: "opus", sampleRate: 48_000, channels: 2, seconds: 2 },
];

const CODEC: Record<FixtureFormat, { ext: string; args: string[] }> = {
  mp3: { ext: ".mp3", args: ["-c:a", "libmp3lame", "-b:a", "128k"] },
  wav: { ext: ".wav", args: ["-c:a", "pcm_s16le"] },
  flac: { ext: ".flac", args: ["-c:a", "flac"] },
  vorbis: { ext: ".ogg", args: ["-c:a", "libvorbis"] },
  opus: { ext: ".ogg", args: ["-c:a", "libopus", "-f", "ogg"] },
};

/** Makes the fixture `spec` in `dir` with ffmpeg (a few tenths of a second each). */
export async function makeAudioFixture(dir: string, spec: AudioFixtureSpec): Promise<AudioFixture> {
  const half = spec.seconds / 2;
  const first = `${LOUD_AMPLITUDE}*gte(t,${half})*sin(2*PI*440*t)`;
  const second = `0.5*gte(t,${half})*sin(2*PI*660*t)`;
  const exprs = spec.channels === 2 ? `${first}|${second}` : first;
  const { ext, args } = CODEC[spec.format];
  const name = `${spec.format}-${spec.sampleRate}-${spec.channels}ch${ext}`;
  const file = path.join(dir, name);
  await run("ffmpeg", [
    ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi"],
    ...["-i", `aevalsrc='${exprs}':s=${spec.sampleRate}:d=${spec.seconds}`],
    ...args,
    file,
  ]);
  return { ...spec, file, name };
}

/**
 * A file the upload's content sniffing takes for MP3 (a valid MPEG-1 Layer III frame header) that
 * is garbage after those four bytes; written to `dir`.
 */
export async function makeCorruptMp3(dir: string): Promise<string> {
  const file = path.join(dir, "corrupt.mp3");
  await fs.writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), randomBytes(64 * 1024)]));
  return file;
}

/** Hands `file` to the upload service as the REST layer would: copied to a temp path, its type sniffed from its content. */
export async function tempUploadOf(h: TestHarness, file: string): Promise<TempUpload> {
  const kind = await sniffAudio(file);
  if (!kind) throw new Error(`the upload would refuse ${file}`);
  const tempFile = h.deps.storage.tempPath();
  await fs.mkdir(path.dirname(tempFile), { recursive: true });
  await fs.copyFile(file, tempFile);
  return { tempFile, mimeType: kind.mimeType, extension: kind.extension, sizeBytes: (await fs.stat(file)).size };
}

let stored = 0;

/** Stores `file` as a new audio through the upload service (createAudio) under a unique filename; returns its row. */
export async function storeAudioFile(h: TestHarness, admin: SessionUser, file: string) {
  stored += 1;
  const filename = `waveform_${stored}_${path.basename(file).split(".")[0]}`;
  const { id } = await createAudio(h.deps, admin, { filename, category: "Control", file: await tempUploadOf(h, file) });
  return h.deps.db.selectFrom("audios").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}
