import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import JSZip from "jszip";
import { afterAll, describe, expect, it } from "vitest";
import { groupStatistics } from "@tafsiri/domain";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import { measurePendingAudios } from "../src/measures/measures-job";
import { exportJobsIdle } from "../src/services/exports";
import { createAudio, attachInitialTranscript } from "../src/uploads/store-upload";
import { processPendingWaveforms } from "../src/waveforms/waveform-job";
import { tempUploadOf } from "./audio-fixtures";
import { harnessWithUsers } from "./workflow-fixtures";

/**
 * Decision 035, "Speech measures": a recording made now with espeak-ng and sox with KNOWN pauses
 * (INV speaks one sentence; PAR speaks three, with 1.0 s and 0.5 s of silence between them), its
 * INV and PAR segments given by a CHAT initial transcript's bullets, translated in the grid and
 * approved. The measures job measures it once (Silero VAD, the real model); the export's
 * measures.csv and the Dashboard's procedure give the hand-computed values: exactly where they come
 * from the bullets and the duration, and within STRETCH_TOLERANCE_MS per speech stretch where they
 * come from the detector's edges; the pause count exactly.
 */

const run = promisify(execFile);
const { h, admin, staff } = await harnessWithUsers();
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-measures-"));

/** How far the detector's edge of a speech stretch may be from the truth, per stretch edge (ms). */
const STRETCH_TOLERANCE_MS = 100;

const INV_SENTENCE = "Tell me what you see in the picture";
const PAR_SENTENCES = [
  "The boy is standing on the stool",
  "His mother is washing the dishes",
  "The water is running over the sink",
];
/** Silence before INV, between INV and PAR, between PAR's sentences (the known pauses), and at the end; seconds. */
const LEAD_S = 0.5;
const TURN_S = 0.8;
const PAUSES_S = [1.0, 0.5];
const TAIL_S = 0.5;

/** Where each spoken sentence lies in the recording, ms: INV's, then PAR's three. */
const truth: { startMs: number; endMs: number }[] = [];
let durationMs = 0;

/** A CSV file (CRLF lines, no quoted field) as one object per row, keyed by the header's names. */
function parse(csv: string): Record<string, string>[] {
  const [header, ...lines] = csv.split("\r\n").filter((line) => line !== "");
  const names = header!.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((field, i) => [names[i], field])));
}

async function soxSeconds(file: string): Promise<number> {
  return Number((await run("soxi", ["-D", file])).stdout.trim());
}

/** `seconds` of silence at 16 kHz mono 16-bit, written to `file`. */
async function silence(file: string, seconds: number): Promise<string> {
  await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", file, "trim", "0", String(seconds)]);
  return file;
}

/** A sentence spoken by espeak-ng at 16 kHz mono, its leading and trailing silence trimmed. */
async function spoken(name: string, sentence: string): Promise<string> {
  const raw = path.join(dir, `${name}-raw.wav`);
  const file = path.join(dir, `${name}.wav`);
  await run("espeak-ng", ["-w", raw, sentence]);
  const trim = ["silence", "1", "0.02", "0.5%"];
  await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", file, ...trim, "reverse", ...trim, "reverse"]);
  return file;
}

/** Joins INV's sentence and PAR's three with the silences above into one WAV; records the truth. */
async function makeRecording(): Promise<string> {
  const pieces: string[] = [];
  let at = 0;
  const add = async (file: string, isSpeech: boolean) => {
    const seconds = await soxSeconds(file);
    if (isSpeech) truth.push({ startMs: Math.round(at * 1000), endMs: Math.round((at + seconds) * 1000) });
    pieces.push(file);
    at += seconds;
  };
  await add(await silence(path.join(dir, "lead.wav"), LEAD_S), false);
  await add(await spoken("inv", INV_SENTENCE), true);
  await add(await silence(path.join(dir, "turn.wav"), TURN_S), false);
  for (const [i, sentence] of PAR_SENTENCES.entries()) {
    await add(await spoken(`par-${i}`, sentence), true);
    const gap = PAUSES_S[i];
    if (gap !== undefined) await add(await silence(path.join(dir, `pause-${i}.wav`), gap), false);
  }
  await add(await silence(path.join(dir, "tail.wav"), TAIL_S), false);
  const file = path.join(dir, "interview.wav");
  await run("sox", [...pieces, file]);
  durationMs = Math.round((await soxSeconds(file)) * 1000);
  return file;
}

afterAll(async () => {
  await h.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const recording = await makeRecording();
const [inv, par1, , par3] = truth as [
  (typeof truth)[number],
  (typeof truth)[number],
  (typeof truth)[number],
  (typeof truth)[number],
];
/** The segments as the transcript's bullets give them: INV 0.3 s to its sentence's end + 0.2 s; PAR 0.2 s around its three sentences. */
const invSegment = { startMs: 300, endMs: inv.endMs + 200 };
const parSegment = { startMs: par1.startMs - 200, endMs: par3.endMs + 200 };

const { id: audioId } = await createAudio(h.deps, admin, {
  filename: "interview_known_pauses",
  category: "Dementia",
  file: await tempUploadOf(h, recording),
});
await h.caller(admin).tasks.assign({ audioId, staffId: staff.id });
const CHAT_SOURCE = [
  "@UTF8",
  "@Begin",
  "@Languages:\teng",
  "@Participants:\tPAR Participant, INV Investigator",
  `*INV:\ttell me what you see in the picture . \u0015${invSegment.startMs}_${invSegment.endMs}\u0015`,
  `*PAR:\tthe boy is on the stool . \u0015${parSegment.startMs}_${parSegment.endMs}\u0015`,
  "@End",
].join("\n");
await attachInitialTranscript(h.deps, admin, { audioId, text: CHAT_SOURCE });
const rows = (await h.caller(staff).translation.segments({ audioId })).segments;
await h.caller(staff).translation.submit({
  audioId,
  segments: rows.map((row, i) => ({
    ...row,
    target: ["Niambie unachoona.", "Mvulana yuko kwenye kiti."][i]!,
    state: "translated" as const,
  })),
});
await h.caller(admin).transcripts.approve({ audioId });
const participant = await linkToParticipant(h.deps.db, audioId, { sex: "female", ageMonths: 900 });
// The waveform job finds the duration the export and the measures use.
await processPendingWaveforms({ db: h.deps.db, storage: h.deps.storage });

/** What the hand computes, from the truth and the bullets. */
const hand = {
  parSpeakingMs: parSegment.endMs - parSegment.startMs,
  invSpeakingMs: invSegment.endMs - invSegment.startMs,
  parPhonationMs: truth.slice(1).reduce((sum, t) => sum + t.endMs - t.startMs, 0),
  invPhonationMs: inv.endMs - inv.startMs,
  meanPauseMs: ((PAUSES_S[0]! + PAUSES_S[1]!) / 2) * 1000,
  latencyMs: parSegment.startMs - invSegment.endMs,
};

describe("speech measures of a recording with known pauses (decision 035)", () => {
  it("the job measures the approved recording once, with the real detector", async () => {
    const first = await measurePendingAudios(h.deps);
    expect(first).toEqual({ measured: 1, failed: 0, errors: 0 });
    expect(await measurePendingAudios(h.deps)).toEqual({ measured: 0, failed: 0, errors: 0 });
    const stored = await h.deps.db.selectFrom("speechStretches").selectAll().where("audioId", "=", audioId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: "ready", measuredTranscriptKey: expect.any(String) });
  }, 120_000);

  it("writes measures.csv with the hand-computed values, after the corpus files and before the manifests", async () => {
    const started = await h.caller(admin).exports.create({ category: "Dementia", status: "approved-transcript" });
    await exportJobsIdle();
    const item = (await h.caller(admin).exports.list({ limit: 10 })).items.find((e) => e.id === started.id)!;
    expect(item.state).toBe("ready");
    const key = decodeURIComponent(new URL(item.downloadUrl!, "http://x").pathname.replace(/^\/files\//, ""));
    const chunks: Buffer[] = [];
    for await (const chunk of await h.deps.storage.read(key)) chunks.push(chunk as Buffer);
    const zip = await JSZip.loadAsync(Buffer.concat(chunks));
    const names = Object.keys(zip.files);
    expect(names.indexOf("measures.csv")).toBeGreaterThan(names.indexOf("translation-memory.tmx"));
    expect(names.indexOf("measures-summary.csv")).toBe(names.indexOf("measures.csv") + 1);
    expect(names.indexOf("manifest.csv")).toBeGreaterThan(names.indexOf("measures-summary.csv"));
    const exported = await h.deps.db
      .selectFrom("exportFiles")
      .select("path")
      .where("exportId", "=", started.id)
      .execute();
    expect(exported.map((f) => f.path)).toEqual(expect.arrayContaining(["measures.csv", "measures-summary.csv"]));

    const csv = await zip.file("measures.csv")!.async("string");
    const table = parse(csv);
    const audioFile = "Dementia/interview_known_pauses/interview_known_pauses.wav";
    expect(zip.file(audioFile)).not.toBeNull();
    const [parRow, invRow] = table;
    expect(table).toHaveLength(2);
    // Exact: from the bullets and the duration.
    expect(parRow).toMatchObject({
      audio_file: audioFile,
      participant_code: participant.code,
      group: "Dementia",
      speaker: "PAR",
      duration_ms: String(durationMs),
      speaking_ms: String(hand.parSpeakingMs),
      speaking_ratio: String(Number((hand.parSpeakingMs / durationMs).toFixed(4))),
      // The pause count is exact: the 1.0 s and 0.5 s silences, nothing between words.
      pause_count: "2",
      response_latency_ms: String(hand.latencyMs),
      response_count: "1",
      segment_count: "1",
      segments_per_minute: String(Number((60_000 / durationMs).toFixed(3))),
    });
    // Within the detector's edges: two per stretch for phonation, two per pause for each pause.
    expect(Math.abs(Number(parRow!.phonation_ms) - hand.parPhonationMs)).toBeLessThanOrEqual(6 * STRETCH_TOLERANCE_MS);
    expect(Math.abs(Number(parRow!.mean_pause_ms) - hand.meanPauseMs)).toBeLessThanOrEqual(2 * STRETCH_TOLERANCE_MS);
    expect(invRow).toMatchObject({
      speaker: "INV",
      speaking_ms: String(hand.invSpeakingMs),
      pause_count: "0",
      mean_pause_ms: "",
      response_latency_ms: "",
      response_count: "",
    });
    expect(Math.abs(Number(invRow!.phonation_ms) - hand.invPhonationMs)).toBeLessThanOrEqual(2 * STRETCH_TOLERANCE_MS);

    const summary = parse(await zip.file("measures-summary.csv")!.async("string"));
    expect(summary.find((r) => r.speaker === "PAR" && r.measure === "pauseCount")).toMatchObject({
      group: "Dementia",
      n: "1",
      mean: "2",
      sd: "",
      median: "2",
      iqr: "0",
      vad: "Silero VAD threshold 0.5; minimum silence 250 ms; no padding",
    });
    // The export found the stored stretches: the detector ran once for this file.
    expect(await h.deps.db.selectFrom("speechStretches").select("fileKey").execute()).toHaveLength(1);
  }, 120_000);

  it("answers the Dashboard's group table per measure of PAR, as groupStatistics computes it", async () => {
    const report = await h.caller(admin).participants.measures();
    expect(report.speaker).toBe("PAR");
    expect(report.rows).toHaveLength(12);
    const dementia = (measure: string) => report.rows.find((r) => r.group === "Dementia" && r.measure === measure)!;
    expect(dementia("pauseCount")).toMatchObject({ n: 1, mean: 2, sd: null, median: 2, q1: 2, q3: 2, iqr: 0 });
    expect(dementia("speakingMs")).toMatchObject({ n: 1, mean: hand.parSpeakingMs });
    expect(dementia("responseLatencyMs")).toMatchObject({ n: 1, mean: hand.latencyMs });
    expect(report.rows.find((r) => r.group === "Control" && r.measure === "pauseCount")).toMatchObject({
      n: 0,
      mean: null,
      median: null,
      iqr: null,
    });

    // Four more Dementia recordings with other pause counts: SQL's percentile_cont and
    // stddev_samp agree with groupStatistics (type-7 quartiles, sample SD).
    const counts = [0, 5, 7, 3];
    for (const pauseCount of counts) {
      const { id } = await createAudio(h.deps, admin, {
        filename: `measured_${pauseCount}`,
        category: "Dementia",
        file: await tempUploadOf(h, recording),
      });
      await h.deps.db
        .insertInto("speechMeasures")
        .values({
          audioId: id,
          category: "Dementia",
          speaker: "PAR",
          segmentCount: 1,
          speakingMs: 1_000,
          pauseCount,
          responseCount: 0,
        })
        .execute();
    }
    // The Dashboard reads what the job's round last summarised.
    await measurePendingAudios(h.deps);
    const all = (await h.caller(admin).participants.measures()).rows.find(
      (r) => r.group === "Dementia" && r.measure === "pauseCount",
    )!;
    const expected = groupStatistics([2, ...counts]);
    expect(all.n).toBe(5);
    for (const field of ["mean", "sd", "median", "q1", "q3"] as const)
      expect(all[field]).toBeCloseTo(expected[field]!, 9);
    // By hand: 0, 2, 3, 5, 7: mean 3.4, median 3, quartiles 2 and 5.
    expect(all).toMatchObject({ median: 3, q1: 2, q3: 5, iqr: 3 });
  }, 60_000);

  it("refuses staff and the signed-out", async () => {
    await expect(h.caller(staff).participants.measures()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(null).participants.measures()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
