import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WaveformData from "waveform-data";
import type { SessionUser } from "../src/context";
import { createHarness, type TestHarness } from "../src/testing/harness";
import type { FileStorage } from "../src/storage/file-storage";
import { sweepFiles } from "../src/storage/sweep";
import { verifyFileUrl } from "../src/services/file-urls";
import { uploadRecording } from "../src/uploads/store-upload";
import { processPendingWaveforms, type WaveformJobLog } from "../src/waveforms/waveform-job";
import { PEAKS_PER_SECOND } from "../src/waveforms/peaks-format";
import {
  FIXTURE_SPECS,
  LOUD_AMPLITUDE,
  makeAudioFixture,
  makeCorruptMp3,
  storeAudioFile,
  tempUploadOf,
  type AudioFixture,
  type FixtureFormat,
} from "./audio-fixtures";

/**
 * ARCHITECTURE "Long recordings and the corpus": waveforms computed on the server. Files made now
 * with ffmpeg in every format the upload accepts (MP3, 16-bit WAV, FLAC, Ogg Vorbis, Ogg Opus) are
 * stored through the upload service (createAudio, uploadRecording, with the upload's own content
 * sniffing), then the waveform job's round decodes them in a worker: each row is ready with its
 * duration, sample rate and channel count, and its peaks beside the file parse with BBC's
 * waveform-data at about 100 pairs a second, quiet where the file is silent and loud where it is
 * loud. A corrupt file is stored and served but 'failed'; a translated recording gets its waveform;
 * deleting an audio (also while its peaks are being stored) removes them; the file sweep keeps them.
 * On local disk and on a real S3-compatible server.
 */

let fixturesDir = "";
const fixtures = new Map<FixtureFormat, AudioFixture>();
let corruptFile = "";

beforeAll(async () => {
  fixturesDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-waveform-fixtures-"));
  for (const spec of FIXTURE_SPECS) fixtures.set(spec.format, await makeAudioFixture(fixturesDir, spec));
  corruptFile = await makeCorruptMp3(fixturesDir);
});
afterAll(() => fs.rm(fixturesDir, { recursive: true, force: true }));

/** A log that keeps its lines. */
function collectingLog(): WaveformJobLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (line) => lines.push(`info ${line}`),
    warn: (line) => lines.push(`warn ${line}`),
    error: (line) => lines.push(`error ${line}`),
  };
}

/** The stored bytes of `key`. */
async function readStored(storage: FileStorage, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of await storage.read(key)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** A peaks file parsed the way the browser parses it. */
async function parsedPeaks(storage: FileStorage, key: string): Promise<WaveformData> {
  const bytes = await readStored(storage, key);
  return WaveformData.create(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
}

function audioRow(h: TestHarness, id: string) {
  return h.deps.db.selectFrom("audios").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

describe.each(["local", "s3"] as const)("waveforms on %s storage", (backend) => {
  let h: TestHarness;
  let admin: SessionUser;
  let staff: SessionUser;
  const stored = new Map<FixtureFormat, { id: string; fileKey: string }>();
  let corrupt: { id: string; fileKey: string };
  const log = collectingLog();

  beforeAll(async () => {
    h = await createHarness({ storage: backend });
    admin = await h.createUser("Admin");
    staff = await h.createUser("Staff");
    for (const [format, fixture] of fixtures) stored.set(format, await storeAudioFile(h, admin, fixture.file));
    corrupt = await storeAudioFile(h, admin, corruptFile);
    const report = await processPendingWaveforms({ db: h.deps.db, storage: h.deps.storage, log });
    expect(report).toEqual({ ready: FIXTURE_SPECS.length, failed: 1, errors: 0, remaining: 0 });
  });
  afterAll(() => h?.close());

  it("stores audios pending until the job has decoded them", async () => {
    const fixture = fixtures.get("wav");
    if (!fixture) throw new Error("no wav fixture");
    const audio = await storeAudioFile(h, admin, fixture.file);
    expect(audio).toMatchObject({ waveformStatus: "pending", peaksKey: null, durationSeconds: null });
    expect((await h.caller(admin).audios.get({ audioId: audio.id })).waveform).toEqual({
      status: "pending",
      peaksUrl: null,
      durationSeconds: null,
    });
    await processPendingWaveforms({ db: h.deps.db, storage: h.deps.storage });
    expect((await audioRow(h, audio.id)).waveformStatus).toBe("ready");
  });

  it.each(FIXTURE_SPECS.map((spec) => [spec.format, spec] as const))(
    "%s: ready with its duration, sample rate, channels and peaks that parse and follow the signal",
    async (format, spec) => {
      const audio = stored.get(format);
      if (!audio) throw new Error(`no ${format} audio`);
      const row = await audioRow(h, audio.id);
      const peaksKey = `${audio.fileKey}.peaks.dat`;
      expect(row).toMatchObject({ waveformStatus: "ready", peaksKey, sampleRate: spec.sampleRate });
      expect(row.channelCount).toBe(spec.channels);
      expect(Math.abs((row.durationSeconds ?? 0) - spec.seconds)).toBeLessThan(0.1);
      expect(await h.deps.storage.exists(peaksKey)).toBe(true);

      const { waveform } = await h.caller(admin).audios.get({ audioId: audio.id });
      expect(waveform).toEqual({
        status: "ready",
        peaksUrl: expect.stringMatching(new RegExp(`^/files/${peaksKey}\\?expires=\\d+&signature=`)),
        durationSeconds: row.durationSeconds,
      });

      const peaks = await parsedPeaks(h.deps.storage, peaksKey);
      expect(peaks.sample_rate).toBe(spec.sampleRate);
      expect(peaks.bits).toBe(8);
      expect(peaks.channels).toBe(1);
      expect(peaks.scale).toBe(Math.round(spec.sampleRate / PEAKS_PER_SECOND));
      expect(Math.abs(peaks.pixels_per_second - PEAKS_PER_SECOND)).toBeLessThan(1);
      // Every decoded frame in a pixel, the last partial one included.
      expect(peaks.length).toBe(Math.ceil(((row.durationSeconds ?? 0) * spec.sampleRate) / peaks.scale));
      expect(Math.abs(peaks.duration - spec.seconds)).toBeLessThan(0.1);

      // Silent in its first half, loud (the louder channel at 0.8) in its second, away from the edge.
      const half = spec.seconds / 2;
      const pixel = (seconds: number) => Math.floor(seconds * peaks.pixels_per_second);
      const channel = peaks.channel(0);
      const quiet = {
        max: channel.max_array().slice(0, pixel(half - 0.1)),
        min: channel.min_array().slice(0, pixel(half - 0.1)),
      };
      const loud = {
        max: channel.max_array().slice(pixel(half + 0.1), pixel(spec.seconds - 0.1)),
        min: channel.min_array().slice(pixel(half + 0.1), pixel(spec.seconds - 0.1)),
      };
      expect(quiet.max.length).toBeGreaterThan(50);
      expect(Math.max(...quiet.max)).toBeLessThanOrEqual(3);
      expect(Math.min(...quiet.min)).toBeGreaterThanOrEqual(-3);
      const expected = LOUD_AMPLITUDE * 127;
      expect(loud.max.length).toBeGreaterThan(50);
      expect(Math.min(...loud.max)).toBeGreaterThan(expected * 0.85);
      expect(Math.max(...loud.max)).toBeLessThan(expected * 1.15);
      expect(Math.max(...loud.min)).toBeLessThan(-expected * 0.85);
    },
  );

  it("stores a file the decoder cannot read and serves it, with a failed waveform and no peaks", async () => {
    const row = await audioRow(h, corrupt.id);
    expect(row).toMatchObject({
      waveformStatus: "failed",
      peaksKey: null,
      durationSeconds: null,
      sampleRate: null,
      channelCount: null,
      mimeType: "audio/mpeg",
    });
    expect(await h.deps.storage.exists(`${corrupt.fileKey}.peaks.dat`)).toBe(false);
    expect(log.lines.filter((line) => line.startsWith("warn ") && line.includes(corrupt.fileKey))).toHaveLength(1);

    const detail = await h.caller(admin).audios.get({ audioId: corrupt.id });
    expect(detail.waveform).toEqual({ status: "failed", peaksUrl: null, durationSeconds: null });
    const url = new URL(detail.audioUrl, "http://localhost");
    expect(url.pathname).toBe(`/files/${corrupt.fileKey}`);
    const query = url.searchParams;
    expect(
      verifyFileUrl(h.deps.jwtSecret, corrupt.fileKey, query.get("expires") ?? "", query.get("signature") ?? ""),
    ).toBe(true);
    expect((await readStored(h.deps.storage, corrupt.fileKey)).equals(await fs.readFile(corruptFile))).toBe(true);
  });

  it("gives a translated recording its waveform too", async () => {
    const fixture = fixtures.get("opus");
    const audio = stored.get("mp3");
    if (!fixture || !audio) throw new Error("fixtures missing");
    await h.caller(admin).tasks.assign({ audioId: audio.id, staffId: staff.id });
    await uploadRecording(h.deps, staff, {
      audioId: audio.id,
      recordedBy: staff.id,
      file: await tempUploadOf(h, fixture.file),
    });
    expect((await h.caller(staff).recordings.get({ audioId: audio.id })).waveform?.status).toBe("pending");

    const before = await h.deps.db
      .selectFrom("events")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirstOrThrow();
    expect(
      await processPendingWaveforms({ db: h.deps.db, storage: h.deps.storage, events: h.deps.events }),
    ).toMatchObject({ ready: 1 });
    // Announced live to the audio's admins and its assignee, so an open player draws the peaks.
    const announced = await h.deps.db
      .selectFrom("events")
      .select(["audience", "recipientId", "kind", "audioId"])
      .where("id", ">", String(before.id ?? 0))
      .orderBy("id")
      .execute();
    expect(announced).toEqual([
      { audience: "admins", recipientId: null, kind: "audio.changed", audioId: audio.id },
      { audience: "user", recipientId: staff.id, kind: "audio.changed", audioId: audio.id },
    ]);
    const recording = await h.deps.db
      .selectFrom("translatedRecordings")
      .selectAll()
      .where("fileKey", "like", `recordings/${audio.id}/%`)
      .executeTakeFirstOrThrow();
    expect(recording.fileKey).toMatch(new RegExp(`^recordings/${audio.id}/[0-9a-f-]{36}\\.ogg$`));
    expect(recording).toMatchObject({
      waveformStatus: "ready",
      peaksKey: `${recording.fileKey}.peaks.dat`,
      sampleRate: 48_000,
      channelCount: 2,
    });
    const peaks = await parsedPeaks(h.deps.storage, `${recording.fileKey}.peaks.dat`);
    expect(peaks.sample_rate).toBe(48_000);
    expect(Math.abs(peaks.duration - fixture.seconds)).toBeLessThan(0.1);
    const { waveform } = await h.caller(staff).recordings.get({ audioId: audio.id });
    expect(waveform).toMatchObject({ status: "ready", durationSeconds: recording.durationSeconds });
    expect(waveform?.peaksUrl).toContain(`/files/${recording.fileKey}.peaks.dat?`);
  });

  it("keeps peaks files in the file sweep", async () => {
    const peaksKeys = [...stored.values()].map((a) => `${a.fileKey}.peaks.dat`);
    const report = await sweepFiles(h.deps, { olderThanMs: 0 });
    expect(report.files.filter((key) => key.endsWith(".peaks.dat"))).toEqual([]);
    for (const key of peaksKeys) expect(await h.deps.storage.exists(key)).toBe(true);
  });

  it("removes an audio's peaks, and its recording's, when the audio is deleted", async () => {
    const audio = stored.get("mp3");
    if (!audio) throw new Error("no mp3 audio");
    const recording = await h.deps.db
      .selectFrom("translatedRecordings")
      .select("peaksKey")
      .where("fileKey", "like", `recordings/${audio.id}/%`)
      .executeTakeFirstOrThrow();
    const keys = [`${audio.fileKey}.peaks.dat`, recording.peaksKey ?? ""];
    for (const key of keys) expect(await h.deps.storage.exists(key)).toBe(true);
    await h.caller(admin).audios.delete({ audioId: audio.id });
    for (const key of keys) expect(await h.deps.storage.exists(key)).toBe(false);
  });

  it("removes the peaks again when the audio is deleted while they are being stored", async () => {
    const fixture = fixtures.get("flac");
    if (!fixture) throw new Error("no flac fixture");
    const audio = await storeAudioFile(h, admin, fixture.file);
    const peaksKey = `${audio.fileKey}.peaks.dat`;
    // The audio goes just before its peaks are written: the job finds its row gone and removes them.
    const storage: FileStorage = {
      ...h.deps.storage,
      async put(key, body) {
        if (key === peaksKey) await h.caller(admin).audios.delete({ audioId: audio.id });
        return h.deps.storage.put(key, body);
      },
    };
    const report = await processPendingWaveforms({ db: h.deps.db, storage });
    expect(report).toMatchObject({ ready: 0, failed: 0, errors: 0, remaining: 0 });
    expect(await h.deps.storage.exists(peaksKey)).toBe(false);
    expect(await h.deps.storage.exists(audio.fileKey)).toBe(false);
  });
});
