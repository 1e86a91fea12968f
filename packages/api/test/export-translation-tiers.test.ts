import { afterAll, describe, expect, it } from "vitest";
import JSZip from "jszip";
import { chatRuleViolations, type TranslationSegment } from "@tafsiri/domain";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import type { SessionUser } from "../src/context";
import { exportJobsIdle } from "../src/services/exports";
import { readTmx } from "../src/translation/formats/tmx";
import { attachInitialTranscript } from "../src/uploads/store-upload";
import { approvedWork, assignedAudio, harnessWithUsers } from "./workflow-fixtures";

// Decision 035 in the dataset export: each .cha holds what was said (the source, in the source
// language) on the main tier and its translation on a dependent tier (%xtra, or %eng for English),
// and the zip holds every segment in segments.tsv and the approved pairs in translation-memory.tmx.

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());

type Choice = Parameters<ReturnType<typeof h.caller>["exports"]["create"]>[0];

/** A CHAT source, as a programme uploads one: bullets and CHAT codes on the main tier, a %mor tier. */
const CHAT_SOURCE = [
  "@UTF8",
  "@Begin",
  "@Languages:\teng",
  "@Participants:\tPAR Participant, INV Investigator",
  "@ID:\teng|pitt|PAR|||||Participant|||",
  "@ID:\teng|pitt|INV|||||Investigator|||",
  "@Media:\tcookie, audio",
  "*INV:\ttell me what you see . \u00150_2500\u0015",
  "*PAR:\t&-uh the boy [/] the boy is (.) taking cookies . \u00152500_7000\u0015",
  "%mor:\tdet|the n|boy",
  "*PAR:\t<he is> [//] he falls &=laughs +... \u00157000_9000\u0015",
  "@End",
].join("\n");
const CHAT_TARGETS = [
  "Niambie unachoona.",
  "&-uh mvulana [/] mvulana (.) anachukua biskuti.",
  "<yeye> [//] anaanguka &=anacheka...",
];

/** An audio assigned to staff, its initial transcript `source` attached, its language pair set when given. */
async function audioWithSource(source: string, pair?: { sourceLanguage: string; targetLanguage: string }) {
  const audio = await assignedAudio(h, admin, staff, { category: "Dementia" });
  await attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: source });
  if (pair) await h.caller(admin).translation.setAudioLanguages({ audioId: audio.id, ...pair });
  return audio;
}

/** Translates an audio's grid rows with `targets` in order, submits them from the grid, and approves. */
async function translateAndApprove(audioId: string, targets: string[]): Promise<TranslationSegment[]> {
  const rows = (await h.caller(staff).translation.segments({ audioId })).segments;
  expect(rows).toHaveLength(targets.length);
  const translated = rows.map((row, i) => ({ ...row, target: targets[i]!, state: "translated" as const }));
  await h.caller(staff).translation.submit({ audioId, segments: translated });
  await h.caller(admin).transcripts.approve({ audioId });
  return translated;
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

/** The .cha of an audio in the zip. */
const chaOf = (zip: JSZip, audio: { filename: string }, category = "Dementia") =>
  zip.file(`${category}/${audio.filename}/${audio.filename}.cha`)!.async("string");

/** The tier lines of a .cha (main and dependent), bullets shown as ‹start_end›. */
const tiersOf = (cha: string) =>
  cha
    .split("\n")
    .filter((line) => /^[*%]/.test(line))
    .map((line) => line.replace(/\u0015(\d+)_(\d+)\u0015/g, "‹$1_$2›"));

/** segments.tsv as its header and rows of fields. */
async function segmentsTsv(zip: JSZip): Promise<{ header: string; rows: string[][] }> {
  const text = await zip.file("segments.tsv")!.async("string");
  expect(text.endsWith("\n")).toBe(true);
  const [header = "", ...rows] = text.slice(0, -1).split("\n");
  return { header, rows: rows.map((row) => row.split("\t")) };
}

// Five approved audios of one participant each:
// a CHAT source translated in the grid (eng → swa, the programme's pair);
const chatAudio = await audioWithSource(CHAT_SOURCE);
const chatRows = await translateAndApprove(chatAudio.id, CHAT_TARGETS);
await h.deps.db.updateTable("audios").set({ durationSeconds: 8.5 }).where("id", "=", chatAudio.id).execute();
// a plain-text source in Luganda translated into English in the grid;
const englishAudio = await audioWithSource(
  ["[0:01] INV: Kiki ky'olaba?", "[0:04] PAR: Omulenzi ali ku ntebe.", "PAR: Amazzi gayiika."].join("\n"),
  { sourceLanguage: "lug", targetLanguage: "eng" },
);
await translateAndApprove(englishAudio.id, [
  "What do you see?",
  "The boy is on the stool.\tHe\nfalls.",
  "The water spills.",
]);
// a source whose translation was saved in the plain editor, a line per source segment (no grid rows);
const pairedAudio = await audioWithSource(["INV: Anything else?", "PAR: The mother is washing dishes."].join("\n"));
await h.caller(staff).transcripts.save({ audioId: pairedAudio.id, text: "*INV: Kitu kingine?\nMama anaosha vyombo." });
await h.caller(admin).transcripts.approve({ audioId: pairedAudio.id });
// a translation submitted from the grid, then rewritten in the plain editor before its approval;
const editedAudio = await audioWithSource(["INV: Is that all?", "PAR: Yes."].join("\n"));
const editedRows = (await h.caller(staff).translation.segments({ audioId: editedAudio.id })).segments;
await h.caller(staff).translation.submit({
  audioId: editedAudio.id,
  segments: editedRows.map((row, i) => ({ ...row, target: ["Ni hayo tu?", "Ndio."][i]!, state: "translated" })),
});
await h.caller(staff).transcripts.save({ audioId: editedAudio.id, text: "*INV: Ni hayo yote?\nNdiyo." });
await h.caller(admin).transcripts.approve({ audioId: editedAudio.id });
// and a translation saved as plain text with no source at all.
const plainAudio = await approvedWork(h, admin, staff, { category: "Dementia", recording: false });
const participants = new Map<string, string>();
for (const audio of [chatAudio, englishAudio, pairedAudio, editedAudio, plainAudio]) {
  participants.set(audio.id, (await linkToParticipant(h.deps.db, audio.id, { sex: "female", ageMonths: 860 })).code);
}

describe("the .cha files of translated audios (decision 035)", async () => {
  const { item, zip } = await exportZip(admin, { category: "Dementia", status: "approved-transcript" });

  it("puts the CHAT source on the main tier, kept as written with its bullets, and the translation on %xtra", async () => {
    const cha = await chaOf(zip, chatAudio);
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(cha).toContain("@Languages:\teng\n");
    expect(cha).toContain("@Participants:\tPAR Participant, INV Investigator\n");
    expect(cha).toMatch(/^@ID:\teng\|tafsiri\|PAR\|71;08\.\|female\|Dementia\|\|Participant\|\|\|$/m);
    expect(cha).toMatch(/^@ID:\teng\|tafsiri\|INV\|/m);
    expect(tiersOf(cha)).toEqual([
      "*INV:\ttell me what you see . ‹0_2500›",
      "%xtra:\tNiambie unachoona.",
      "*PAR:\t&-uh the boy [/] the boy is (.) taking cookies . ‹2500_7000›",
      "%xtra:\t&-uh mvulana [/] mvulana (.) anachukua biskuti.",
      // The bullet stops where the audio (8.5 s) ends.
      "*PAR:\t<he is> [//] he falls &=laughs +... ‹7000_8500›",
      "%xtra:\t<yeye> [//] anaanguka &=anacheka...",
    ]);
    expect(cha).not.toMatch(/%tra:|%mor:/);
  });

  it("writes %eng for a translation into English, and the audio's own source language", async () => {
    const cha = await chaOf(zip, englishAudio);
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(cha).toContain("@Languages:\tlug\n");
    expect(cha).toMatch(/^@ID:\tlug\|tafsiri\|PAR\|/m);
    // Typed sources become CHAT (terminator apart); a segment whose end is not known (neither its
    // own, a next start nor the audio's duration) has no bullet.
    expect(tiersOf(cha)).toEqual([
      "*INV:\tKiki ky'olaba ? ‹1000_4000›",
      "%eng:\tWhat do you see?",
      "*PAR:\tOmulenzi ali ku ntebe .",
      "%eng:\tThe boy is on the stool. He falls.",
      "*PAR:\tAmazzi gayiika .",
      "%eng:\tThe water spills.",
    ]);
    expect(cha).not.toContain("%xtra");
  });

  it("pairs the source segments with the lines of a translation saved without the grid", async () => {
    const cha = await chaOf(zip, pairedAudio);
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(cha).toContain("@Languages:\teng\n");
    expect(tiersOf(cha)).toEqual([
      "*INV:\tAnything else ?",
      "%xtra:\tKitu kingine?",
      "*PAR:\tThe mother is washing dishes .",
      "%xtra:\tMama anaosha vyombo.",
    ]);
  });

  it("takes the approved transcript's lines, not grid rows the plain editor rewrote since", async () => {
    const cha = await chaOf(zip, editedAudio);
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(tiersOf(cha)).toEqual(["*INV:\tIs that all ?", "%xtra:\tNi hayo yote?", "*PAR:\tYes .", "%xtra:\tNdiyo."]);
  });

  it("keeps a translation without a source on the main tier, in the target language", async () => {
    const cha = await chaOf(zip, plainAudio);
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(cha).toContain("@Languages:\tswa\n");
    expect(cha).toMatch(/^@ID:\tswa\|tafsiri\|PAR\|/m);
    expect(tiersOf(cha)).toEqual(["*PAR:\tNilienda sokoni jana .", "*PAR:\tHabari ya leo ?", "*PAR:\tNzuri sana !"]);
  });

  it("lists every segment in segments.tsv, offsets within the audio's duration", async () => {
    const { header, rows } = await segmentsTsv(zip);
    expect(header).toBe("audio_file\toffset_ms\tduration_ms\tspeaker\tparticipant_code\tgroup\tsource\ttranslation");
    expect(rows.every((row) => row.length === 8)).toBe(true);
    const of = (audio: { id: string; filename: string }) =>
      rows.filter((row) => row[0] === `Dementia/${audio.filename}/${audio.filename}.wav`);
    const code = participants.get(chatAudio.id)!;
    expect(of(chatAudio)).toEqual([
      [expect.any(String), "0", "2500", "INV", code, "Dementia", "tell me what you see .", CHAT_TARGETS[0]],
      [
        expect.any(String),
        "2500",
        "4500",
        "PAR",
        code,
        "Dementia",
        "&-uh the boy [/] the boy is (.) taking cookies .",
        CHAT_TARGETS[1],
      ],
      [
        expect.any(String),
        "7000",
        "1500",
        "PAR",
        code,
        "Dementia",
        "<he is> [//] he falls &=laughs +...",
        CHAT_TARGETS[2],
      ],
    ]);
    for (const row of of(chatAudio)) expect(Number(row[1]) + Number(row[2])).toBeLessThanOrEqual(8500);
    // Tabs and line breaks in a text are spaces; an unknown end leaves offset and duration empty.
    expect(of(englishAudio).map((row) => row.slice(1, 4).concat(row.slice(6)))).toEqual([
      ["1000", "3000", "INV", "Kiki ky'olaba?", "What do you see?"],
      ["", "", "PAR", "Omulenzi ali ku ntebe.", "The boy is on the stool. He falls."],
      ["", "", "PAR", "Amazzi gayiika.", "The water spills."],
    ]);
    expect(of(pairedAudio).map((row) => row.slice(6))).toEqual([
      ["Anything else?", "Kitu kingine?"],
      ["The mother is washing dishes.", "Mama anaosha vyombo."],
    ]);
    // Without a source: the translation's paragraphs, the source empty.
    expect(of(plainAudio).map((row) => row.slice(3))).toEqual([
      ["PAR", participants.get(plainAudio.id), "Dementia", "", "Nilienda sokoni jana."],
      ["PAR", participants.get(plainAudio.id), "Dementia", "", "Habari ya leo? Nzuri sana!"],
    ]);
    expect(of(editedAudio).map((row) => row.slice(6))).toEqual([
      ["Is that all?", "Ni hayo yote?"],
      ["Yes.", "Ndiyo."],
    ]);
    expect(rows).toHaveLength(3 + 3 + 2 + 2 + 2);
  });

  it("holds the approved pairs in translation-memory.tmx, TMX 1.4b, one unit per segment", async () => {
    const tmx = await zip.file("translation-memory.tmx")!.async("string");
    expect(tmx).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<tmx version="1\.4">/);
    // Two source languages (eng, lug): the header says so.
    expect(tmx).toContain('srclang="*all*"');
    // Audios come in audio id order; each one's units in its segments' order.
    const swahili = readTmx(tmx, { source: "eng", target: "swa" });
    const unitsOf = (audio: { filename: string }) =>
      swahili
        .filter((u) => u.props?.audio === `Dementia/${audio.filename}/${audio.filename}.wav`)
        .map((u) => [u.source, u.target]);
    expect(unitsOf(chatAudio)).toEqual(chatRows.map((row) => [row.source, row.target]));
    expect(unitsOf(pairedAudio)).toEqual([
      ["Anything else?", "Kitu kingine?"],
      ["The mother is washing dishes.", "Mama anaosha vyombo."],
    ]);
    expect(swahili).toHaveLength(3 + 2 + 2);
    const first = swahili.find((u) => u.source === chatRows[0]!.source)!;
    expect(first).toMatchObject({
      id: chatRows[0]!.id,
      props: { audio: `Dementia/${chatAudio.filename}/${chatAudio.filename}.wav`, speaker: "INV" },
    });
    expect(first.createdAt).toBeInstanceOf(Date);
    // A pair of a source segment and a line has no grid row: no tuid.
    expect(swahili.find((u) => u.source === "Anything else?")!.id).toBeUndefined();
    const english = readTmx(tmx, { source: "lug", target: "eng" });
    expect(english.map((u) => u.target)).toEqual([
      "What do you see?",
      "The boy is on the stool.\tHe\nfalls.",
      "The water spills.",
    ]);
    expect(tmx).not.toContain("Nilienda sokoni");
  });

  it("records both files with the export's other files", async () => {
    const files = await h.deps.db
      .selectFrom("exportFiles")
      .select(["path", "sizeBytes"])
      .where("exportId", "=", item.id)
      .where("path", "in", ["segments.tsv", "translation-memory.tmx"])
      .orderBy("path")
      .execute();
    expect(files.map((f) => f.path)).toEqual(["segments.tsv", "translation-memory.tmx"]);
    // After the audios' files, before the manifests (the speech measures between them: speech-measures.test.ts).
    const topLevel = Object.keys(zip.files).filter((name) => !name.includes("/"));
    expect(topLevel.slice(-8)).toEqual([
      "segments.tsv",
      "translation-memory.tmx",
      "measures.csv",
      "measures-summary.csv",
      "manifest.csv",
      "manifest.jsonl",
      "left_out.csv",
      "left_out.json",
    ]);
  });
});

describe("what the export form's languages mean now", () => {
  it("nothing for the files: each .cha takes its audio's pair; a changed pair is not an unchanged export", async () => {
    const choice: Choice = {
      category: "Dementia",
      status: "approved-transcript",
      chat: { languages: ["fra", "eng"], participantRole: "Participant", corpus: "tafsiri" },
    };
    const first = await exportZip(admin, choice);
    expect(first.item.chat.languages).toEqual(["fra", "eng"]);
    for (const audio of [chatAudio, englishAudio, pairedAudio, editedAudio, plainAudio]) {
      const cha = await chaOf(first.zip, audio);
      expect(cha).not.toContain("fra");
      expect(chatRuleViolations(cha)).toEqual([]);
    }
    const again = await exportZip(admin, choice);
    expect(again.item).toMatchObject({ reusedArchive: true });

    // The paired audio's target language is set to English since: not the same zip again, and its
    // .cha now has %eng.
    await h.caller(admin).translation.setAudioLanguages({
      audioId: pairedAudio.id,
      sourceLanguage: null,
      targetLanguage: "eng",
    });
    const changed = await exportZip(admin, choice);
    expect(changed.item.reusedArchive).toBe(false);
    const cha = await chaOf(changed.zip, pairedAudio);
    expect(tiersOf(cha)).toContain("%eng:\tKitu kingine?");
    expect(chatRuleViolations(cha)).toEqual([]);
  });
});
