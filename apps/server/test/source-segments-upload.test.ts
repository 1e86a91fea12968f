import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, fixture, uploadAudio } from "./fixtures/app-harness";
import { makeDocx, makePdf } from "./fixtures/documents";

/**
 * Decision 035: an initial transcript uploaded over REST (SPEC §7.2 INITIAL_TRANSCRIPT) becomes
 * the source segments the staff member's segment grid opens with, from CHAT and from text.
 */
const { h, admin, staffA: staff, adminToken } = await appWithUsers();
afterAll(() => h.close());

async function gridAfterUpload(name: string, content: Buffer | string) {
  const audioId = (
    await uploadAudio(h, adminToken, { name: `${name}.wav`, content: await fixture("hello.wav"), type: "audio/wav" })
  )._id;
  await assignOverRest(h, adminToken, audioId, staff);
  const res = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
    ["audioId", audioId],
    ["file", { name, content }],
  ]);
  expect(res.statusCode, res.body).toBe(200);
  const grid = await h.caller(staff).translation.segments({ audioId });
  return {
    audioId,
    grid,
    rows: grid.segments.map((s) => [s.speaker, s.startMs, s.endMs, s.source, s.target, s.state]),
  };
}

const CHAT = [
  "@UTF8",
  "@Begin",
  "@Languages:\teng",
  "@Participants:\tPAR Participant, INV Investigator",
  "@ID:\teng|pitt|PAR|67;|female|ProbableAD||Participant|16||",
  "@Media:\tcookie-07, audio",
  "*INV:\ttell me everything you see going on in that picture . \u00150_2500\u0015",
  "*PAR:\twell &-uh the boy [/] the boy is getting cookies . \u00152600_6100\u0015",
  "%mor:\tco|well det:art|the n|boy",
  "*PAR:\tand (.) xxx the stool is",
  "\tfalling over . \u00156200_9000\u0015",
  "@End",
].join("\n");

describe("initial transcripts become source segments (decision 035)", () => {
  it("reads a .cha file: one segment per utterance with its speaker, bullet times and CHAT codes as written", async () => {
    const { rows, grid } = await gridAfterUpload("cookie-07.cha", CHAT);
    expect(grid.hasSourceTranscript).toBe(true);
    expect(rows).toEqual([
      ["INV", 0, 2500, "tell me everything you see going on in that picture .", "", "empty"],
      ["PAR", 2600, 6100, "well &-uh the boy [/] the boy is getting cookies .", "", "empty"],
      ["PAR", 6200, 9000, "and (.) xxx the stool is falling over .", "", "empty"],
    ]);
  });

  it("reads a .txt file with speaker prefixes and times", async () => {
    const text = "[0:01] INV: Where did you grow up?\n[0:04] *PAR: In Gulu.\nNear the river.\n";
    const { rows } = await gridAfterUpload("gulu.txt", text);
    expect(rows).toEqual([
      ["INV", 1000, 4000, "Where did you grow up?", "", "empty"],
      ["PAR", 4000, null, "In Gulu.", "", "empty"],
      ["PAR", null, null, "Near the river.", "", "empty"],
    ]);
  });

  it("reads a .docx file, a paragraph a segment", async () => {
    const { rows } = await gridAfterUpload(
      "visit.docx",
      await makeDocx(["INV: How are you today?", "PAR: I am well."]),
    );
    expect(rows.map((r) => [r[0], r[3]])).toEqual([
      ["INV", "How are you today?"],
      ["PAR", "I am well."],
    ]);
  });

  it("reads a .doc (Word 97-2003) file", async () => {
    // A .doc cannot be written here without Word: the fixture is the one the upload tests read.
    const { rows } = await gridAfterUpload("notes.doc", await fixture("initial-transcript.doc"));
    expect(rows.map((r) => r[3])).toEqual(
      expect.arrayContaining(["Habari ya asubuhi.", "This is the initial transcript."]),
    );
  });

  it("reads a .pdf file", async () => {
    const { rows } = await gridAfterUpload("pdf-notes.pdf", makePdf("PAR: The water is running over."));
    expect(rows.map((r) => [r[0], r[3]])).toEqual([["PAR", "The water is running over."]]);
  });

  it("replacing the transcript replaces the segments; an admin sees the same grid, not editable without a task", async () => {
    const { audioId } = await gridAfterUpload("twice.txt", "PAR: first version");
    await h.upload("INITIAL_TRANSCRIPT", adminToken, [
      ["audioId", audioId],
      ["replace", "true"],
      ["file", { name: "twice.txt", content: "PAR: second version\nINV: and more" }],
    ]);
    const grid = await h.caller(admin).translation.segments({ audioId });
    expect(grid.segments.map((s) => s.source)).toEqual(["second version", "and more"]);
  });
});
