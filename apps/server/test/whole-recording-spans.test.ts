import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranslationSegment } from "@tafsiri/domain";
import { appWithUsers, assignOverRest, fixture, uploadAudio } from "./fixtures/app-harness";

/**
 * SPEC §2.13, decision 035: a whole translated recording uploaded in one file is matched to the
 * grid rows. espeak-ng speaks each of five translations (one of them in two parts with a 0.4 s
 * pause between), sox joins them with 1.5 s of silence between rows, and the file is uploaded
 * through the Translated Audio path (POST /api/audios/upload/AUDIOTRANSLATION). The voice activity
 * detector's proposal (translation.proposeSpans) must put every row's start and end within 300 ms
 * of where sox put its speech; confirmSpans stores the spans staff confirm, translation.takes
 * answers them, and bad spans, other callers, bad ids and oversized lists are refused.
 */
const run = promisify(execFile);
const { h, admin, staffA: staff, staffB: other, adminToken, tokenA } = await appWithUsers();
let dir = "";

const TRANSLATIONS = [
  "Niambie kila kitu unachoona kwenye picha hii.",
  "Mvulana yuko juu ya kiti.",
  "Mama anaosha vyombo jikoni, na maji yanamwagika sakafuni.",
  "Kiti kinaanguka.",
  "Msichana anacheka na kunyoosha mkono wake.",
];
/** Row 2 is spoken in these two parts with INNER_PAUSE_S between them. */
const TWO_PARTS = ["Mama anaosha vyombo jikoni,", "na maji yanamwagika sakafuni."];
const LEAD_S = 0.5;
const GAP_S = 1.5;
const INNER_PAUSE_S = 0.4;
/** How far a proposed start or end may be from where the speech is. */
const TOLERANCE_MS = 300;

/** Where each row's speech lies in the made recording, ms. */
const truth: { startMs: number; endMs: number }[] = [];
let wholeFile: Buffer = Buffer.alloc(0);

async function soxSeconds(file: string): Promise<number> {
  return Number((await run("soxi", ["-D", file])).stdout.trim());
}

/** `seconds` of silence at espeak-ng's format (22,050 Hz mono 16-bit). */
async function silence(name: string, seconds: number): Promise<string> {
  const file = path.join(dir, name);
  await run("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", file, "trim", "0", String(seconds)]);
  return file;
}

/** `text` spoken by espeak-ng's Swahili voice, its leading and trailing silence trimmed. */
async function spoken(name: string, text: string): Promise<string> {
  const raw = path.join(dir, `${name}-raw.wav`);
  const file = path.join(dir, `${name}.wav`);
  await run("espeak-ng", ["-v", "sw", "-w", raw, text]);
  const trim = ["silence", "1", "0.02", "0.5%"];
  await run("sox", [raw, file, ...trim, "reverse", ...trim, "reverse"]);
  return file;
}

/** The five rows read in order, 1.5 s apart, row 2 in two parts; fills `truth`. */
async function makeWholeRecording(): Promise<Buffer> {
  const gap = await silence("gap.wav", GAP_S);
  const pause = await silence("pause.wav", INNER_PAUSE_S);
  const pieces = [await silence("lead.wav", LEAD_S)];
  let at = LEAD_S;
  for (const [i, text] of TRANSLATIONS.entries()) {
    const parts =
      i === 2
        ? [await spoken("row-2a", TWO_PARTS[0]!), pause, await spoken("row-2b", TWO_PARTS[1]!)]
        : [await spoken(`row-${i}`, text)];
    let seconds = 0;
    for (const part of parts) seconds += await soxSeconds(part);
    truth.push({ startMs: Math.round(at * 1000), endMs: Math.round((at + seconds) * 1000) });
    at += seconds + GAP_S;
    pieces.push(...parts, gap);
  }
  const file = path.join(dir, "whole.wav");
  await run("sox", [...pieces, file]);
  return fs.readFile(file);
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-whole-"));
  wholeFile = await makeWholeRecording();
}, 60_000);
afterAll(async () => {
  await h.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** An audio assigned to the staff member with a source of five lines, its grid saved with the translations. */
async function translatedAudio(): Promise<{ audioId: string; rows: TranslationSegment[] }> {
  const audioId = (
    await uploadAudio(h, adminToken, { name: `whole-${Date.now()}.wav`, content: await fixture("hello.wav") })
  )._id;
  await assignOverRest(h, adminToken, audioId, staff);
  const source = [
    "INV: Tell me everything you see in this picture.",
    "PAR: The boy is on the stool.",
    "PAR: The mother washes the dishes in the kitchen, and the water spills on the floor.",
    "PAR: The stool falls.",
    "PAR: The girl laughs and reaches out her hand.",
  ];
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

/** Uploads `content` as the whole translated recording of `audioId`, as the Translated Audio screen does. */
async function uploadWhole(audioId: string, content: Buffer, name = "whole.wav") {
  const res = await h.upload("AUDIOTRANSLATION", tokenA, [
    ["audioId", audioId],
    ["recordedBy", staff.id],
    ["file", { name, content }],
  ]);
  expect(res.statusCode, res.body).toBe(200);
}

describe("a whole translated recording matched to the rows (SPEC §2.13, decision 035)", () => {
  it("proposes each row's span within 300 ms of its speech; the confirmed spans are stored and answered", async () => {
    const { audioId, rows } = await translatedAudio();
    await expect(h.caller(staff).translation.proposeSpans({ audioId })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "There is no translated recording to match yet. Upload one first.",
    });
    await uploadWhole(audioId, wholeFile);

    const proposed = await h.caller(staff).translation.proposeSpans({ audioId });
    const seconds = await soxSeconds(path.join(dir, "whole.wav"));
    expect(Math.abs(proposed.recordingDurationMs - seconds * 1000)).toBeLessThanOrEqual(5);
    expect(proposed.spans.map((s) => s.segmentId)).toEqual(rows.map((r) => r.id));
    const errors = proposed.spans.flatMap((span, i) => [
      Math.abs(span.startMs - truth[i]!.startMs),
      Math.abs(span.endMs - truth[i]!.endMs),
    ]);
    // The figures docs/translation.md quotes: how far the proposal lies from the truth.
    console.info(`span matching: largest error ${Math.max(...errors)} ms, mean ${Math.round(mean(errors))} ms`);
    for (const [i, span] of proposed.spans.entries()) {
      expect(Math.abs(span.startMs - truth[i]!.startMs), `row ${i + 1} start`).toBeLessThanOrEqual(TOLERANCE_MS);
      expect(Math.abs(span.endMs - truth[i]!.endMs), `row ${i + 1} end`).toBeLessThanOrEqual(TOLERANCE_MS);
    }
    // Nothing is stored by a proposal.
    expect((await h.caller(staff).translation.takes({ audioId })).spans).toEqual([]);

    // Staff move row 4's end 200 ms later and confirm.
    const confirmed = proposed.spans.map((s, i) => (i === 3 ? { ...s, endMs: s.endMs + 200 } : s));
    const before = await auditCount();
    expect(await h.caller(staff).translation.confirmSpans({ audioId, spans: confirmed })).toEqual({
      message: "5 spans confirmed.",
    });
    expect(await auditCount()).toBe(before + 1);
    const stored = (await h.caller(staff).translation.takes({ audioId })).spans;
    expect(stored).toEqual(confirmed.map((s) => ({ ...s, origin: "confirmed" })));
    // The admin reviewing it sees the same spans.
    expect((await h.caller(admin).translation.takes({ audioId })).spans).toEqual(stored);

    // A new upload replaces the recording: the spans of the old one no longer count.
    await uploadWhole(audioId, wholeFile, "again.wav");
    expect((await h.caller(staff).translation.takes({ audioId })).spans).toEqual([]);
  });

  it("refuses spans that miss a row, overlap, leave the recording or are not whole ms, and once the recording is approved", async () => {
    const { audioId } = await translatedAudio();
    await uploadWhole(audioId, wholeFile);
    const { spans, recordingDurationMs } = await h.caller(staff).translation.proposeSpans({ audioId });
    const confirm = (input: typeof spans) => h.caller(staff).translation.confirmSpans({ audioId, spans: input });
    const refusals: [typeof spans, string][] = [
      [spans.slice(1), "Segment 1 has no span."],
      [[...spans, spans[0]!], "Segment 1 has more than one span."],
      [
        spans.map((s, i) => (i === 2 ? { ...s, startMs: spans[1]!.endMs - 10 } : s)),
        "Segment 3 starts before segment 2 ends.",
      ],
      [
        spans.map((s, i) => (i === 4 ? { ...s, endMs: recordingDurationMs + 1 } : s)),
        "Segment 5 lies outside the recording.",
      ],
      [spans.map((s, i) => (i === 0 ? { ...s, endMs: s.startMs } : s)), "Segment 1 ends before it starts."],
      [
        [...spans.slice(1), { segmentId: "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70", startMs: 0, endMs: 10 }],
        "A span names a segment that is not in this transcript.",
      ],
    ];
    for (const [input, message] of refusals) {
      await expect(confirm(input), message).rejects.toMatchObject({ code: "BAD_REQUEST", message });
    }
    await expect(confirm(spans.map((s, i) => (i === 0 ? { ...s, endMs: s.endMs + 0.5 } : s)))).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Times are whole milliseconds."),
    });
    expect((await h.caller(staff).translation.takes({ audioId })).spans).toEqual([]);

    await h.caller(admin).recordings.approve({ audioId });
    await expect(confirm(spans)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "The recording has been approved; its spans can no longer change.",
    });
    expect((await h.caller(staff).translation.takes({ audioId })).spans).toEqual([]);
  });

  it("refuses another staff member, bad ids, oversized lists, and an audio without rows", async () => {
    const { audioId, rows } = await translatedAudio();
    await uploadWhole(audioId, wholeFile);
    const spans = rows.map((r, i) => ({ segmentId: r.id, startMs: i * 1_000, endMs: i * 1_000 + 500 }));
    const before = await h.snapshot();
    const NO_ACCESS = { code: "FORBIDDEN", message: "You do not have access to this audio." };
    await expect(h.caller(other).translation.proposeSpans({ audioId })).rejects.toMatchObject(NO_ACCESS);
    await expect(h.caller(other).translation.confirmSpans({ audioId, spans })).rejects.toMatchObject(NO_ACCESS);
    for (const bad of ["not-an-id", "' OR '1'='1' --", "x".repeat(100_000)]) {
      await expect(h.caller(staff).translation.proposeSpans({ audioId: bad })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      await expect(
        h.caller(staff).translation.confirmSpans({ audioId, spans: [{ ...spans[0]!, segmentId: bad }] }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    await expect(
      h.caller(staff).translation.proposeSpans({ audioId: "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Audio not found." });
    const tooMany = Array.from({ length: 5_001 }, (_, i) => ({ ...spans[0]!, startMs: i, endMs: i + 1 }));
    await expect(h.caller(staff).translation.confirmSpans({ audioId, spans: tooMany })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("A transcript may have at most 5,000 segments."),
    });
    await expect(h.caller(staff).translation.confirmSpans({ audioId, spans: [] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Give a span for every segment."),
    });
    expect(await h.snapshot()).toEqual(before);

    // An audio with a recording but no saved rows.
    const bare = (await uploadAudio(h, adminToken, { name: `bare-${Date.now()}.wav`, content: wholeFile }))._id;
    await assignOverRest(h, adminToken, bare, staff);
    await uploadWhole(bare, wholeFile);
    await expect(h.caller(staff).translation.proposeSpans({ audioId: bare })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "This audio has no segments to match the recording to. Save the translation's segments first.",
    });
  });
});

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Rows of the audit log. */
async function auditCount(): Promise<number> {
  const row = await h.deps.db
    .selectFrom("auditLog")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
