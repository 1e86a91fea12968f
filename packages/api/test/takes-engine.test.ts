import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, type FileStorage } from "../src/storage/file-storage";
import { analyzeTake, SILENCE_DBFS, SILENCE_FRAME_MS, TakeDecodeError } from "../src/takes/analyze-take";
import { ASSEMBLED_SAMPLE_RATE, assembleRecording } from "../src/takes/assemble-recording";

/**
 * Decision 035 (a segment's spoken translation is a take; the SPEC's translated recording is
 * assembled from the takes), ARCHITECTURE "Long recordings and the corpus": the takes engine on
 * real local-disk storage, with takes made now by espeak-ng (22,050 Hz mono WAV), sox (44,100 Hz
 * stereo, 2 s of silence, 4 s of silence between two sentences, a take amplified until it clips)
 * and ffmpeg (MP3). analyzeTake measures each as sox does; assembleRecording writes five of them
 * into one 16 kHz mono WAV that soxi reads, with every take where its span says and exactly 300 ms
 * of digital silence between them; an undecodable take is refused with a clear error naming it,
 * and an aborted or refused assembly leaves no file behind.
 */

const run = promisify(execFile);

const SENTENCES = [
  "The weather was very pleasant this morning",
  "My grandmother used to grow tomatoes in the garden",
  "We walked to the market and bought some bread",
];
/** How far analyzeTake's duration may be from soxi's, ms. */
const DURATION_TOLERANCE_MS = 30;
const GAP_MS = 300;

let dir = "";
let storage: FileStorage;
/** The takes made for the tests: file on disk, storage key, type. */
const takes: Record<string, { file: string; fileKey: string; mimeType: string }> = {};

/** Seconds of the audio file `file`, as soxi reads them. */
async function soxSeconds(file: string): Promise<number> {
  const { stdout } = await run("soxi", ["-D", file]);
  return Number(stdout.trim());
}

/** Largest |sample| of `seconds` of `file` from `startSeconds` on, as sox's stat reads it (0 to 1). */
async function maxAmplitude(file: string, startSeconds: number, seconds: number): Promise<number> {
  const { stderr } = await run("sox", [file, "-n", "trim", String(startSeconds), String(seconds), "stat"]);
  const found = /Maximum amplitude:\s+([-\d.]+)/.exec(stderr);
  if (!found) throw new Error(`sox stat said: ${stderr}`);
  return Number(found[1]);
}

/** Stores `file` under `takes/<name>` and remembers it as take `name`. */
async function store(name: string, file: string, mimeType: string): Promise<void> {
  const fileKey = `takes/${name}${path.extname(file)}`;
  await storage.put(fileKey, await fs.readFile(file));
  takes[name] = { file, fileKey, mimeType };
}

/** Speaks `sentence` with espeak-ng into `name`.wav (22,050 Hz mono), its leading and trailing silence trimmed. */
async function spoken(name: string, sentence: string): Promise<string> {
  const raw = path.join(dir, `${name}-raw.wav`);
  const file = path.join(dir, `${name}.wav`);
  await run("espeak-ng", ["-w", raw, sentence]);
  const trim = ["silence", "1", "0.02", "0.5%"];
  await run("sox", [raw, file, ...trim, "reverse", ...trim, "reverse"]);
  return file;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-takes-"));
  storage = createLocalStorage(path.join(dir, "files"));
  const [first, second, third] = await Promise.all(SENTENCES.map((sentence, i) => spoken(`sentence-${i}`, sentence)));
  await store("speech", first!, "audio/wav");
  await store("speech-2", third!, "audio/wav");

  const stereo = path.join(dir, "stereo-44k.wav");
  await run("sox", [second!, "-r", "44100", "-c", "2", stereo]);
  await store("stereo-44k", stereo, "audio/wav");

  const mp3 = path.join(dir, "speech.mp3");
  await run("ffmpeg", ["-loglevel", "error", "-y", "-i", third!, "-c:a", "libmp3lame", "-b:a", "64k", mp3]);
  await store("mp3", mp3, "audio/mpeg");

  const silent = path.join(dir, "silent.wav");
  await run("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", silent, "trim", "0", "2"]);
  await store("silent", silent, "audio/wav");

  const fourSeconds = path.join(dir, "four-seconds.wav");
  await run("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", fourSeconds, "trim", "0", "4"]);
  const pause = path.join(dir, "pause.wav");
  await run("sox", [first!, fourSeconds, second!, pause]);
  await store("pause", pause, "audio/wav");

  const clipped = path.join(dir, "clipped.wav");
  // sox warns that it clipped samples: that is the point.
  await run("sox", [first!, clipped, "gain", "30"]);
  await store("clipped", clipped, "audio/wav");

  const noise = path.join(dir, "noise.wav");
  await fs.writeFile(noise, randomBytes(20_000));
  await store("noise", noise, "audio/wav");
}, 60_000);

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("analyzeTake (decision 035)", () => {
  it.each([
    ["speech", 22_050],
    ["stereo-44k", 44_100],
  ])("measures the %s take's duration within 30 ms of soxi's, at its own rate", async (name, rate) => {
    const take = takes[name]!;
    const measures = await analyzeTake(storage, take.fileKey, take.mimeType);
    expect(measures.sampleRate).toBe(rate);
    expect(Math.abs(measures.durationMs - (await soxSeconds(take.file)) * 1000)).toBeLessThanOrEqual(
      DURATION_TOLERANCE_MS,
    );
    // Speech: loud but not clipping, and no silence inside a sentence nearly as long as a pause.
    expect(measures.peakDbfs).toBeLessThan(-0.5);
    expect(measures.peakDbfs).toBeGreaterThan(-12);
    expect(measures.rmsDbfs).toBeGreaterThan(SILENCE_DBFS);
    expect(measures.rmsDbfs).toBeLessThan(measures.peakDbfs);
    expect(measures.longestSilenceMs).toBeLessThan(1000);
    expect(measures.longestSilenceMs % SILENCE_FRAME_MS).toBeLessThanOrEqual(1);
  });

  it("decodes an MP3 take to its source's duration (the encoder's delay and padding taken off)", async () => {
    const measures = await analyzeTake(storage, takes.mp3!.fileKey, "audio/mpeg");
    expect(measures.sampleRate).toBe(22_050);
    expect(Math.abs(measures.durationMs - (await soxSeconds(takes["speech-2"]!.file)) * 1000)).toBeLessThanOrEqual(
      DURATION_TOLERANCE_MS,
    );
  });

  it("reads 2 s of digital silence as silence: RMS below -80 dBFS, and no silence inside it", async () => {
    const measures = await analyzeTake(storage, takes.silent!.fileKey, "audio/wav");
    expect(measures.durationMs).toBe(2000);
    expect(measures.rmsDbfs).toBeLessThan(-80);
    expect(measures.peakDbfs).toBeLessThan(-80);
    expect(measures.longestSilenceMs).toBe(0);
  });

  it("finds the 4 s pause between two spoken sentences (3,700 to 4,300 ms)", async () => {
    const measures = await analyzeTake(storage, takes.pause!.fileKey, "audio/wav");
    expect(measures.longestSilenceMs).toBeGreaterThanOrEqual(3700);
    expect(measures.longestSilenceMs).toBeLessThanOrEqual(4300);
  });

  it("reads a take amplified until it clips as peaking at full scale (above -0.5 dBFS)", async () => {
    const measures = await analyzeTake(storage, takes.clipped!.fileKey, "audio/wav");
    expect(measures.peakDbfs).toBeGreaterThan(-0.5);
    expect(measures.peakDbfs).toBeLessThanOrEqual(0);
  });

  it("refuses random bytes named .wav, and a type it has no decoder for, with TakeDecodeError", async () => {
    const noise = analyzeTake(storage, takes.noise!.fileKey, "audio/wav");
    await expect(noise).rejects.toBeInstanceOf(TakeDecodeError);
    await expect(noise).rejects.toThrow(/^the take cannot be decoded: /);
    await expect(analyzeTake(storage, takes.speech!.fileKey, "text/plain")).rejects.toThrow(
      new TakeDecodeError(`no decoder for text/plain (${takes.speech!.fileKey})`),
    );
  });
});

describe("assembleRecording (decision 035)", () => {
  it("writes five takes of different rates, channels and formats into one 16 kHz mono WAV, 300 ms apart", async () => {
    const order = ["speech", "stereo-44k", "mp3", "pause", "speech-2"];
    const outputPath = path.join(dir, "assembled.wav");
    const result = await assembleRecording(
      storage,
      order.map((name) => ({ fileKey: takes[name]!.fileKey, mimeType: takes[name]!.mimeType })),
      { gapMs: GAP_MS, outputPath },
    );

    // What soxi reads.
    const { stdout: rate } = await run("soxi", ["-r", outputPath]);
    const { stdout: channels } = await run("soxi", ["-c", outputPath]);
    expect(Number(rate)).toBe(ASSEMBLED_SAMPLE_RATE);
    expect(Number(channels)).toBe(1);
    expect(result.sampleRate).toBe(ASSEMBLED_SAMPLE_RATE);
    expect(result.bytes).toBe((await fs.stat(outputPath)).size);
    const seconds = await soxSeconds(outputPath);
    expect(Math.abs(result.durationMs - seconds * 1000)).toBeLessThanOrEqual(1);

    // Each take's own duration (the MP3's is its source's: the decoder takes off the encoder's
    // delay and padding, which soxi counts); the whole is their sum and the gaps, within 50 ms a join.
    const takeMs = await Promise.all(
      order.map(async (name) => (await soxSeconds(takes[name === "mp3" ? "speech-2" : name]!.file)) * 1000),
    );
    const expectedMs = takeMs.reduce((a, b) => a + b, 0) + (order.length - 1) * GAP_MS;
    expect(Math.abs(seconds * 1000 - expectedMs)).toBeLessThanOrEqual(50 * order.length);

    // The spans: in order, inside the file, each as long as its take, 300 ms (±1) apart.
    expect(result.spans).toHaveLength(order.length);
    expect(result.spans[0]!.startMs).toBe(0);
    expect(result.spans.at(-1)!.endMs).toBe(result.durationMs);
    for (const [i, span] of result.spans.entries()) {
      expect(span.endMs).toBeGreaterThan(span.startMs);
      expect(span.endMs).toBeLessThanOrEqual(seconds * 1000 + 1);
      expect(Math.abs(span.endMs - span.startMs - takeMs[i]!)).toBeLessThanOrEqual(DURATION_TOLERANCE_MS);
      if (i > 0) expect(Math.abs(span.startMs - result.spans[i - 1]!.endMs - GAP_MS)).toBeLessThanOrEqual(1);
    }

    // The gaps are digital silence; each span holds its take's speech.
    for (const [i, span] of result.spans.entries()) {
      expect(await maxAmplitude(outputPath, span.startMs / 1000, (span.endMs - span.startMs) / 1000)).toBeGreaterThan(
        0.1,
      );
      const next = result.spans[i + 1];
      if (next)
        expect(await maxAmplitude(outputPath, (span.endMs + 2) / 1000, (next.startMs - span.endMs - 4) / 1000)).toBe(0);
    }
  });

  it("refuses an undecodable take with TakeDecodeError naming it, and leaves no output file", async () => {
    const outputPath = path.join(dir, "refused.wav");
    const assembly = assembleRecording(
      storage,
      ["speech", "noise", "speech-2"].map((name) => ({
        fileKey: takes[name]!.fileKey,
        mimeType: takes[name]!.mimeType,
      })),
      { gapMs: GAP_MS, outputPath },
    );
    const error = await assembly.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TakeDecodeError);
    expect((error as TakeDecodeError).takeIndex).toBe(1);
    expect((error as Error).message).toMatch(/^take 2 of 3 \(takes\/noise\.wav\) cannot be decoded: /);
    await expect(fs.access(outputPath)).rejects.toThrow(/ENOENT/);
  });

  it.each([0, 300])(
    "stops when its signal aborts %i ms in, rejecting with the signal's reason, and leaves no output file",
    async (afterMs) => {
      const outputPath = path.join(dir, `aborted-${afterMs}`, "assembled.wav");
      const controller = new AbortController();
      // 200 takes of 2.3 s: seconds of work, so an abort after 300 ms comes in the middle.
      const many = Array.from({ length: 200 }, () => ({ fileKey: takes.speech!.fileKey, mimeType: "audio/wav" }));
      const assembly = assembleRecording(storage, many, { gapMs: GAP_MS, outputPath, signal: controller.signal });
      setTimeout(() => controller.abort(new Error("the staff member recorded a new take")), afterMs);
      await expect(assembly).rejects.toThrow("the staff member recorded a new take");
      await expect(fs.access(outputPath)).rejects.toThrow(/ENOENT/);
    },
  );

  it("refuses an empty list and a negative gap before writing anything", async () => {
    const outputPath = path.join(dir, "nothing.wav");
    await expect(assembleRecording(storage, [], { gapMs: GAP_MS, outputPath })).rejects.toThrow(RangeError);
    await expect(
      assembleRecording(storage, [{ fileKey: takes.speech!.fileKey, mimeType: "audio/wav" }], {
        gapMs: -1,
        outputPath,
      }),
    ).rejects.toThrow(RangeError);
    await expect(fs.access(outputPath)).rejects.toThrow(/ENOENT/);
  });
});
