import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { SEGMENTS_MAX, SOURCE_CHANGED, SEGMENT_OF_ANOTHER_AUDIO, type TranslationSegment } from "@tafsiri/domain";
import { attachInitialTranscript } from "../src/uploads/store-upload";
import { assignedAudio, harnessWithUsers } from "./workflow-fixtures";

/** Decision 035: the segment grid, its checks on Submit, the memory filled on approval, the glossary. */
const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());

const PROMPT = "Tell me everything you see going on in that picture.";
const SOURCE = [
  `INV: ${PROMPT}`,
  "PAR: The boy is on the stool.",
  "INV: Anything else?",
  "PAR: The water is 2 inches deep.",
];

async function audioWithSource(lines = SOURCE) {
  const audio = await assignedAudio(h, admin, staff);
  await attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: lines.join("\n") });
  return audio;
}

const translated = (rows: TranslationSegment[], targets: string[]): TranslationSegment[] =>
  rows.map((r, i) => ({ ...r, target: targets[i] ?? "", state: targets[i] ? "translated" : "empty" }));

const TARGETS = [
  "Niambie kila kitu unachoona kwenye picha hiyo.",
  "Mvulana yuko juu ya kiti.",
  "Kitu kingine?",
  "Maji yana kina cha inchi 2.",
];

describe("translation settings (decision 035)", () => {
  it("default to eng → swa; an admin changes them, staff may read but not change them", async () => {
    expect(await h.caller(staff).translation.settings()).toMatchObject({
      sourceLanguages: ["eng"],
      targetLanguage: "swa",
    });
    await expect(
      h.caller(staff).translation.setSettings({
        sourceLanguages: ["eng"],
        targetLanguage: "lug",
        staffWriteSource: true,
        keepChatMarkers: true,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      h.caller(admin).translation.setSettings({
        sourceLanguages: ["EN"],
        targetLanguage: "swa",
        staffWriteSource: true,
        keepChatMarkers: true,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const saved = await h.caller(admin).translation.setSettings({
      sourceLanguages: ["eng", "lug"],
      targetLanguage: "swa",
      staffWriteSource: true,
      keepChatMarkers: false,
    });
    expect(saved.message).toBe("Translation settings saved.");
    expect(await h.caller(staff).translation.settings()).toMatchObject({
      sourceLanguages: ["eng", "lug"],
      keepChatMarkers: false,
    });
  });

  it("an audio may have its own languages; staff may not set them", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await expect(
      h.caller(staff).translation.setAudioLanguages({ audioId: audio.id, sourceLanguage: "lug", targetLanguage: null }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const set = await h
      .caller(admin)
      .translation.setAudioLanguages({ audioId: audio.id, sourceLanguage: "lug", targetLanguage: null });
    expect(set.pair).toEqual({ source: "lug", target: "swa" });
    expect((await h.caller(staff).translation.segments({ audioId: audio.id })).pair).toEqual({
      source: "lug",
      target: "swa",
    });
    await expect(
      h
        .caller(admin)
        .translation.setAudioLanguages({ audioId: randomUUID(), sourceLanguage: null, targetLanguage: null }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the segment grid (decision 035)", () => {
  it("opens with the source segments; a draft keeps rows by id across a split", async () => {
    const audio = await audioWithSource();
    const grid = await h.caller(staff).translation.segments({ audioId: audio.id });
    expect(grid.editable).toBe(true);
    expect(grid.segments.map((s) => [s.speaker, s.source])).toEqual([
      ["INV", PROMPT],
      ["PAR", "The boy is on the stool."],
      ["INV", "Anything else?"],
      ["PAR", "The water is 2 inches deep."],
    ]);
    const rows = translated(grid.segments, [TARGETS[0]!]);
    // Split the second row at "is": the source text stays the same, cut in two.
    const [first, second, ...rest] = rows;
    const split = [
      first!,
      { ...second!, source: "The boy" },
      { ...second!, id: randomUUID(), source: "is on the stool." },
      ...rest,
    ];
    expect(await h.caller(staff).translation.saveDraft({ audioId: audio.id, segments: split })).toMatchObject({
      message: "Draft saved.",
    });
    const again = await h.caller(staff).translation.segments({ audioId: audio.id });
    expect(again.segments.map((s) => s.id)).toEqual(split.map((s) => s.id));
    expect(again.segments[0]).toMatchObject({ target: TARGETS[0], state: "translated" });
  });

  it("refuses a rewritten source, another audio's row ids, another staff member and too many rows, changing nothing", async () => {
    const audio = await audioWithSource();
    const rows = (await h.caller(staff).translation.segments({ audioId: audio.id })).segments;
    await h.caller(staff).translation.saveDraft({ audioId: audio.id, segments: rows });
    const rewritten = rows.map((r, i) => (i === 1 ? { ...r, source: "The girl is on the stool." } : r));
    await expect(
      h.caller(staff).translation.saveDraft({ audioId: audio.id, segments: rewritten }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: SOURCE_CHANGED,
    });
    const second = await audioWithSource();
    await expect(h.caller(staff).translation.saveDraft({ audioId: second.id, segments: rows })).rejects.toMatchObject({
      message: SEGMENT_OF_ANOTHER_AUDIO,
    });
    await expect(h.caller(other).translation.saveDraft({ audioId: audio.id, segments: rows })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.caller(other).translation.segments({ audioId: audio.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const many = Array.from({ length: SEGMENTS_MAX + 1 }, () => ({ ...rows[0]!, id: randomUUID() }));
    await expect(h.caller(staff).translation.saveDraft({ audioId: audio.id, segments: many })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect((await h.caller(staff).translation.segments({ audioId: audio.id })).segments).toEqual(rows);
  });

  it("Submit is refused while a segment is untranslated, then writes the transcript file a line per segment", async () => {
    const audio = await audioWithSource();
    const rows = (await h.caller(staff).translation.segments({ audioId: audio.id })).segments;
    await expect(
      h.caller(staff).translation.submit({ audioId: audio.id, segments: translated(rows, TARGETS.slice(0, 3)) }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "1 segment must be fixed before submitting. Segment 4: Not translated yet.",
    });
    const done = await h.caller(staff).translation.submit({ audioId: audio.id, segments: translated(rows, TARGETS) });
    expect(done.status).toBe("Pending");
    const transcript = await h.caller(staff).transcripts.get({ audioId: audio.id });
    expect(transcript.text).toBe(`*INV: ${TARGETS[0]}\n${TARGETS[1]}\n*INV: ${TARGETS[2]}\n${TARGETS[3]}`);
  });
});

describe("translation memory (decision 035)", () => {
  it("an approved translation's segments are offered for another audio: 100% for the same prompt, fuzzy for one word changed", async () => {
    const first = await audioWithSource();
    const rows = (await h.caller(staff).translation.segments({ audioId: first.id })).segments;
    await h.caller(staff).translation.submit({ audioId: first.id, segments: translated(rows, TARGETS) });
    // Not in the memory until approved.
    const second = await audioWithSource([
      `INV: ${PROMPT}`,
      "INV: Tell me everything you see going on in this picture.",
    ]);
    expect(await h.caller(staff).translation.matches({ audioId: second.id, source: PROMPT })).toEqual([]);
    await h.caller(admin).transcripts.approve({ audioId: first.id });

    const exact = await h.caller(staff).translation.matches({ audioId: second.id, source: PROMPT });
    expect(exact[0]).toMatchObject({
      score: 100,
      target: TARGETS[0],
      origin: "approved",
      audioFilename: first.filename,
      translator: staff.username,
    });
    const fuzzy = await h.caller(staff).translation.matches({
      audioId: second.id,
      source: "Tell me everything you see going on in this picture.",
    });
    expect(fuzzy[0]!.score).toBeGreaterThanOrEqual(75);
    expect(fuzzy[0]!.score).toBeLessThan(100);
    expect(fuzzy[0]!.diff.filter((d) => d.change !== "same").map((d) => d.text.trim())).toEqual(["that", "this"]);
    // The audio's own entries are not offered to itself, and a stranger's sentence finds nothing.
    expect(await h.caller(admin).translation.matches({ audioId: first.id, source: PROMPT })).toEqual([]);
    expect(
      await h.caller(staff).translation.matches({ audioId: second.id, source: "Completely different words here." }),
    ).toEqual([]);
    await expect(h.caller(other).translation.matches({ audioId: second.id, source: PROMPT })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("exports as TMX and imports it back into another pair; staff may do neither", async () => {
    const pair = { source: "eng", target: "swa" };
    const tmx = await h.caller(admin).translation.exportMemory(pair);
    expect(tmx.fileName).toBe("tafsiri-memory-eng-swa.tmx");
    expect(tmx.content).toContain(TARGETS[0]);
    await expect(h.caller(staff).translation.exportMemory(pair)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(staff).translation.importMemory({ pair, content: tmx.content })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      h.caller(admin).translation.importMemory({ pair: { source: "eng", target: "lug" }, content: tmx.content }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(h.caller(admin).translation.importMemory({ pair, content: "not xml" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const before = (await h.caller(admin).translation.exportMemory(pair)).count;
    const imported = await h.caller(admin).translation.importMemory({ pair, content: tmx.content });
    expect(imported.imported).toBe(before);
    expect((await h.caller(admin).translation.exportMemory(pair)).count).toBe(2 * before);
  });
});

describe("glossary (decision 035)", () => {
  const pair = { source: "eng", target: "swa" };
  it("admins add, import, export and remove terms; staff read them; the check flags an unused term on Submit only as a warning", async () => {
    expect(
      await h.caller(admin).translation.addTerm({ pair, sourceTerm: "picture", targetTerm: "picha", note: "" }),
    ).toEqual({
      message: '"picture" added to the glossary.',
    });
    await expect(
      h.caller(staff).translation.addTerm({ pair, sourceTerm: "stool", targetTerm: "kiti", note: "" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const imported = await h
      .caller(admin)
      .translation.importGlossary({ pair, content: "source,target,note\nstool,kiti,\npicture,picha,a drawing\n" });
    expect(imported).toMatchObject({ added: 1, updated: 1 });
    await expect(
      h.caller(admin).translation.importGlossary({ pair, content: "source,target\n,kiti\n" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const terms = await h.caller(staff).translation.glossary(pair);
    expect(terms.map((t) => [t.sourceTerm, t.targetTerm, t.note])).toEqual([
      ["picture", "picha", "a drawing"],
      ["stool", "kiti", ""],
    ]);
    const csv = await h.caller(admin).translation.exportGlossary({ pair, format: "csv" });
    expect(csv.content).toContain("stool,kiti");
    const tbx = await h.caller(admin).translation.exportGlossary({ pair, format: "tbx" });
    expect(tbx.content).toContain("<term>kiti</term>");

    const audio = await audioWithSource(["PAR: The boy is on the stool."]);
    const grid = await h.caller(staff).translation.segments({ audioId: audio.id });
    expect(grid.glossary.map((t) => t.sourceTerm)).toEqual(["picture", "stool"]);
    const done = await h
      .caller(staff)
      .translation.submit({ audioId: audio.id, segments: translated(grid.segments, ["Mvulana yuko juu."]) });
    expect(done.status).toBe("Pending");

    const stool = terms.find((t) => t.sourceTerm === "stool")!;
    await h.caller(admin).translation.removeTerm({ id: stool.id });
    await expect(h.caller(admin).translation.removeTerm({ id: stool.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(h.caller(admin).translation.removeTerm({ id: "not-an-id" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("review by segment (decision 035)", () => {
  it("a rejection names segments to fix, which the staff member sees; the grid keeps what the review saw", async () => {
    const audio = await audioWithSource();
    const rows = (await h.caller(staff).translation.segments({ audioId: audio.id })).segments;
    await h.caller(staff).translation.submit({ audioId: audio.id, segments: translated(rows, TARGETS) });
    await expect(
      h.caller(admin).transcripts.reject({ audioId: audio.id, segments: [{ id: randomUUID(), note: "" }] }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "A segment named in the rejection is not part of this translation.",
    });
    expect((await h.caller(staff).transcripts.get({ audioId: audio.id })).status).toBe("Pending");
    await expect(
      h.caller(staff).transcripts.reject({ audioId: audio.id, segments: [{ id: rows[1]!.id, note: "" }] }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });

    await h.caller(admin).transcripts.reject({
      audioId: audio.id,
      reason: "Segment 2 misses the stool.",
      segments: [{ id: rows[1]!.id, note: "The stool is missing." }],
    });
    const grid = await h.caller(staff).translation.segments({ audioId: audio.id });
    expect(grid.toFix).toEqual({ [rows[1]!.id]: "The stool is missing." });
    expect(grid.reviewedTargets[rows[1]!.id]).toBe(TARGETS[1]);

    const fixed = translated(grid.segments, [TARGETS[0]!, "Mvulana yuko juu ya kigoda.", TARGETS[2]!, TARGETS[3]!]);
    await h.caller(staff).translation.submit({ audioId: audio.id, segments: fixed });
    const again = await h.caller(admin).translation.segments({ audioId: audio.id });
    // The admin sees which segment changed since the review: its translation differs from the reviewed one.
    expect(again.segments.filter((s) => s.target !== again.reviewedTargets[s.id]).map((s) => s.id)).toEqual([
      rows[1]!.id,
    ]);
    await h.caller(admin).transcripts.approve({ audioId: audio.id, expectedStatus: "Pending" });
    expect((await h.caller(staff).translation.segments({ audioId: audio.id })).toFix).toEqual({});
  });
});
