import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import JSZip from "jszip";
import { chatRuleViolations } from "@tafsiri/domain";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import type { SessionUser } from "../src/context";
import { exportJobsIdle } from "../src/services/exports";
import { storeTake } from "../src/translation/takes";
import { attachInitialTranscript, createAudio, type TempUpload } from "../src/uploads/store-upload";
import { processPendingWaveforms } from "../src/waveforms/waveform-job";
import { harnessWithUsers } from "./workflow-fixtures";

// Decision 035, the parallel speech corpus in the dataset export: an audio's grid rows spoken take
// by take (espeak-ng), the translated recording assembled from the takes and approved; the export
// holds the recording's own .cha (translation on the main tier, bulleted into the recording, the
// source on %xtra) and parallel/lug-swa/ with segments.yaml, segments.lug, segments.swa and
// covost.tsv. Durations are measured by the waveform job and checked with soxi on the zip's files.

const run = promisify(execFile);
const { h, admin, staff } = await harnessWithUsers();
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-parallel-test-"));
afterAll(async () => {
  await h.close();
  await fs.rm(dir, { recursive: true, force: true });
});

type Choice = Parameters<ReturnType<typeof h.caller>["exports"]["create"]>[0];
const CHOICE: Choice = { category: "Dementia", status: "approved-transcript" };

const SOURCE = ["[0:00] INV: Kiki ky'olaba?", "[0:02] PAR: Omulenzi ali ku ntebe.", "[0:04] PAR: Amazzi gayiika."];
const SOURCES = ["Kiki ky'olaba?", "Omulenzi ali ku ntebe.", "Amazzi gayiika."];
const TARGETS = ["Unaona nini?", "Mvulana yuko juu ya kiti. Anaanguka!", "Maji yanamwagika."];

/** `file` written where the upload routes write theirs (storage.tempPath()), as a WAV upload. */
async function tempUpload(file: string): Promise<TempUpload> {
  const tempFile = h.deps.storage.tempPath();
  await fs.mkdir(path.dirname(tempFile), { recursive: true });
  await fs.copyFile(file, tempFile);
  return { tempFile, mimeType: "audio/wav", extension: ".wav", sizeBytes: (await fs.stat(tempFile)).size };
}

let made = 0;
/** A Dementia audio of 6.5 s (a quiet tone, 16 kHz mono) in lug → swa, assigned to staff, its source attached. */
async function sourceAudio(): Promise<{ id: string; filename: string }> {
  const file = path.join(dir, `original-${++made}.wav`);
  await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", file, "synth", "6.5", "sine", "220", "vol", "0.2"]);
  const audio = await createAudio(h.deps, admin, {
    filename: `parallel_${made}_${Date.now()}`,
    category: "Dementia",
    file: await tempUpload(file),
    languages: { sourceLanguage: "lug", targetLanguage: "swa" },
  });
  await h.caller(admin).tasks.assign({ audioId: audio.id, staffId: staff.id });
  await attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: SOURCE.join("\n") });
  return audio;
}

/** Translates the audio's grid rows with TARGETS, submits them from the grid and approves; returns the rows' ids. */
async function translateAndApprove(audioId: string): Promise<string[]> {
  const rows = (await h.caller(staff).translation.segments({ audioId })).segments;
  expect(rows.map((row) => row.source)).toEqual(SOURCES);
  const translated = rows.map((row, i) => ({ ...row, target: TARGETS[i]!, state: "translated" as const }));
  await h.caller(staff).translation.submit({ audioId, segments: translated });
  await h.caller(admin).transcripts.approve({ audioId });
  return rows.map((row) => row.id);
}

/** Speaks each row's translation with espeak-ng's Swahili voice as its take, assembles the recording and approves it. */
async function recordAndApprove(audioId: string, rowIds: string[]): Promise<void> {
  for (const [i, segmentId] of rowIds.entries()) {
    const file = path.join(dir, `take-${audioId}-${i}.wav`);
    await run("espeak-ng", ["-v", "sw", "-w", file, TARGETS[i]!]);
    await storeTake(h.deps, staff, { segmentId, file: await tempUpload(file) });
  }
  await h.caller(staff).translation.assembleTakes({ audioId });
  await h.caller(admin).recordings.approve({ audioId });
}

/** Starts an export and waits for it; answers the export as listed and its zip. */
async function exportZip(user: SessionUser, choice: Choice) {
  const started = await h.caller(user).exports.create(choice);
  await exportJobsIdle();
  const item = (await h.caller(user).exports.list({ limit: 100 })).items.find((e) => e.id === started.id)!;
  expect(item.state).toBe("ready");
  const key = decodeURIComponent(new URL(item.downloadUrl!, "http://x").pathname.replace(/^\/files\//, ""));
  const chunks: Buffer[] = [];
  for await (const chunk of await h.deps.storage.read(key)) chunks.push(chunk as Buffer);
  return { item, zip: await JSZip.loadAsync(Buffer.concat(chunks)) };
}

/** The text of a zip entry, which must be there. */
async function text(zip: JSZip, name: string): Promise<string> {
  const entry = zip.file(name);
  expect(entry, name).not.toBeNull();
  return entry!.async("string");
}

/** The duration in ms of an audio file of the zip, as soxi reads it. */
async function soxMs(zip: JSZip, name: string): Promise<number> {
  const file = path.join(dir, name.replaceAll("/", "_"));
  await fs.writeFile(file, await zip.file(name)!.async("nodebuffer"));
  return Number((await run("soxi", ["-D", file])).stdout.trim()) * 1000;
}

/** The bullets of a .cha's main tiers in file order. */
const bulletsOf = (cha: string) =>
  [...cha.matchAll(/^\*(\w+):\t.*\u0015(\d+)_(\d+)\u0015$/gm)].map((m) => ({
    speaker: m[1]!,
    startMs: Number(m[2]),
    endMs: Number(m[3]),
  }));

/** The tier lines of a .cha, bullets shown as ‹start_end›. */
const tiersOf = (cha: string) =>
  cha
    .split("\n")
    .filter((line) => /^[*%]/.test(line))
    .map((line) => line.replace(/\u0015(\d+)_(\d+)\u0015/g, "‹$1_$2›"));

/** One mapping of segments.yaml. */
interface YamlEntry {
  wav: string;
  offset: number;
  duration: number;
  tgt_wav: string | null;
  tgt_offset: number | null;
  tgt_duration: number | null;
  speaker_id: string;
  participant_code: string;
  group: string;
}

/**
 * segments.yaml's entries. Each is one line `- {key: value, ...}` whose values are JSON (the
 * writer quotes strings as JSON does): quoting the keys makes the mapping JSON.
 */
function yamlEntries(yaml: string): YamlEntry[] {
  expect(yaml.endsWith("\n")).toBe(true);
  return yaml
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      expect(line).toMatch(/^- \{wav: ".*\}$/);
      return JSON.parse(line.slice(2).replace(/(\{|, )([a-z_]+): /g, '$1"$2": ')) as YamlEntry;
    });
}

/** Whether PyYAML is there to read segments.yaml as the loading example of docs/corpus.md does. */
const pyYaml = await run("python3", ["-c", "import yaml"]).then(
  () => true,
  () => false,
);

// One audio spoken take by take with its recording approved, one with an approved transcript only.
const recorded = await sourceAudio();
const recordedRows = await translateAndApprove(recorded.id);
await recordAndApprove(recorded.id, recordedRows);
const unrecorded = await sourceAudio();
await translateAndApprove(unrecorded.id);
// The waveform job measures the audios' and the recording's durations.
await processPendingWaveforms({ db: h.deps.db, storage: h.deps.storage });
const code = (await linkToParticipant(h.deps.db, [recorded.id, unrecorded.id], { sex: "female", ageMonths: 860 })).code;
const spans = (await h.caller(staff).translation.takes({ audioId: recorded.id })).spans;

const folderOf = (audio: { filename: string }) => `Dementia/${audio.filename}/`;
const wavOf = (audio: { filename: string }) => `${folderOf(audio)}${audio.filename}.wav`;
const recordingOf = (audio: { filename: string }) => `${folderOf(audio)}${audio.filename}_TRANSLATEDAUDIO.wav`;
const recordingChaOf = (audio: { filename: string }) => `${folderOf(audio)}${audio.filename}_TRANSLATEDAUDIO.cha`;

describe("the parallel speech corpus of an export (decision 035)", async () => {
  const { item, zip } = await exportZip(admin, CHOICE);
  const recordingMs = await soxMs(zip, recordingOf(recorded));
  const audioMs = await soxMs(zip, wavOf(recorded));

  it("writes the translated recording's own .cha: the translation bulleted into it, the source on %xtra", async () => {
    expect(spans.map((s) => s.segmentId).sort()).toEqual([...recordedRows].sort());
    const cha = await text(zip, recordingChaOf(recorded));
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(cha).toContain("@Languages:\tswa\n");
    expect(cha).toContain(`@Media:\t${recorded.filename}_TRANSLATEDAUDIO, audio\n`);
    expect(cha).toContain("@Participants:\tPAR Participant, INV Investigator\n");
    expect(cha).toMatch(/^@ID:\tswa\|tafsiri\|PAR\|71;08\.\|female\|Dementia\|\|Participant\|\|\|$/m);
    expect(cha).toMatch(/^@ID:\tswa\|tafsiri\|INV\|/m);
    const span = (i: number) => spans.find((s) => s.segmentId === recordedRows[i])!;
    // The last take's span ends where the recording does, in whole ms rounded down.
    const lastEnd = Math.min(span(2).endMs, Math.floor(recordingMs));
    // The second row's two sentences share its span by length, as chatFile shares a segment's span.
    const lines = tiersOf(cha);
    expect(lines.filter((line) => line.startsWith("%"))).toEqual(SOURCES.map((source) => `%xtra:\t${source}`));
    expect(lines[0]).toBe(`*INV:\tUnaona nini ? ‹${span(0).startMs}_${span(0).endMs}›`);
    expect(lines[2]).toMatch(new RegExp(`^\\*PAR:\\tMvulana yuko juu ya kiti \\. ‹${span(1).startMs}_\\d+›$`));
    expect(lines[3]).toMatch(new RegExp(`^\\*PAR:\\tAnaanguka ! ‹\\d+_${span(1).endMs}›$`));
    expect(lines[5]).toBe(`*PAR:\tMaji yanamwagika . ‹${span(2).startMs}_${lastEnd}›`);

    // The waveform job measured the recording: the bullets are bounded by its duration.
    const manifest = (await text(zip, "manifest.jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { audio_id: string; recording_duration_seconds: number | null });
    const measured = manifest.find((row) => row.audio_id === recorded.id)!.recording_duration_seconds;
    expect(Math.abs(measured! * 1000 - recordingMs)).toBeLessThan(1);
    // Every bullet inside the recording (as soxi reads it from the zip), each speaker's in order.
    const bullets = bulletsOf(cha);
    expect(bullets).toHaveLength(4);
    for (const [i, b] of bullets.entries()) {
      expect(b.startMs).toBeLessThan(b.endMs);
      expect(b.endMs).toBeLessThanOrEqual(recordingMs);
      const previous = bullets
        .slice(0, i)
        .filter((p) => p.speaker === b.speaker)
        .at(-1);
      if (previous) expect(b.startMs).toBeGreaterThanOrEqual(previous.endMs);
    }
    // The original's .cha is as before; an audio without an approved recording has no second .cha.
    expect(chatRuleViolations(await text(zip, `${folderOf(recorded)}${recorded.filename}.cha`))).toEqual([]);
    expect(zip.file(recordingChaOf(unrecorded))).toBeNull();
  });

  it("lists each segment in segments.yaml, spans inside their audios, with line-aligned texts", async () => {
    const entries = yamlEntries(await text(zip, "parallel/lug-swa/segments.yaml"));
    expect(entries).toHaveLength(6);
    const sources = (await text(zip, "parallel/lug-swa/segments.lug")).split("\n");
    const targets = (await text(zip, "parallel/lug-swa/segments.swa")).split("\n");
    expect(sources.pop()).toBe("");
    expect(targets.pop()).toBe("");
    expect(sources).toHaveLength(entries.length);
    expect(targets).toHaveLength(entries.length);
    // Audios in audio id order, each one's segments in order.
    const order = [recorded, unrecorded].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(entries.map((e) => e.wav)).toEqual(order.flatMap((audio) => [wavOf(audio), wavOf(audio), wavOf(audio)]));
    expect(sources).toEqual([...SOURCES, ...SOURCES]);
    expect(targets).toEqual([...TARGETS, ...TARGETS]);

    const mine = entries.filter((e) => e.wav === wavOf(recorded));
    expect(mine.map((e) => [e.offset, e.duration, e.speaker_id])).toEqual([
      [0, 2, "INV"],
      [2, 2, "PAR"],
      [4, 2.5, "PAR"],
    ]);
    mine.forEach((e, i) => {
      const span = spans.find((s) => s.segmentId === recordedRows[i])!;
      const end = Math.min(span.endMs, Math.floor(recordingMs));
      expect(e).toMatchObject({
        tgt_wav: recordingOf(recorded),
        tgt_offset: span.startMs / 1000,
        tgt_duration: (end - span.startMs) / 1000,
        participant_code: code,
        group: "Dementia",
      });
    });
    for (const e of entries) {
      expect(zip.file(e.wav)).not.toBeNull();
      expect(e.offset).toBeGreaterThanOrEqual(0);
      expect(e.duration).toBeGreaterThan(0);
      expect(Math.round((e.offset + e.duration) * 1000)).toBeLessThanOrEqual(audioMs);
      if (e.tgt_wav === null) {
        expect([e.tgt_offset, e.tgt_duration]).toEqual([null, null]);
        continue;
      }
      expect(zip.file(e.tgt_wav)).not.toBeNull();
      expect(e.tgt_offset).toBeGreaterThanOrEqual(0);
      expect(e.tgt_duration).toBeGreaterThan(0);
      expect(Math.round((e.tgt_offset! + e.tgt_duration!) * 1000)).toBeLessThanOrEqual(recordingMs);
    }
    // Without an approved recording, no target span.
    expect(entries.filter((e) => e.wav === wavOf(unrecorded)).map((e) => e.tgt_wav)).toEqual([null, null, null]);
  });

  it.skipIf(!pyYaml)("reads segments.yaml with PyYAML as the loading example does", async () => {
    const yaml = await text(zip, "parallel/lug-swa/segments.yaml");
    const file = path.join(dir, "segments.yaml");
    await fs.writeFile(file, yaml);
    const script = "import json, sys, yaml\nprint(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))";
    const { stdout } = await run("python3", ["-c", script, file]);
    expect(JSON.parse(stdout)).toEqual(yamlEntries(yaml));
  });

  it("writes covost.tsv with its header, a row per segment, every row in the train split", async () => {
    const tsv = await text(zip, "parallel/lug-swa/covost.tsv");
    expect(tsv.endsWith("\n")).toBe(true);
    const [header, ...rows] = tsv
      .slice(0, -1)
      .split("\n")
      .map((line) => line.split("\t"));
    expect(header!.join(" ")).toBe(
      "path offset_ms duration_ms sentence translation client_id tgt_path tgt_offset_ms tgt_duration_ms speaker group split",
    );
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.length === 12 && row[11] === "train")).toBe(true);
    const span = spans.find((s) => s.segmentId === recordedRows[1])!;
    expect(rows.find((row) => row[0] === wavOf(recorded) && row[1] === "2000")).toEqual([
      wavOf(recorded),
      "2000",
      "2000",
      SOURCES[1],
      TARGETS[1],
      code,
      recordingOf(recorded),
      String(span.startMs),
      String(span.endMs - span.startMs),
      "PAR",
      "Dementia",
      "train",
    ]);
    expect(rows.filter((row) => row[0] === wavOf(unrecorded)).map((row) => row.slice(6, 9))).toEqual([
      ["", "", ""],
      ["", "", ""],
      ["", "", ""],
    ]);
  });

  it("records every new file in export_files with its size and SHA-256", async () => {
    const names = [
      recordingChaOf(recorded),
      "parallel/lug-swa/covost.tsv",
      "parallel/lug-swa/segments.lug",
      "parallel/lug-swa/segments.swa",
      "parallel/lug-swa/segments.yaml",
    ];
    const files = await h.deps.db
      .selectFrom("exportFiles")
      .select(["path", "sizeBytes", "sha256"])
      .where("exportId", "=", item.id)
      .where("path", "in", names)
      .orderBy("path")
      .execute();
    expect(files.map((f) => f.path)).toEqual([...names].sort());
    for (const file of files) {
      const bytes = await zip.file(file.path)!.async("nodebuffer");
      expect(Number(file.sizeBytes)).toBe(bytes.length);
      expect(file.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    // After the audios' files, before the manifests.
    const order = Object.keys(zip.files);
    expect(order.indexOf("parallel/lug-swa/segments.yaml")).toBeGreaterThan(order.indexOf(recordingChaOf(recorded)));
    expect(order.indexOf("parallel/lug-swa/covost.tsv")).toBeLessThan(order.indexOf("manifest.csv"));
  });

  it("offers the same zip while nothing changed, and writes the export anew when a span changes", async () => {
    const again = await exportZip(admin, CHOICE);
    expect(again.item.reusedArchive).toBe(true);

    const first = spans.find((s) => s.segmentId === recordedRows[0])!;
    await h.deps.db
      .updateTable("recordingSpans")
      .set({ endMs: first.endMs - 100 })
      .where("segmentId", "=", first.segmentId)
      .execute();
    const changed = await exportZip(admin, CHOICE);
    expect(changed.item.reusedArchive).toBe(false);
    const cha = await text(changed.zip, recordingChaOf(recorded));
    expect(tiersOf(cha)[0]).toBe(`*INV:\tUnaona nini ? ‹${first.startMs}_${first.endMs - 100}›`);
    const entry = yamlEntries(await text(changed.zip, "parallel/lug-swa/segments.yaml")).find(
      (e) => e.wav === wavOf(recorded) && e.speaker_id === "INV",
    )!;
    expect(entry.tgt_duration).toBe((first.endMs - 100 - first.startMs) / 1000);
  });
});
