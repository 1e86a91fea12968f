import { promises as fs } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_KEYS_PER_LOOKUP, referencedFileKeys } from "@tafsiri/db/repositories/stored-files";
import { FILE_SWEEP_MIN_AGE_MS, sweepFiles, sweepStoredFiles, sweepTempFiles } from "../src/storage/sweep";
import { attachInitialTranscript, uploadRecording } from "../src/uploads/store-upload";
import { assignedAudio, harnessWithUsers, listFiles, newAudio, tempWav } from "./workflow-fixtures";

/**
 * The crash sweep (decision 014): the file sweep removes temp entries and stored files no row points at once
 * they are older than the threshold (an hour by default), and nothing else.
 */

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());

const HOUR_MS = 60 * 60 * 1000;
const twoHoursAgo = () => new Date(Date.now() - 2 * HOUR_MS);

/** Writes `relative` under the storage folder, last modified at `at`. */
async function writeFile(relative: string, at: Date, content = "x"): Promise<void> {
  const file = path.join(h.filesDir, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
  await fs.utimes(file, at, at);
}

/** Sets every file under the storage folder as last modified at `at`. */
async function ageEverything(at: Date): Promise<void> {
  for (const file of await listFiles(h)) await fs.utimes(path.join(h.filesDir, file), at, at);
}

/** The storage keys every row points at (each key column of each table). */
async function referencedKeys(): Promise<string[]> {
  const db = h.deps.db;
  const audios = await db.selectFrom("audios").select(["fileKey", "transcriptKey"]).execute();
  const versions = await db.selectFrom("transcriptVersions").select("fileKey").execute();
  const recordings = await db.selectFrom("translatedRecordings").select("fileKey").execute();
  return [
    ...audios.flatMap((a) => [a.fileKey, ...(a.transcriptKey ? [a.transcriptKey] : [])]),
    ...versions.map((v) => v.fileKey),
    ...recordings.map((r) => r.fileKey),
  ].sort();
}

describe("sweeping left-over files", () => {
  it("removes old orphans and old temp files, keeps young ones, every referenced file and names that are not keys, and says what it removed", async () => {
    // Rows pointing at each kind of stored file: an audio, its initial transcript, a transcript version, a recording.
    const audio = await assignedAudio(h, admin, staff);
    await attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: "Maandishi ya awali" });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari ya asubuhi" });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    await newAudio(h, admin);
    const referenced = await referencedKeys();
    expect(referenced).toHaveLength(5);

    const old = twoHoursAgo();
    await ageEverything(old);
    await writeFile("audios/orphan-old.wav", old);
    await writeFile("recordings/gone-audio/orphan-old.wav", old);
    await writeFile("audios/orphan-young.wav", new Date());
    await writeFile(".tmp/upload-old", old);
    await writeFile(".tmp/upload-young", new Date());
    await writeFile("stray-at-root.txt", old); // not a storage key: never listed, never removed

    const report = await sweepFiles(h.deps);

    expect(report.tempFiles).toEqual(["upload-old"]);
    expect([...report.files].sort()).toEqual(["audios/orphan-old.wav", "recordings/gone-audio/orphan-old.wav"]);
    expect(await listFiles(h)).toEqual(
      [...referenced, ".tmp/upload-young", "audios/orphan-young.wav", "stray-at-root.txt"].sort(),
    );
    for (const key of referenced) expect(await h.deps.storage.exists(key), key).toBe(true);

    // A second round finds nothing more; with no age threshold the young orphan and temp file go too.
    expect(await sweepFiles(h.deps)).toEqual({ tempFiles: [], files: [] });
    expect(await sweepFiles(h.deps, { olderThanMs: 0, now: new Date(Date.now() + 1000) })).toEqual({
      tempFiles: ["upload-young"],
      files: ["audios/orphan-young.wav"],
    });
    expect(await listFiles(h)).toEqual([...referenced, "stray-at-root.txt"].sort());
    await fs.rm(path.join(h.filesDir, "stray-at-root.txt"));
  });

  it("runs in two parts: this process's temp folder, and the stored files every process shares (decision 015)", async () => {
    const old = twoHoursAgo();
    await writeFile(".tmp/upload-left", old);
    await writeFile("audios/orphan-shared.wav", old);
    expect(await sweepTempFiles(h.deps.storage)).toEqual(["upload-left"]);
    expect(await h.deps.storage.exists("audios/orphan-shared.wav")).toBe(true);
    await writeFile(".tmp/upload-left-too", old);
    // Local disk has no multipart uploads to abort.
    expect(await sweepStoredFiles(h.deps)).toEqual({ aborted: [], files: ["audios/orphan-shared.wav"] });
    expect(await listFiles(h)).toContain(".tmp/upload-left-too");
    expect(await sweepTempFiles(h.deps.storage)).toEqual(["upload-left-too"]);
  });

  it("uses an hour as the default threshold", async () => {
    const now = new Date();
    await writeFile("audios/just-under-an-hour.wav", new Date(now.getTime() - FILE_SWEEP_MIN_AGE_MS + 60_000));
    await writeFile("audios/just-over-an-hour.wav", new Date(now.getTime() - FILE_SWEEP_MIN_AGE_MS - 60_000));
    expect(await sweepFiles(h.deps, { now })).toEqual({ tempFiles: [], files: ["audios/just-over-an-hour.wav"] });
    await h.deps.storage.delete("audios/just-under-an-hour.wav");
  });

  it("works through more orphans than one database page holds", async () => {
    const old = twoHoursAgo();
    const keys = Array.from({ length: 1_234 }, (_, i) => `audios/many-${String(i).padStart(4, "0")}.wav`);
    for (const key of keys) await writeFile(key, old);
    const before = await referencedKeys();
    const report = await sweepFiles(h.deps);
    expect([...report.files].sort()).toEqual(keys);
    expect((await listFiles(h)).filter((f) => f.includes("many-"))).toEqual([]);
    expect(await referencedKeys()).toEqual(before);
  });

  it("keeps a file rewritten after it was listed (deleteIfOlder checks the age again)", async () => {
    const cutoff = new Date(Date.now() - HOUR_MS);
    await writeFile("initial-transcripts/rewritten.txt", twoHoursAgo());
    await h.deps.storage.put("initial-transcripts/rewritten.txt", "new text");
    expect(await h.deps.storage.deleteIfOlder("initial-transcripts/rewritten.txt", cutoff)).toBe(false);
    expect(await h.deps.storage.readText("initial-transcripts/rewritten.txt")).toBe("new text");
    expect(await h.deps.storage.deleteIfOlder("initial-transcripts/missing.txt", cutoff)).toBe(false);
    await expect(h.deps.storage.deleteIfOlder("../outside.txt", cutoff)).rejects.toThrow("Invalid storage key");
    await h.deps.storage.delete("initial-transcripts/rewritten.txt");
  });

  it("asks the database about one page of keys at a time", async () => {
    const key = (await referencedKeys())[0] ?? "";
    expect(key).not.toBe("");
    expect(await referencedFileKeys(h.deps.db, [key, "audios/nobody.wav"])).toEqual(new Set([key]));
    expect(await referencedFileKeys(h.deps.db, [])).toEqual(new Set());
    const tooMany = Array.from({ length: MAX_KEYS_PER_LOOKUP + 1 }, (_, i) => `audios/${i}.wav`);
    await expect(referencedFileKeys(h.deps.db, tooMany)).rejects.toThrow(RangeError);
  });
});
