import { describe, expect, it } from "vitest";
import { chatFile, chatUtterance, DEFAULT_CHAT_SETTINGS } from "../src/export/chat-file";
import { chatRuleViolations } from "../src/testing/chat-rules";

// Issue 12 Build 2: every transcript exported is a CHAT file as TalkBank's CHECK expects.

const example = chatFile({
  text: "Mtoto anachukua biskuti. Mama anaosha vyombo\nMaji yanamwagika!\n\nNini kinatokea?",
  mediaName: "control_0042",
  category: "Control",
});

describe("chatFile", () => {
  it("writes the headers in order, one *PAR line per paragraph and @End", () => {
    expect(example).toBe(
      [
        "@UTF8",
        "@Begin",
        "@Languages:\teng",
        "@Participants:\tPAR Participant",
        "@ID:\teng|tafsiri|PAR|||Control||Participant|||",
        "@Media:\tcontrol_0042, audio",
        "*PAR:\tMtoto anachukua biskuti , Mama anaosha vyombo .",
        "*PAR:\tMaji yanamwagika !",
        "*PAR:\tNini kinatokea ?",
        "@End",
        "",
      ].join("\n"),
    );
    expect(chatRuleViolations(example)).toEqual([]);
  });

  it("writes the languages, role and corpus of the export's settings", () => {
    const file = chatFile(
      { text: "Habari", mediaName: "dementia_7", category: "Dementia" },
      { languages: ["swa", "eng"], participantRole: "Target_Adult", corpus: "kampala-2026" },
    );
    expect(file).toContain("@Languages:\tswa, eng\n");
    expect(file).toContain("@Participants:\tPAR Target_Adult\n");
    expect(file).toContain("@ID:\tswa|kampala-2026|PAR|||Dementia||Target_Adult|||\n");
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("keeps every generated file within the rules, whatever the transcript holds", () => {
    const transcripts = [
      "",
      "\n\n",
      "...",
      "?!",
      "One sentence",
      "Ends with a dot.",
      "Ends with dots...",
      "Is it? Yes! Done.",
      "Really?!",
      "Tabs\tand   spaces   everywhere\t",
      "Windows\r\nline ends\r\n",
      "[laughs] <overlap> @word &um #pause +...",
      'She said "hello" (quietly) and left; 50% of it = done * twice',
      "Numbers 3.5 and 1,000, then 7.",
      "Émigré façade naïve — ça va… oui.",
      "Ndiyo , hapana ,, sawa ,",
      "Control\u0000characters\u0007here",
      "a".repeat(5000),
      "Wawili.\nWatatu?\n\n\nWanne!",
      " . , ? ",
    ];
    for (const [i, text] of transcripts.entries()) {
      for (const category of ["Control", "Dementia"] as const) {
        const file = chatFile({ text, mediaName: `audio ${i}, copy`, category });
        expect({ text, problems: chatRuleViolations(file) }).toEqual({ text, problems: [] });
      }
    }
  });

  it("turns sentence ends, semicolons and dashes inside a paragraph into commas, and keeps numbers whole", () => {
    expect(chatUtterance("Is it? Yes! Done")).toBe("Is it , Yes , Done .");
    expect(chatUtterance("left; then — gone")).toBe("left , then , gone .");
    expect(chatUtterance("Numbers 3.5 and 1,000, at 10:30: ok?")).toBe("Numbers 3.5 and 1,000 , at 10:30 , ok ?");
    expect(chatUtterance('[laughs] she said "hi" (softly)')).toBe("laughs she said hi softly .");
  });

  it("leaves out paragraphs without a word and writes no utterance for an empty transcript", () => {
    expect(chatUtterance(" ... ")).toBeNull();
    expect(chatUtterance("[] <> @")).toBeNull();
    const empty = chatFile({ text: "\n . \n", mediaName: "x", category: "Control" });
    expect(empty).not.toContain("*PAR");
    expect(chatRuleViolations(empty)).toEqual([]);
  });

  it("refuses settings CHAT cannot carry", () => {
    const transcript = { text: "Hi", mediaName: "x", category: "Control" } as const;
    expect(() => chatFile(transcript, { ...DEFAULT_CHAT_SETTINGS, languages: [] })).toThrow(/ISO 639-3/);
    expect(() => chatFile(transcript, { ...DEFAULT_CHAT_SETTINGS, languages: ["en"] })).toThrow(/ISO 639-3/);
    expect(() => chatFile(transcript, { ...DEFAULT_CHAT_SETTINGS, corpus: "two words" })).toThrow(/corpus/);
  });
});

describe("chatRuleViolations", () => {
  // Each broken copy of a valid file must be caught, so a passing file means something.
  const broken: Array<[string, (file: string) => string, RegExp]> = [
    ["no @UTF8", (f) => f.replace("@UTF8\n", ""), /expected @UTF8/],
    ["no @Begin", (f) => f.replace("@Begin\n", ""), /expected @Begin/],
    [
      "headers out of order",
      (f) => f.replace(/(@Languages:[^\n]*\n)(@Participants:[^\n]*\n)/, "$2$1"),
      /expected @Languages/,
    ],
    ["a space for the tab of a header", (f) => f.replace("@Media:\t", "@Media: "), /no tab after @Media/],
    ["a space for the tab of a tier", (f) => f.replace("*PAR:\tMaji", "*PAR: Maji"), /no tab after \*PAR/],
    ["@ID with nine fields", (f) => f.replace("|Control||", "|Control|"), /9 '\|'-separated fields/],
    ["@ID with another language", (f) => f.replace("@ID:\teng", "@ID:\tswa"), /not in @Languages/],
    ["no @ID", (f) => f.replace(/@ID:[^\n]*\n/, ""), /expected @ID/],
    ["no terminator", (f) => f.replace("yanamwagika !", "yanamwagika"), /does not end with a terminator/],
    [
      "a terminator without a space",
      (f) => f.replace("yanamwagika !", "yanamwagika!"),
      /does not end with a terminator/,
    ],
    ["two terminators", (f) => f.replace("biskuti ,", "biskuti ."), /a terminator inside/],
    ["an unknown speaker", (f) => f.replace("*PAR:\tMaji", "*INV:\tMaji"), /INV is not a participant/],
    ["no @End", (f) => f.replace("@End\n", ""), /last line is not @End/],
    ["a stray line", (f) => f.replace("@End", "some text\n@End"), /not an utterance tier/],
    ["CRLF line ends", (f) => f.replaceAll("\n", "\r\n"), /carriage return/],
    ["no final line break", (f) => f.replace(/\n$/, ""), /does not end with a line break/],
  ];
  for (const [name, breakIt, expected] of broken) {
    it(`catches ${name}`, () => {
      const problems = chatRuleViolations(breakIt(example));
      expect(problems.join("\n")).toMatch(expected);
    });
  }
});
