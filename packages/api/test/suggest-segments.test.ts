import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/errors/app-error";
import { describeError } from "../src/errors/describe-error";
import { segmentsOfFile } from "../src/segments/suggest-segments";
import { makeCorruptMp3, storeAudioFile } from "./audio-fixtures";
import { harnessWithUsers, recommend } from "./workflow-fixtures";

/**
 * Decision 024, "Who spoke, when": transcripts.suggestSegments finds the speech in a recording with
 * Silero VAD on the server. A recording made now with espeak-ng and sox (half a second of silence,
 * then three spoken sentences each followed by 1.5 s of silence; the sentences' start and end times
 * computed from the pieces' durations with soxi), stored as MP3 and as WAV (also at 8 kHz, and as
 * 48 kHz stereo MP3) through the upload service, gives exactly three segments starting and ending
 * within 300 ms of the truth. An hour of tone and silence finishes with the process's memory
 * bounded; a corrupt file, an unloadable model, other callers and bad ids each get their clear
 * answer.
 */

const run = promisify(execFile);
const { h, admin, staff, other } = await harnessWithUsers();

const SENTENCES = [
  "The weather was very pleasant this morning",
  "My grandmother used to grow tomatoes in the garden",
  "We walked to the market and bought some bread",
];
const LEAD_SECONDS = 0.5;
const GAP_SECONDS = 1.5;
/** How far a suggested start or end may be from the truth. */
const TOLERANCE_MS = 300;

let dir = "";
/** Where each sentence starts and ends in the made recording, in ms. */
const truth: { startMs: number; endMs: number }[] = [];
const files = { mp3: "", wav: "", "8 kHz wav": "", "48 kHz stereo mp3": "", hour: "", corrupt: "" };

/** Seconds of the audio file `file`, as soxi reads them. */
async function soxDuration(file: string): Promise<number> {
  const { stdout } = await run("soxi", ["-D", file]);
  return Number(stdout.trim());
}

/** `seconds` of silence at 22,050 Hz mono (espeak-ng's format), written to `file`. */
async function silence(file: string, seconds: number): Promise<string> {
  await run("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", file, "trim", "0", String(seconds)]);
  return file;
}

/**
 * Speaks the sentences with espeak-ng, trims each one's leading and trailing silence, joins them
 * with silences into speech.wav (and speech.mp3 from it), and records where each sentence lies.
 */
async function makeSpeechRecording(): Promise<void> {
  const pieces = [await silence(path.join(dir, "lead.wav"), LEAD_SECONDS)];
  const gap = await silence(path.join(dir, "gap.wav"), GAP_SECONDS);
  let at = LEAD_SECONDS;
  for (const [i, sentence] of SENTENCES.entries()) {
    const spoken = path.join(dir, `spoken-${i}.wav`);
    const trimmed = path.join(dir, `sentence-${i}.wav`);
    await run("espeak-ng", ["-w", spoken, sentence]);
    const trim = ["silence", "1", "0.02", "0.5%"];
    await run("sox", [spoken, trimmed, ...trim, "reverse", ...trim, "reverse"]);
    const seconds = await soxDuration(trimmed);
    truth.push({ startMs: Math.round(at * 1000), endMs: Math.round((at + seconds) * 1000) });
    at += seconds + GAP_SECONDS;
    pieces.push(trimmed, gap);
  }
  files.wav = path.join(dir, "speech.wav");
  await run("sox", [...pieces, files.wav]);
  const encode = async (name: string, args: string[]) => {
    const file = path.join(dir, name);
    await run("ffmpeg", ["-loglevel", "error", "-y", "-i", files.wav, ...args, file]);
    return file;
  };
  files.mp3 = await encode("speech.mp3", ["-c:a", "libmp3lame", "-b:a", "64k"]);
  // A telephone rate (resampled up to the model's 16 kHz) and two channels at 48 kHz (mixed down).
  files["8 kHz wav"] = await encode("speech-8k.wav", ["-ar", "8000", "-c:a", "pcm_s16le"]);
  files["48 kHz stereo mp3"] = await encode("speech-48k.mp3", ["-ar", "48000", "-ac", "2", "-c:a", "libmp3lame"]);
}

/** An hour of MP3 (32 kbit/s, 22,050 Hz mono): a 440 Hz tone for 10 s, silence for 10 s, and so on. */
async function makeHourOfToneAndSilence(): Promise<void> {
  files.hour = path.join(dir, "hour.mp3");
  await run("ffmpeg", [
    ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi"],
    ...["-i", "sine=frequency=440:sample_rate=22050:duration=3600"],
    ...["-af", "volume='lt(mod(t,20),10)':eval=frame", "-ac", "1", "-c:a", "libmp3lame", "-b:a", "32k"],
    files.hour,
  ]);
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-segments-"));
  await makeSpeechRecording();
  await makeHourOfToneAndSilence();
  files.corrupt = await makeCorruptMp3(dir);
}, 120_000);
afterAll(async () => {
  await h.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** Stores `file` as a new audio and assigns it to `staff`; returns the audio's row. */
async function assignedRecording(file: string) {
  const audio = await storeAudioFile(h, admin, file);
  await h.caller(admin).tasks.assign({ audioId: audio.id, staffId: staff.id });
  return audio;
}

/** What `call` rejects with: its tRPC code, HTTP status and the message a client is answered. */
async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(error)}`);
  return { code: error.code, status: getHTTPStatusCodeFromError(error), message: describeError(error).message };
}

describe("transcripts.suggestSegments (decision 024)", () => {
  it.each(["mp3", "wav", "8 kHz wav", "48 kHz stereo mp3"] as const)(
    "suggests one segment per spoken sentence of a %s recording, each within 300 ms of the truth",
    async (format) => {
      const audio = await assignedRecording(files[format]);
      const { segments } = await h.caller(staff).transcripts.suggestSegments({ audioId: audio.id });
      expect(segments).toHaveLength(SENTENCES.length);
      for (const [i, segment] of segments.entries()) {
        expect(Number.isInteger(segment.startMs) && Number.isInteger(segment.endMs)).toBe(true);
        expect(Math.abs(segment.startMs - truth[i]!.startMs)).toBeLessThanOrEqual(TOLERANCE_MS);
        expect(Math.abs(segment.endMs - truth[i]!.endMs)).toBeLessThanOrEqual(TOLERANCE_MS);
        if (i > 0) expect(segment.startMs).toBeGreaterThan(segments[i - 1]!.endMs);
      }
    },
  );

  it("answers a second click at once from the cache, and the admin and a recommended staff member alike", async () => {
    const audio = await assignedRecording(files.wav);
    const [first, concurrent] = await Promise.all([
      h.caller(staff).transcripts.suggestSegments({ audioId: audio.id }),
      h.caller(staff).transcripts.suggestSegments({ audioId: audio.id }),
    ]);
    expect(concurrent).toEqual(first);
    const started = performance.now();
    const again = await h.caller(staff).transcripts.suggestSegments({ audioId: audio.id });
    const elapsedMs = performance.now() - started;
    expect(again).toEqual(first);
    expect(elapsedMs).toBeLessThan(100);
    expect(await h.caller(admin).transcripts.suggestSegments({ audioId: audio.id })).toEqual(first);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "PAR: habari" });
    await recommend(h, audio.id, other, admin);
    expect(await h.caller(other).transcripts.suggestSegments({ audioId: audio.id })).toEqual(first);
  });

  it("finds no speech in an hour of tone and silence, with the process's memory bounded", async () => {
    const audio = await assignedRecording(files.hour);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const started = performance.now();
    try {
      const { segments } = await h.caller(staff).transcripts.suggestSegments({ audioId: audio.id });
      expect(segments).toEqual([]);
    } finally {
      clearInterval(sampler);
    }
    const growthMb = (peak - before) / 1e6;
    console.info(
      `suggestSegments on an hour of MP3: ${((performance.now() - started) / 1000).toFixed(1)} s, RSS growth ${growthMb.toFixed(1)} MB`,
    );
    // The hour's samples at 16 kHz alone would be 230 MB as 32-bit floats.
    expect(growthMb).toBeLessThan(200);
  }, 600_000);

  it("answers 422 'This recording could not be read to suggest segments.' for a corrupt file", async () => {
    const audio = await assignedRecording(files.corrupt);
    expect(await failure(h.caller(staff).transcripts.suggestSegments({ audioId: audio.id }))).toEqual({
      code: "UNPROCESSABLE_CONTENT",
      status: 422,
      message: "This recording could not be read to suggest segments.",
    });
  });

  it("answers 503 'Segment suggestions are not available on this server.' when the model's native module cannot load", async () => {
    const audio = await assignedRecording(files.wav);
    // A stand-in for onnxruntime-node whose native binding is not a loadable library (as on a
    // platform its package has no binary for): requiring it throws in the worker, as dlopen does.
    const brokenRuntime = path.join(dir, "broken-runtime");
    await fs.mkdir(brokenRuntime, { recursive: true });
    await fs.writeFile(path.join(brokenRuntime, "onnxruntime_binding.node"), "not a shared library");
    await fs.writeFile(path.join(brokenRuntime, "index.cjs"), 'require("./onnxruntime_binding.node");\n');
    const error = await segmentsOfFile(h.deps.storage, audio.fileKey, audio.mimeType, {
      vadModule: path.join(brokenRuntime, "index.cjs"),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "Segment suggestions are not available on this server.",
    });
    expect(describeError(error).httpStatus).toBe(503);
    // The cause is the loader's refusal of the binding file (dlopen's message names it).
    expect(String((error as AppError).cause)).toMatch(/onnxruntime_binding\.node/);
    // The server goes on: the same file with the real model.
    const { segments } = await h.caller(staff).transcripts.suggestSegments({ audioId: audio.id });
    expect(segments).toHaveLength(SENTENCES.length);
  });

  it("refuses another staff member, a caller without a session, an unknown and a malformed id", async () => {
    const audio = await assignedRecording(files.wav);
    expect(await failure(h.caller(other).transcripts.suggestSegments({ audioId: audio.id }))).toEqual({
      code: "FORBIDDEN",
      status: 403,
      message: "You do not have access to this audio.",
    });
    expect(await failure(h.caller(null).transcripts.suggestSegments({ audioId: audio.id }))).toEqual({
      code: "UNAUTHORIZED",
      status: 401,
      message: "You must be signed in.",
    });
    expect(
      await failure(h.caller(staff).transcripts.suggestSegments({ audioId: "00000000-0000-4000-8000-000000000000" })),
    ).toEqual({ code: "NOT_FOUND", status: 404, message: "Audio not found." });
    expect(await failure(h.caller(staff).transcripts.suggestSegments({ audioId: "not-an-id" }))).toEqual({
      code: "BAD_REQUEST",
      status: 400,
      message: "Unknown id.",
    });
  });
});
