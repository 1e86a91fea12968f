import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WaveformData from "waveform-data";
import { startWaveformJob, type WaveformJob } from "@tafsiri/api";
import { openJobLocks, type JobLocks } from "@tafsiri/db/repositories/job-locks";
import { appWithUsers, type AppWithUsers } from "./fixtures/app-harness";
import { FIXTURE_SPECS, makeAudioFixture, makeCorruptMp3 } from "../../../packages/api/test/audio-fixtures";

/**
 * ARCHITECTURE "Long recordings and the corpus", over HTTP: an audio uploaded through
 * POST /api/audios/upload/AUDIO wakes the waveform job (its 10-minute poll would be too late for
 * this test), which decodes it; the audio's signed peaks URL then serves a file BBC's waveform-data
 * parses, and GET /api/audios/{id} answers its duration. A corrupt MP3 the upload accepts is served
 * as uploaded through its signed URL, with a failed waveform.
 */
describe("waveforms over REST", () => {
  let h: AppWithUsers["h"];
  let admin: AppWithUsers["admin"];
  let adminToken = "";
  let locks: JobLocks;
  let job: WaveformJob;
  let dir = "";
  const lines: string[] = [];

  beforeAll(async () => {
    ({ h, admin, adminToken } = await appWithUsers({ storage: "local" }));
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-waveform-rest-"));
    locks = openJobLocks({ db: h.deps.db, databaseUrl: h.databaseUrl });
    const log = (level: string) => (line: string) => lines.push(`${level} ${line}`);
    job = startWaveformJob(
      { ...h.deps, locks, log: { info: log("info"), warn: log("warn"), error: log("error") } },
      { pollMs: 10 * 60 * 1000 },
    );
    h.deps.waveforms = job;
  });
  afterAll(async () => {
    await job?.stop();
    await locks?.close();
    await h?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Uploads `file` over REST as a new audio; returns its id. */
  async function upload(file: string): Promise<string> {
    const res = await h.upload("AUDIO", adminToken, [
      ["category", "Control"],
      ["file", { name: path.basename(file), content: await fs.readFile(file) }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ _id: string }>()._id;
  }

  /** The audio's waveform status once the job has dealt with it (waits for the woken job, at most 30 s). */
  async function settledStatus(audioId: string): Promise<string> {
    for (let i = 0; i < 300; i++) {
      const row = await h.deps.db
        .selectFrom("audios")
        .select("waveformStatus")
        .where("id", "=", audioId)
        .executeTakeFirstOrThrow();
      if (row.waveformStatus !== "pending") return row.waveformStatus;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return "pending";
  }

  it("serves the peaks of an uploaded audio and answers its duration", async () => {
    const spec = FIXTURE_SPECS.find((s) => s.format === "mp3");
    if (!spec) throw new Error("no mp3 spec");
    const fixture = await makeAudioFixture(dir, spec);
    const audioId = await upload(fixture.file);
    expect(await settledStatus(audioId)).toBe("ready");

    const { waveform } = await h.caller(admin).audios.get({ audioId });
    expect(waveform.status).toBe("ready");
    const res = await h.app.inject({ method: "GET", url: waveform.peaksUrl ?? "" });
    expect(res.statusCode).toBe(200);
    const bytes = res.rawPayload;
    const peaks = WaveformData.create(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
    );
    expect(peaks.sample_rate).toBe(spec.sampleRate);
    expect(peaks.scale).toBe(Math.round(spec.sampleRate / 100));
    expect(Math.abs(peaks.duration - spec.seconds)).toBeLessThan(0.1);

    const rest = await h.call("GET", `/api/audios/${audioId}`, adminToken);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(Math.abs(rest.json<{ duration_seconds: number }>().duration_seconds - spec.seconds)).toBeLessThan(0.1);
  });

  it("stores and serves a corrupt MP3 as uploaded, with a failed waveform", async () => {
    const file = await makeCorruptMp3(dir);
    const audioId = await upload(file);
    expect(await settledStatus(audioId)).toBe("failed");

    const detail = await h.caller(admin).audios.get({ audioId });
    expect(detail.waveform).toEqual({ status: "failed", peaksUrl: null, durationSeconds: null });
    const res = await h.app.inject({ method: "GET", url: detail.audioUrl });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(await fs.readFile(file))).toBe(true);
    expect(lines.some((line) => line.startsWith("warn waveforms: cannot decode audios/"))).toBe(true);
  });
});
