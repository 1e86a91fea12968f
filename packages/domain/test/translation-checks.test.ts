import { describe, expect, it } from "vitest";
import { findGlossaryTerms } from "../src/translation/checks/glossary";
import {
  CHECK_LABELS,
  CHECK_NAMES,
  blockingFindings,
  checkSegments,
  countTranslated,
  type CheckContext,
  type CheckName,
  type SegmentState,
  type TranslationSegment,
} from "../src";

// Decision 035: the translation checks. Every check has a segment that trips it and one that does not.

let nextId = 0;
/** A segment with a fresh id (state: translated unless said). */
function segment(source: string, target: string, state: SegmentState = "translated"): TranslationSegment {
  nextId += 1;
  return { id: `s${nextId}`, speaker: "PAR", startMs: null, endMs: null, source, target, state };
}

const context: CheckContext = { glossary: [], keepChatMarkers: false };

/** The findings of one segment's check `name`, as messages. */
function messages(name: CheckName, source: string, target: string, extra: Partial<CheckContext> = {}): string[] {
  return checkSegments([segment(source, target)], { ...context, ...extra })
    .filter((f) => f.check === name)
    .map((f) => f.message);
}

describe("untranslated (error)", () => {
  it("trips on an empty or blank translation, whatever the state", () => {
    const blank = segment("Where did you grow up?", "  \n", "translated");
    expect(checkSegments([blank], context)).toEqual([
      { check: "untranslated", severity: "error", segmentId: blank.id, message: "Not translated yet." },
    ]);
    expect(messages("untranslated", "Hello.", "")).toEqual(["Not translated yet."]);
  });

  it("does not trip on a translation or on an empty row, and an untranslated segment gets no other finding", () => {
    expect(messages("untranslated", "Hello.", "Habari.")).toEqual([]);
    expect(checkSegments([segment("", ""), segment("  ", " ", "empty")], context)).toEqual([]);
    const findings = checkSegments([segment("In 1990 the picture (.) &-uh was taken.", "")], {
      glossary: [{ sourceTerm: "picture", targetTerm: "picha", note: "" }],
      keepChatMarkers: true,
    });
    expect(findings.map((f) => f.check)).toEqual(["untranslated"]);
  });
});

describe("unchanged (warning)", () => {
  it("trips when the translation is the source, trimmed and in any case", () => {
    const findings = checkSegments([segment("Gulu is near the river.", "  gulu IS near the river. ")], context);
    expect(findings).toEqual([expect.objectContaining({ check: "unchanged", severity: "warning" })]);
    expect(findings[0]?.message).toBe("The translation is the same as the source.");
  });

  it("does not trip on a translation, nor on numbers only or CHAT markers only", () => {
    expect(messages("unchanged", "Gulu is near the river.", "Gulu iko karibu na mto.")).toEqual([]);
    expect(messages("unchanged", "1990 , 12 .", "1990 , 12 .")).toEqual([]);
    expect(messages("unchanged", "&=laughs xxx (.)", "&=laughs xxx (.)")).toEqual([]);
  });
});

describe("numbers (warning)", () => {
  it("trips when a number is missing or different", () => {
    expect(messages("numbers", "We were 12 in 1990.", "Tulikuwa 12.")).toEqual([
      "Numbers differ: the source has 12 and 1990, the translation 12.",
    ]);
    expect(messages("numbers", "It cost 1.5 shillings.", "Ilikuwa shilingi 15.")).toEqual([
      "Numbers differ: the source has 1.5, the translation 15.",
    ]);
    expect(messages("numbers", "Three children.", "Watoto 3.")).toEqual([
      "Numbers differ: the source has none, the translation 3.",
    ]);
    expect(checkSegments([segment("Age 72.", "Umri 27.")], context)[0]?.severity).toBe("warning");
  });

  it("does not trip on the same numbers in another order or written with other separators", () => {
    expect(messages("numbers", "In 1990 we were 12.", "Tulikuwa 12 mwaka 1990.")).toEqual([]);
    expect(messages("numbers", "1,000 and 2 000 and 3000 people", "watu 1000, 2,000 na 3 000")).toEqual([]);
    expect(messages("numbers", "It was 1.5 km, then 2,25 km.", "Ilikuwa km 1,5 kisha km 2.25.")).toEqual([]);
  });

  it("does not compare spelled-out numbers or CHAT's timed pauses", () => {
    expect(messages("numbers", "Three children.", "Watoto watatu.")).toEqual([]);
    expect(messages("numbers", "I (1.5) was born.", "Nilizaliwa.")).toEqual([]);
  });
});

describe("glossary (warning)", () => {
  const glossary = [
    { sourceTerm: "picture", targetTerm: "picha", note: "" },
    { sourceTerm: "cookie jar", targetTerm: "chupa ya biskuti", note: "the Cookie Theft picture" },
    { sourceTerm: "café", targetTerm: "mgahawa", note: "" },
  ];

  it("trips once per source term whose target term is missing", () => {
    const found = checkSegments([segment("The Picture shows a cookie\njar.", "Mchoro unaonyesha chupa.")], {
      ...context,
      glossary,
    });
    expect(found.map((f) => [f.check, f.severity, f.message])).toEqual([
      ["glossary", "warning", 'Glossary: "picture" should be translated as "picha".'],
      ["glossary", "warning", 'Glossary: "cookie jar" should be translated as "chupa ya biskuti".'],
    ]);
    expect(messages("glossary", "At the CAFÉ.", "Kwenye hoteli.", { glossary })).toEqual([
      'Glossary: "café" should be translated as "mgahawa".',
    ]);
  });

  it("does not trip when the target term is there (any case), or the source term is only part of a word", () => {
    expect(messages("glossary", "The picture of a cookie jar.", "PICHA ya Chupa ya Biskuti.", { glossary })).toEqual(
      [],
    );
    expect(messages("glossary", "Pictures and a picturesque cafés.", "Mchoro.", { glossary })).toEqual([]);
  });

  it("accepts any of a source term's target terms", () => {
    const two = [...glossary, { sourceTerm: "Picture", targetTerm: "taswira", note: "" }];
    expect(messages("glossary", "The picture.", "Taswira.", { glossary: two })).toEqual([]);
    expect(messages("glossary", "The picture.", "Mchoro.", { glossary: two })).toEqual([
      'Glossary: "picture" should be translated as "picha" or "taswira".',
    ]);
  });
});

describe("length (warning)", () => {
  const source = "Where did you grow up as a child?"; // 33 characters

  it("trips when the translation is far shorter or longer than the ratio expects", () => {
    expect(messages("length", source, "Wapi?")).toEqual([
      "The translation is much shorter than the source: check that nothing is missing.",
    ]);
    expect(messages("length", source, "x".repeat(70))).toEqual([
      "The translation is much longer than the source: check that nothing was added.",
    ]);
    expect(messages("length", source, "Ulikulia wapi ukiwa mtoto?", { lengthRatio: 2 })).toEqual([
      "The translation is much shorter than the source: check that nothing is missing.",
    ]);
  });

  it("does not trip within the ratio, nor on a short source", () => {
    expect(messages("length", source, "Ulikulia wapi ukiwa mtoto?")).toEqual([]);
    expect(messages("length", source, "x".repeat(70), { lengthRatio: 1.2 })).toEqual([]);
    expect(messages("length", "Yes, I did.", "Ndiyo, nilifanya hivyo kabisa kabisa kabisa.")).toEqual([]);
  });
});

describe("inconsistent (warning)", () => {
  it("trips when the memory has other translations of the source, quoting at most two", () => {
    const one = segment("Thank you.", "Asante.");
    const memoryVariants = new Map([[one.id, ["Asante sana.", " asante. ", "Nashukuru.", "Ahsante.", "ASANTE SANA."]]]);
    const found = checkSegments([one], { ...context, memoryVariants });
    expect(found).toEqual([
      {
        check: "inconsistent",
        severity: "warning",
        segmentId: one.id,
        message:
          'Elsewhere this source was translated as "Asante sana." or "Nashukuru." (and 1 more). Use the same translation unless this context needs another.',
      },
    ]);
  });

  it("does not trip when the memory agrees or has nothing for the segment", () => {
    const one = segment("Thank you.", "Asante.");
    const memoryVariants = new Map([
      [one.id, ["ASANTE. ", ""]],
      ["other", ["Nashukuru."]],
    ]);
    expect(checkSegments([one], { ...context, memoryVariants })).toEqual([]);
    expect(checkSegments([one], context)).toEqual([]);
  });
});

describe("chat-markers (error when the guidelines keep markers)", () => {
  const keep = { keepChatMarkers: true };

  it("trips on markers missing from the translation, counting each kind", () => {
    const source = "the boy [/] the boy &-uh takes [/] a cookie (.) xxx &=laughs (1.5) .";
    const target = "mvulana [/] mvulana anachukua biskuti (.) xxx &=anacheka (1.5) .";
    const found = checkSegments([segment(source, target)], { ...context, ...keep });
    expect(found.map((f) => [f.check, f.severity, f.message])).toEqual([
      ["chat-markers", "error", "CHAT markers missing from the translation: [/] (1 of 2), &-uh."],
    ]);
    expect(blockingFindings(found)).toEqual(found);
  });

  it("names fillers by the source's words and compares exact strings for the others", () => {
    expect(messages("chat-markers", "&-uh well &-um (..) yyy [//] www", "&-eh sawa (...) [///]", keep)).toEqual([
      "CHAT markers missing from the translation: &-uh or &-um (1 of 2), (..), yyy, [//], www.",
    ]);
    expect(messages("chat-markers", "&+fr (2.) she (2.) left.", "aliondoka.", keep)).toEqual([
      "CHAT markers missing from the translation: &+fr, (2.) (2 of 2).",
    ]);
  });

  it("does not trip when every marker is kept (fillers' words may be translated), or when markers are not kept", () => {
    const source = "the boy [/] the boy &-uh takes (.) xxx &=laughs (1.5) .";
    expect(messages("chat-markers", source, "mvulana [/] mvulana &-eh (.) xxx &=anacheka (1.5) .", keep)).toEqual([]);
    expect(messages("chat-markers", source, "Mvulana anachukua.")).toEqual([]);
    expect(messages("chat-markers", "the boxxx and &", "mvulana na", keep)).toEqual([]);
  });
});

describe("checkSegments, blockingFindings, CHECK_LABELS", () => {
  it("returns findings in segment order, each segment's in check order, and only errors block", () => {
    const first = segment("Where did you grow up in 1990?", "");
    const second = segment("We were 12 [/] 12 children.", "we were 12 [/] 12 children.");
    const findings = checkSegments([first, second], { ...context, keepChatMarkers: true });
    expect(findings.map((f) => [f.segmentId, f.check, f.severity])).toEqual([
      [first.id, "untranslated", "error"],
      [second.id, "unchanged", "warning"],
    ]);
    expect(blockingFindings(findings).map((f) => f.segmentId)).toEqual([first.id]);
    expect(blockingFindings([])).toEqual([]);
  });

  it("labels every check", () => {
    expect(CHECK_NAMES.map((name) => CHECK_LABELS[name])).toEqual([
      "Untranslated",
      "Unchanged",
      "Numbers",
      "Glossary",
      "Length",
      "Inconsistent",
      "CHAT markers",
    ]);
  });
});

describe("countTranslated", () => {
  it("counts translated segments of the rows that are not empty", () => {
    const segments = [
      segment("One.", "Moja.", "translated"),
      segment("Two.", "Mbili", "draft"),
      segment("Three.", "", "empty"),
      segment("", " ", "translated"),
      segment("Four.", "Nne.", "translated"),
    ];
    expect(countTranslated(segments)).toEqual({ translated: 2, total: 4 });
    expect(countTranslated([])).toEqual({ translated: 0, total: 0 });
  });
});

describe("findGlossaryTerms (decision 035)", () => {
  it("finds whole-word terms in text order with their translations, not inside other words", () => {
    const glossary = [
      { sourceTerm: "picture", targetTerm: "picha", note: "" },
      { sourceTerm: "cookie jar", targetTerm: "mtungi wa biskuti", note: "" },
    ];
    const source = "The cookie jar is in the Picture, not the pictures.";
    expect(findGlossaryTerms(source, glossary).map((m) => [source.slice(m.start, m.end), m.targetTerms])).toEqual([
      ["cookie jar", ["mtungi wa biskuti"]],
      ["Picture", ["picha"]],
    ]);
  });
});
