import { describe, expect, it } from "vitest";
import {
  isChatText,
  segmentsFromChat,
  segmentsFromPlainText,
  sourceSegments,
} from "../src/translation/source-segments";

/** A DementiaBank-style Cookie Theft transcript, as CLAN writes it. */
const PITT_CHAT = [
  "\uFEFF@UTF8",
  "@PID:\t11312/t-00002420-1",
  "@Begin",
  "@Languages:\teng",
  "@Participants:\tPAR Participant, INV Investigator",
  "@ID:\teng|Pitt|PAR|57;|male|ProbableAD||Participant|18||",
  "@ID:\teng|Pitt|INV|||||Investigator|||",
  "@Media:\t001-0, audio",
  "@Comment:\tthe participant wears a hearing aid",
  "*INV:\ttell me everything you see going on in that picture . \u00150_2130\u0015",
  "*PAR:\t&-uh the boy is [/] is getting cookies (.) out_of the jar . \u00152130_8430\u0015",
  "%mor:\tdet:art|the n|boy aux|be&3S part|get-PRESP n|cookie-PL",
  "\tadv|out_of det:art|the n|jar .",
  "%gra:\t1|2|DET 2|4|SUBJ 3|4|AUX 4|0|ROOT 5|4|OBJ",
  "*PAR:\tand the stool is [//] &=laughs he's gonna fall",
  "\toff xxx . \u00158430_12950\u0015",
  "%com:\tpoints at the stool",
  '*INV:\tmhm . \u0015%snd:"001-0"_12950_13400\u0015',
  "*PAR:\tthe mother's drying dishes ! \u202213400_16000\u2022",
  "@End",
  "",
].join("\r\n");

describe("source segments from CHAT", () => {
  it("knows a CHAT file from other text", () => {
    expect(isChatText(PITT_CHAT)).toBe(true);
    expect(isChatText("*PAR: hello there.\n*INV: and then?")).toBe(false);
    expect(isChatText("@Begin\n@End\n")).toBe(false);
  });

  it("gives one segment per utterance with its speaker, bullet times and CHAT codes as written", () => {
    expect(segmentsFromChat(PITT_CHAT)).toEqual([
      {
        speaker: "INV",
        startMs: 0,
        endMs: 2130,
        text: "tell me everything you see going on in that picture .",
      },
      {
        speaker: "PAR",
        startMs: 2130,
        endMs: 8430,
        text: "&-uh the boy is [/] is getting cookies (.) out_of the jar .",
      },
      {
        speaker: "PAR",
        startMs: 8430,
        endMs: 12950,
        text: "and the stool is [//] &=laughs he's gonna fall off xxx .",
      },
      { speaker: "INV", startMs: 12950, endMs: 13400, text: "mhm ." },
      { speaker: "PAR", startMs: 13400, endMs: 16000, text: "the mother's drying dishes !" },
    ]);
  });

  it("reads other tier codes by their role and leaves times empty without a bullet", () => {
    const chat = "@Begin\n*IN1:\tand   what else ?\n*CHI:\tthe water's  running .\n@End\n";
    expect(segmentsFromChat(chat)).toEqual([
      { speaker: "INV", startMs: null, endMs: null, text: "and what else ?" },
      { speaker: "PAR", startMs: null, endMs: null, text: "the water's running ." },
    ]);
  });

  it("is what sourceSegments reads for a CHAT file", () => {
    expect(sourceSegments(PITT_CHAT)).toEqual(segmentsFromChat(PITT_CHAT));
  });
});

describe("source segments from plain text", () => {
  it("reads speaker prefixes and bracketed times, ending each segment where the next starts", () => {
    const txt = [
      "[0:05] INV: Tell me what you see in the picture.",
      "",
      "[1:02] *PAR:   Well, the boy is on the stool.",
      "He wants the cookies.",
      "[1:10.500] inv:what else?",
      "Participant: The water is running over.",
      "[1:01:02] Investigator: Thank you.",
    ].join("\r\n");
    expect(segmentsFromPlainText(txt)).toEqual([
      { speaker: "INV", startMs: 5000, endMs: 62_000, text: "Tell me what you see in the picture." },
      { speaker: "PAR", startMs: 62_000, endMs: null, text: "Well, the boy is on the stool." },
      { speaker: "PAR", startMs: null, endMs: null, text: "He wants the cookies." },
      { speaker: "INV", startMs: 70_500, endMs: null, text: "what else?" },
      { speaker: "PAR", startMs: null, endMs: null, text: "The water is running over." },
      { speaker: "INV", startMs: 3_662_000, endMs: null, text: "Thank you." },
    ]);
  });

  it("defaults the first line to the participant and carries a prefix-only line to the next text", () => {
    const txt = "I grew up in Gulu.\nINV:\nWhere is that?\n[2:00] PAR:\nNear the river.\n[1:75] is not a time";
    expect(segmentsFromPlainText(txt)).toEqual([
      { speaker: "PAR", startMs: null, endMs: null, text: "I grew up in Gulu." },
      { speaker: "INV", startMs: null, endMs: null, text: "Where is that?" },
      { speaker: "PAR", startMs: 120_000, endMs: null, text: "Near the river." },
      { speaker: "PAR", startMs: null, endMs: null, text: "[1:75] is not a time" },
    ]);
  });

  it("splits a long extracted paragraph into sentences, not after Dr. or e.g.", () => {
    const paragraph =
      "[3:15] PAR: We went to see Dr. Okello at the clinic in town because my memory was getting worse every month. " +
      "He asked me many things, e.g. the date and the name of the president, and I could not remember them! " +
      "Was it the illness? 2019 was the year it started, when I forgot the way home from the market near our house.";
    expect(paragraph.length).toBeGreaterThan(300);
    expect(segmentsFromPlainText(`${paragraph}\n[3:40] INV: I see.`)).toEqual([
      {
        speaker: "PAR",
        startMs: 195_000,
        endMs: null,
        text: "We went to see Dr. Okello at the clinic in town because my memory was getting worse every month.",
      },
      {
        speaker: "PAR",
        startMs: null,
        endMs: null,
        text: "He asked me many things, e.g. the date and the name of the president, and I could not remember them!",
      },
      { speaker: "PAR", startMs: null, endMs: null, text: "Was it the illness?" },
      {
        speaker: "PAR",
        startMs: null,
        endMs: null,
        text: "2019 was the year it started, when I forgot the way home from the market near our house.",
      },
      { speaker: "INV", startMs: 220_000, endMs: null, text: "I see." },
    ]);
  });

  it("keeps a short line with several sentences as one segment", () => {
    expect(segmentsFromPlainText("Yes. No. Maybe.")).toEqual([
      { speaker: "PAR", startMs: null, endMs: null, text: "Yes. No. Maybe." },
    ]);
  });

  it("gives no segments for empty or blank input", () => {
    expect(sourceSegments("")).toEqual([]);
    expect(sourceSegments("\uFEFF \r\n\t\n")).toEqual([]);
  });
});
