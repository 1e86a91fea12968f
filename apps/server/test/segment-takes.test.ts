import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { TranslationSegment } from "@tafsiri/domain";
import { sweepFiles } from "@tafsiri/api";
import { referencedKeys } from "@tafsiri/db/repositories/backup-snapshot";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

/**
 * Decision 035, oral translation by segment: takes stored per grid row over REST, their checks,
 * the translated recording made from them (16 kHz mono WAV, the takes in row order with 300 ms
 * between them) through the SPEC's recording path, and a reviewer's request to record takes again.
 * Takes are spoken here by espeak-ng; a silent one is made by sox.
 */
const run = promisify(execFile);
const { h, admin, staffA: staff, staffB: other, adminToken, tokenA, tokenB } = await appWithUsers();
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-takes-"));
afterAll(async () => {
  await h.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const TRANSLATIONS = [
  "Niambie kila kitu unachoona.",
  "Mvulana yuko juu ya kiti.",
  "Kiti kinaanguka.",
  "Mama anaosha vyombo.",
  "Maji yanamwagika sakafuni.",
];

/** A take of `text` spoken by espeak-ng (22,050 Hz mono WAV); resolves to its bytes. */
async function spoken(name: string, text: string): Promise<Buffer> {
  const file = path.join(dir, `${name}.wav`);
  await run("espeak-ng", ["-w", file, text]);
  return fs.readFile(file);
}

/** Two seconds of digital silence as a WAV take. */
async function silent(): Promise<Buffer> {
  const file = path.join(dir, "silent.wav");
  await run("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", file, "trim", "0", "2"]);
  return fs.readFile(file);
}

/** An audio assigned to the staff member with a source of five lines, and its grid saved with the translations. */
async function translatedAudio(): Promise<{ audioId: string; rows: TranslationSegment[] }> {
  const audioId = (
    await uploadAudio(h, adminToken, {
      name: `takes-${Date.now()}.wav`,
      content: await fixture("hello.wav"),
      type: "audio/wav",
    })
  )._id;
  await assignOverRest(h, adminToken, audioId, staff);
  const source = ["INV: Tell me what you see.", "PAR: The boy is on the stool.", "PAR: It falls."];
  source.push("PAR: The mother washes dishes.", "PAR: Water spills on the floor.");
  const res = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
    ["audioId", audioId],
    ["file", { name: "source.txt", content: source.join("\n") }],
  ]);
  expect(res.statusCode, res.body).toBe(200);
  const grid = await h.caller(staff).translation.segments({ audioId });
  const rows = grid.segments.map((r, i) => ({ ...r, target: TRANSLATIONS[i]!, state: "translated" as const }));
  await h.caller(staff).translation.saveDraft({ audioId, segments: rows });
  return { audioId, rows };
}

const putTake = (segmentId: string, token: string | null, content: Buffer | string, name = "take.wav") =>
  h.uploadTo(`/api/translation/takes/${segmentId}`, token, [["file", { name, content }]]);

/** The duration in seconds and sample rate sox reads from a stored file. */
async function soxInfo(key: string): Promise<{ seconds: number; rate: number; channels: number }> {
  const file = path.join(dir, `stored-${path.basename(key)}`);
  await pipeline(await h.deps.storage.read(key), createWriteStream(file));
  const [seconds, rate, channels] = await Promise.all(
    ["-D", "-r", "-c"].map(async (flag) => Number((await run("soxi", [flag, file])).stdout.trim())),
  );
  return { seconds: seconds!, rate: rate!, channels: channels! };
}

describe("takes per segment (decision 035)", () => {
  it("checks flag a missing and a silent take; the recording is made from the takes once they pass", async () => {
    const { audioId, rows } = await translatedAudio();
    const takes = await Promise.all(TRANSLATIONS.map((text, i) => spoken(`take-${i}`, text)));
    for (const i of [0, 1, 2]) {
      const res = await putTake(rows[i]!.id, tokenA, takes[i]!);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().take.durationMs).toBeGreaterThan(500);
    }
    expect((await putTake(rows[3]!.id, tokenA, await silent())).statusCode).toBe(200);

    const before = await h.caller(staff).translation.takes({ audioId });
    expect(before.checks.filter((c) => c.severity === "error").map((c) => [c.check, c.segmentId])).toEqual([
      ["silent", rows[3]!.id],
      ["missing", rows[4]!.id],
    ]);
    await expect(h.caller(staff).translation.assembleTakes({ audioId })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Some segments have no take or a silent one. Record them before making the recording.",
    });
    expect((await h.snapshot()).recordings).toBe(0);

    for (const i of [3, 4]) expect((await putTake(rows[i]!.id, tokenA, takes[i]!)).statusCode).toBe(200);
    const ready = await h.caller(staff).translation.takes({ audioId });
    expect(ready.checks.filter((c) => c.severity === "error")).toEqual([]);
    const sum = ready.takes.reduce((total, t) => total + t.durationMs, 0);

    const made = await h.caller(staff).translation.assembleTakes({ audioId });
    expect(made.status).toBe("Pending");
    expect(Math.abs(made.durationMs - (sum + 4 * 300))).toBeLessThanOrEqual(5 * 50);
    const recording = await h.caller(staff).recordings.get({ audioId });
    const key = decodeURIComponent(new URL(recording.url!, "http://tafsiri.test").pathname.slice("/files/".length));
    const info = await soxInfo(key);
    expect(info).toMatchObject({ rate: 16_000, channels: 1 });
    expect(Math.abs(info.seconds * 1000 - made.durationMs)).toBeLessThanOrEqual(50);

    // Each take's span in the recording, in row order, 300 ms apart.
    const after = new Map((await h.caller(staff).translation.takes({ audioId })).spans.map((t) => [t.segmentId, t]));
    const ordered = rows.map((r) => after.get(r.id)!);
    expect(ordered.every((span) => span.origin === "takes")).toBe(true);
    expect(ordered[0]!.startMs).toBe(0);
    for (let i = 1; i < ordered.length; i++)
      expect(Math.abs(ordered[i]!.startMs - ordered[i - 1]!.endMs - 300)).toBeLessThanOrEqual(1);
    expect(Math.abs(ordered.at(-1)!.endMs - made.durationMs)).toBeLessThanOrEqual(1);
  });

  it("a reviewer asks for a take again with a note; a new take clears it; approval locks the takes", async () => {
    const { audioId, rows } = await translatedAudio();
    const take = await spoken("again", TRANSLATIONS[0]!);
    expect((await putTake(rows[0]!.id, tokenA, take)).statusCode).toBe(200);
    await expect(
      h.caller(staff).translation.redoTakes({ audioId, takes: [{ segmentId: rows[0]!.id, note: "Too fast." }] }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const asked = await h
      .caller(admin)
      .translation.redoTakes({ audioId, takes: [{ segmentId: rows[0]!.id, note: "Too fast." }] });
    expect(asked.message).toBe("1 take to record again.");
    const seen = await h.caller(staff).translation.takes({ audioId });
    expect(seen.takes.map((t) => [t.segmentId, t.redoNote])).toEqual([[rows[0]!.id, "Too fast."]]);
    expect((await putTake(rows[0]!.id, tokenA, take)).statusCode).toBe(200);
    expect((await h.caller(staff).translation.takes({ audioId })).takes[0]!.redoNote).toBeNull();

    // The file sweep keeps a take however old it is, and a backup takes it along.
    const key = decodeURIComponent(new URL(seen.takes[0]!.url, "http://tafsiri.test").pathname.slice("/files/".length));
    const current = (await h.caller(staff).translation.takes({ audioId })).takes[0]!;
    const currentKey = decodeURIComponent(new URL(current.url, "http://tafsiri.test").pathname.slice("/files/".length));
    const swept = await sweepFiles(h.deps, { olderThanMs: 0, now: new Date(Date.now() + 60_000) });
    expect(swept.files).not.toContain(currentKey);
    expect(await h.deps.storage.exists(currentKey)).toBe(true);
    // The replaced take's file is gone: removed after the new take was stored.
    expect(await h.deps.storage.exists(key)).toBe(false);
    const backedUp: string[] = [];
    for await (const k of referencedKeys(h.deps.db)) backedUp.push(k);
    expect(backedUp).toContain(currentKey);

    await h.caller(staff).translation.removeTake({ segmentId: rows[0]!.id });
    expect((await h.caller(staff).translation.takes({ audioId })).takes).toEqual([]);
  });

  it("refuses takes without a token, of another staff member's audio, of unknown rows, and files that are not audio, storing nothing", async () => {
    const { audioId, rows } = await translatedAudio();
    const take = await spoken("hostile", TRANSLATIONS[1]!);
    const before = await h.snapshot();
    const refused: [Promise<{ statusCode: number; json(): unknown }>, number][] = [
      [putTake(rows[1]!.id, null, take), 401],
      [putTake(rows[1]!.id, tokenB, take), 403],
      [putTake("00000000-0000-4000-8000-000000000000", tokenA, take), 404],
      [putTake("not-an-id", tokenA, take), 404],
      [putTake(rows[1]!.id, tokenA, "not audio at all", "take.txt"), 415],
      [putTake(rows[1]!.id, tokenA, Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(2000, 7)]), "broken.wav"), 415],
    ];
    for (const [call, status] of refused) {
      const res = await call;
      expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
    }
    expect(await h.snapshot()).toEqual(before);
    const unknown = await putTake("00000000-0000-4000-8000-000000000000", tokenA, take);
    expect(unknown.json()).toEqual(failed("Unknown segment. Save the translation's segments before recording them."));
    await expect(h.caller(other).translation.takes({ audioId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(other).translation.assembleTakes({ audioId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(other).translation.removeTake({ segmentId: rows[1]!.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.caller(staff).translation.assembleTakes({ audioId })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
