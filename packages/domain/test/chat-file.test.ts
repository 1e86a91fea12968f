import { describe, expect, it } from "vitest";
import {
  chatFile,
  chatRuleViolations,
  chatSegmentSpans,
  chatUtterances,
  chatUtteranceText,
  DEFAULT_CHAT_SETTINGS,
  paragraphSpans,
  segmentSpans,
  sourceUtterances,
  splitSpan,
  type ChatParticipant,
  type ChatSegment,
  type ChatTranscript,
} from "../src";

// Decision 024, "CHAT that says it": every transcript exported is a CHAT file TalkBank's CHECK
// accepts, with who spoke, when, and who the participant is.

/** The utterances of one paragraph as the main tier writes them. */
const said = (paragraph: string): string[] => chatUtterances(paragraph).map(chatUtteranceText);
/** The main-tier lines of a file, bullets shown as ‹start_end›. */
const tiers = (file: string): string[] =>
  file
    .split("\n")
    .filter((line) => line.startsWith("*"))
    .map((line) => line.replace(/\u0015(\d+)_(\d+)\u0015/g, "‹$1_$2›"));
/** The main and dependent tier lines of a file, bullets shown as ‹start_end›. */
const allTiers = (file: string): string[] =>
  file
    .split("\n")
    .filter((line) => /^[*%]/.test(line))
    .map((line) => line.replace(/\u0015(\d+)_(\d+)\u0015/g, "‹$1_$2›"));

const participant: ChatParticipant = {
  code: "P0042",
  group: "Dementia",
  sex: "female",
  ageMonths: 72 * 12 + 3,
  educationYears: 12,
  mmse: 24,
};

describe("chatFile", () => {
  it("writes the headers in order, one *PAR line per sentence and @End (a caller of the old shape)", () => {
    const file = chatFile({
      text: "Mtoto anachukua biskuti. Mama anaosha vyombo\nMaji yanamwagika!\n\nNini kinatokea?",
      mediaName: "control_0042",
      category: "Control",
    });
    expect(file).toBe(
      [
        "@UTF8",
        "@Begin",
        "@Languages:\teng",
        "@Participants:\tPAR Participant",
        "@ID:\teng|tafsiri|PAR|||Control||Participant|||",
        "@Media:\tcontrol_0042, audio",
        "*PAR:\tMtoto anachukua biskuti .",
        "*PAR:\tMama anaosha vyombo .",
        "*PAR:\tMaji yanamwagika !",
        "*PAR:\tNini kinatokea ?",
        "@End",
        "",
      ].join("\n"),
    );
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("writes an INV and a PAR paragraph with both @ID lines, @Date and bullets on the timed utterances", () => {
    const file = chatFile(
      {
        text: "[0:01.000] *INV: What do you see in the picture?\n[0:04.500] The boy is on the stool.",
        mediaName: "dementia_0042",
        category: "Dementia",
        participant,
        sessionDate: "2026-03-05",
        durationMs: 9_250,
      },
      DEFAULT_CHAT_SETTINGS,
    );
    expect(file).toBe(
      [
        "@UTF8",
        "@Begin",
        "@Languages:\teng",
        "@Participants:\tPAR Participant, INV Investigator",
        "@ID:\teng|tafsiri|PAR|72;03.|female|Dementia||Participant|12|24|",
        "@ID:\teng|tafsiri|INV|||||Investigator|||",
        "@Media:\tdementia_0042, audio",
        "@Date:\t05-MAR-2026",
        "*INV:\tWhat do you see in the picture ? \u00151000_4500\u0015",
        "*PAR:\tThe boy is on the stool . \u00154500_9250\u0015",
        "@End",
        "",
      ].join("\n"),
    );
    expect(file).not.toContain("\u2022");
    expect(chatRuleViolations(file)).toEqual([]);
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

  it("leaves unknown participant fields empty and takes the participant's group over the audio's", () => {
    const unknown = {
      ...participant,
      group: "Control",
      sex: null,
      ageMonths: null,
      educationYears: null,
      mmse: null,
    } as const;
    const file = chatFile({ text: "Hi.", mediaName: "a", category: "Dementia", participant: unknown });
    expect(file).toContain("@ID:\teng|tafsiri|PAR|||Control||Participant|||\n");
    expect(file).not.toContain("@Date");
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("writes @Date as DD-MMM-YYYY and leaves it out for a day that does not exist", () => {
    const on = (sessionDate: string) => chatFile({ text: "Hi.", mediaName: "a", category: "Control", sessionDate });
    expect(on("2026-12-31")).toContain("@Date:\t31-DEC-2026\n");
    expect(on("2024-02-29")).toContain("@Date:\t29-FEB-2024\n");
    expect(on("2026-02-30")).not.toContain("@Date");
    expect(on("05/03/2026")).not.toContain("@Date");
  });

  it("puts each sentence of a paragraph on its own tier and shares the paragraph's time by length", () => {
    const file = chatFile({
      text: "[0:10.000] Yes. I think the water is running over!\n[0:20.000] *INV: Good.",
      mediaName: "a",
      category: "Control",
      durationMs: 25_000,
    });
    // "Yes ." is 5 characters, "I think the water is running over !" 35: 10 000 ms shared 5:35.
    expect(tiers(file)).toEqual([
      "*PAR:\tYes . ‹10000_11250›",
      "*PAR:\tI think the water is running over ! ‹11250_20000›",
      "*INV:\tGood . ‹20000_25000›",
    ]);
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("writes no bullet where the end is unknown, and ignores a time out of order", () => {
    const file = chatFile({
      text: "[0:05.000] First.\n[0:02.000] Typed back in time.\nUntimed.\n[0:08.000] Last.",
      mediaName: "a",
      category: "Control",
    });
    expect(tiers(file)).toEqual([
      "*PAR:\tFirst . ‹5000_8000›",
      "*PAR:\tTyped back in time .",
      "*PAR:\tUntimed .",
      "*PAR:\tLast .",
    ]);
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("leaves out paragraphs without a word and writes no utterance for an empty transcript", () => {
    for (const text of ["", "\n . \n", "[0:01.000] ?!", "*INV: ..."]) {
      const file = chatFile({ text, mediaName: "x", category: "Control", durationMs: 5000 });
      expect(file).not.toMatch(/^\*/m);
      expect(chatRuleViolations(file)).toEqual([]);
    }
  });

  it("refuses settings CHAT cannot carry", () => {
    const transcript: ChatTranscript = { text: "Hi", mediaName: "x", category: "Control" };
    expect(() => chatFile(transcript, { ...DEFAULT_CHAT_SETTINGS, languages: [] })).toThrow(/ISO 639-3/);
    expect(() => chatFile(transcript, { ...DEFAULT_CHAT_SETTINGS, languages: ["en"] })).toThrow(/ISO 639-3/);
    expect(() => chatFile(transcript, { ...DEFAULT_CHAT_SETTINGS, corpus: "two words" })).toThrow(/corpus/);
  });
});

describe("translated segments (decision 035)", () => {
  const segment = (fields: Partial<ChatSegment>): ChatSegment => ({
    speaker: "PAR",
    startMs: null,
    endMs: null,
    source: "",
    target: "",
    ...fields,
  });
  const transcript = (segments: ChatSegment[], target = "swa"): ChatTranscript => ({
    text: "Translated text the main tier does not hold.",
    mediaName: "dementia_0042",
    category: "Dementia",
    participant,
    durationMs: 12_000,
    segments,
    languages: { source: "lug", target },
  });

  it("writes the source on the main tier with its bullet and the translation on %xtra after it", () => {
    const file = chatFile(
      transcript([
        segment({ speaker: "INV", startMs: 0, endMs: 2000, source: "Kiki ky'olaba?", target: "Unaona nini?" }),
        segment({
          startMs: 2000,
          endMs: 6000,
          source: "&-uh omulenzi [/] omulenzi (.) agwa .",
          target: "Mvulana\tanaanguka.",
        }),
      ]),
      { languages: ["eng"], participantRole: "Participant", corpus: "tafsiri" },
    );
    expect(file).toBe(
      [
        "@UTF8",
        "@Begin",
        "@Languages:\tlug",
        "@Participants:\tPAR Participant, INV Investigator",
        "@ID:\tlug|tafsiri|PAR|72;03.|female|Dementia||Participant|12|24|",
        "@ID:\tlug|tafsiri|INV|||||Investigator|||",
        "@Media:\tdementia_0042, audio",
        "*INV:\tKiki ky'olaba ? \u00150_2000\u0015",
        "%xtra:\tUnaona nini?",
        "*PAR:\t&-uh omulenzi [/] omulenzi (.) agwa . \u00152000_6000\u0015",
        "%xtra:\tMvulana anaanguka.",
        "@End",
        "",
      ].join("\n"),
    );
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("writes %eng for a translation into English, never %tra", () => {
    const file = chatFile(transcript([segment({ source: "Kiki ky'olaba?", target: "What do you see?" })], "eng"));
    expect(allTiers(file)).toEqual(["*PAR:\tKiki ky'olaba ?", "%eng:\tWhat do you see?"]);
    expect(file).not.toContain("%tra");
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("keeps a source written in CHAT as it is, and writes typed text as CHAT with its codes kept", () => {
    expect(sourceUtterances("<he is> [//] he  falls &=laughs +...")).toEqual(["<he is> [//] he falls &=laughs +..."]);
    expect(sourceUtterances("xxx &+fr friend (1.5) yes !")).toEqual(["xxx &+fr friend (1.5) yes !"]);
    expect(sourceUtterances("&-um I went [/] I went to Dr. Okello at 5. Then home?")).toEqual([
      "&-um I went [/] I went to Dr Okello at five .",
      "Then home ?",
    ]);
    expect(sourceUtterances("[/] nothing retraced [: replaced] (.)")).toEqual(["nothing retraced (.) ."]);
    expect(sourceUtterances(" . ")).toEqual([]);
  });

  it("writes a segment of several sentences as several utterances sharing its span, its translation after the last", () => {
    const file = chatFile(
      transcript([segment({ startMs: 1000, endMs: 3000, source: "Yes. And more!", target: "Ndiyo. Na zaidi!" })]),
    );
    expect(allTiers(file)).toEqual([
      "*PAR:\tYes . ‹1000_1667›",
      "*PAR:\tAnd more ! ‹1667_3000›",
      "%xtra:\tNdiyo. Na zaidi!",
    ]);
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("writes www for a segment translated without its source, and leaves out a segment with neither", () => {
    const file = chatFile(
      transcript([
        segment({ source: "Ee.", target: "Ndiyo." }),
        segment({ target: "Sikusikia." }),
        segment({ source: " ", target: " " }),
      ]),
    );
    expect(allTiers(file)).toEqual(["*PAR:\tEe .", "%xtra:\tNdiyo.", "*PAR:\twww .", "%xtra:\tSikusikia."]);
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("holds the transcript on the main tier in the target language when no segment has a source", () => {
    for (const segments of [null, [], [segment({ target: "Habari." })]]) {
      const file = chatFile({ ...transcript([]), segments, text: "Habari ya leo?" });
      expect(file).toContain("@Languages:\tswa\n");
      expect(file).toContain("@ID:\tswa|tafsiri|PAR|");
      expect(allTiers(file)).toEqual(["*PAR:\tHabari ya leo ?"]);
      expect(chatRuleViolations(file)).toEqual([]);
    }
  });
});

describe("segment spans (decision 035)", () => {
  const at = (speaker: "PAR" | "INV", startMs: number | null, endMs: number | null, length = 10) => ({
    speaker,
    startMs,
    endMs,
    length,
  });

  it("ends a segment at its own end, else at the next start, else at the audio's end, cut at the audio's end", () => {
    expect(
      segmentSpans([at("INV", 0, 1500), at("PAR", 1500, null), at("PAR", 4000, 20_000), at("PAR", 9000, null)], 10_000),
    ).toEqual([
      { startMs: 0, endMs: 1500 },
      { startMs: 1500, endMs: 4000 },
      { startMs: 4000, endMs: 9000 },
      { startMs: 9000, endMs: 10_000 },
    ]);
    expect(segmentSpans([at("PAR", 1000, null)], null)).toEqual([null]);
  });

  it("gives no span to a start out of order, at or past the audio's end, or not a time", () => {
    expect(
      segmentSpans(
        [at("PAR", 5000, 6000), at("INV", 2000, 3000), at("PAR", 12_000, 13_000), at("INV", -5, 10), at("PAR", NaN, 1)],
        10_000,
      ),
    ).toEqual([{ startMs: 5000, endMs: 6000 }, null, null, null, null]);
  });

  it("shares one span among the segments a split left with it, by length", () => {
    expect(segmentSpans([at("PAR", 1000, 5000, 10), at("PAR", 1000, 5000, 30)], null)).toEqual([
      { startMs: 1000, endMs: 2000 },
      { startMs: 2000, endMs: 5000 },
    ]);
  });

  it("ends a speaker's span where their next one starts: one speaker's spans never overlap (CHECK errors 83, 133)", () => {
    expect(segmentSpans([at("PAR", 0, 5000), at("INV", 1000, 2000), at("PAR", 3000, 6000)], null)).toEqual([
      { startMs: 0, endMs: 3000 },
      { startMs: 1000, endMs: 2000 },
      { startMs: 3000, endMs: 6000 },
    ]);
    // Even by less than CHECK's 500 ms: a segment's span may be shared among its utterances, whose
    // last one could then start after the next segment.
    expect(segmentSpans([at("PAR", 0, 3400), at("PAR", 3000, 6000)], null)).toEqual([
      { startMs: 0, endMs: 3000 },
      { startMs: 3000, endMs: 6000 },
    ]);
    // Starting together with different ends: the second has none.
    expect(segmentSpans([at("PAR", 0, 500), at("PAR", 0, 3000)], null)).toEqual([{ startMs: 0, endMs: 500 }, null]);
  });

  it("gives a file's segment spans to the segments it writes, none to those it leaves out", () => {
    const spans = chatSegmentSpans(
      [
        { speaker: "PAR", startMs: 0, endMs: null, source: "Ee.", target: "Ndiyo." },
        { speaker: "PAR", startMs: 1000, endMs: 2000, source: "", target: "" },
        { speaker: "PAR", startMs: 3000, endMs: null, source: "", target: "Sawa." },
      ],
      4000,
    );
    expect(spans).toEqual([{ startMs: 0, endMs: 3000 }, null, { startMs: 3000, endMs: 4000 }]);
  });
});

describe("what people type, as CHAT writes it", () => {
  it("keeps CHAT codes typed as a CHAT source writes them, and drops other CHAT codes in square brackets", () => {
    expect(said("&-uh the boy [/] the boy is (.) falling")).toEqual(["&-uh the boy [/] the boy is (.) falling ."]);
    expect(said("<I went> [//] I go (1:02.5) home +... then")).toEqual([
      "<I went> [//] I go (1:02.5) home +...",
      "then .",
    ]);
    expect(said("he goed [: went] [*] there [+ gram] &+fr")).toEqual(["he goed there &+fr ."]);
    expect(said("rock&-roll & more")).toEqual(["rock and roll and more ."]);
    expect(said("[//] first, <lonely> no")).toEqual(["first , lonely no ."]);
  });

  it("writes '(laughs)' as the event &=laughs, not the word laughs", () => {
    expect(said("She said (laughs) no")).toEqual(["She said &=laughs no ."]);
    expect(said("(coughs)")).toEqual(["&=coughs ."]);
    expect(said("well (long pause) maybe")).toEqual(["well &=long_pause maybe ."]);
    expect(said("[Laughs] ok")).toEqual(["&=laughs ok ."]);
    expect(said("&=sighs typed as CHAT")).toEqual(["&=sighs typed as CHAT ."]);
  });

  it("keeps the words of a long bracketed remark, writes (inaudible) as xxx and joins word(s)", () => {
    expect(said("there (she points at the cookie jar) it is")).toEqual(["there she points at the cookie jar it is ."]);
    expect(said("and (inaudible) then")).toEqual(["and xxx then ."]);
    expect(said("the cookie(s) fell")).toEqual(["the cookies fell ."]);
  });

  it("writes '&' as 'and' instead of dropping it", () => {
    expect(said("bread & butter")).toEqual(["bread and butter ."]);
  });

  it("writes 'Dr.' and other abbreviations without their dot, not as a sentence end", () => {
    expect(said("Dr. Okello came at 9 a.m. with Mrs. Nankya, e.g. on Monday.")).toEqual([
      "Dr Okello came at nine am with Mrs Nankya , eg on Monday .",
    ]);
  });

  it("ends a question utterance at a '?' inside a paragraph instead of turning it into a comma", () => {
    expect(said("Is it? Yes! Done")).toEqual(["Is it ?", "Yes !", "Done ."]);
    expect(said("Really?! I did not know...")).toEqual(["Really ?", "I did not know ."]);
  });

  it("writes numbers out in words, so 'about 2.5 kilometres' is a valid utterance", () => {
    expect(said("about 2.5 kilometres")).toEqual(["about two point five kilometres ."]);
    expect(said("at 10:30, 1,000 people; the 3rd time in 1990")).toEqual([
      "at ten thirty , one thousand people , the third time in nineteen ninety .",
    ]);
    expect(said("room 007 costs 50% more than 12,345,678")).toEqual([
      "room zero zero seven costs fifty percent more than twelve million three hundred forty five thousand six hundred seventy eight .",
    ]);
    const file = chatFile({ text: "We walked about 2.5 kilometres.", mediaName: "a", category: "Control" });
    expect(file).toContain("*PAR:\tWe walked about two point five kilometres .\n");
    expect(chatRuleViolations(file)).toEqual([]);
  });

  it("drops CHAT's reserved characters, quotes, emoji and control characters", () => {
    expect(said('<overlap> @word #pause +"hi" “there” 👍🏽\tok\u0015 • * % $ ^ ~ = _ | \\ { }')).toEqual([
      "overlap word pause hi there ok .",
    ]);
  });

  it("keeps apostrophes and hyphens inside words and letters of every script", () => {
    expect(said("uh-oh, don't — Émigré naïve ça va, 你好 مرحبا")).toEqual([
      "uh-oh , don't , Émigré naïve ça va , 你好 مرحبا .",
    ]);
  });
});

describe("bullet timing", () => {
  it("runs each timed paragraph to the next usable start, the last to the duration", () => {
    expect(paragraphSpans([0, null, 1500, 1500, 1000, 4000], 6000)).toEqual([
      { startMs: 0, endMs: 1500 },
      null,
      { startMs: 1500, endMs: 4000 },
      null,
      null,
      { startMs: 4000, endMs: 6000 },
    ]);
    expect(paragraphSpans([7000], 6000)).toEqual([null]);
    expect(paragraphSpans([7000], null)).toEqual([null]);
  });

  it("splits a span by length in whole ms, in order, without gap or overlap", () => {
    expect(splitSpan({ startMs: 1000, endMs: 2000 }, [1, 1, 2])).toEqual([
      { startMs: 1000, endMs: 1250 },
      { startMs: 1250, endMs: 1500 },
      { startMs: 1500, endMs: 2000 },
    ]);
    // Too short a span for three utterances: the ones whose share rounds to nothing get no bullet.
    expect(splitSpan({ startMs: 0, endMs: 1 }, [5, 5, 5])).toEqual([null, { startMs: 0, endMs: 1 }, null]);
  });
});

/** A small seeded generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// prettier-ignore
const PIECES = [
  "word", "Mama", "anaosha", "don't", "uh-oh", "Émigré", "naïve", "你好", "مرحبا", "שלום", "क्षत्रिय", "ไทย",
  ".", "?", "!", "...", "?!", "…", ",", ";", ":", "-", "--", "—", "–", "'", "''", "’", "‘", "\"", "“", "”", "«", "»",
  "(", ")", "[", "]", "{", "}", "<", ">", "(laughs)", "(long pause)", "(coughs loudly now)", "(she points at it again)",
  "((laughs))", "(inaudible)", "()", "(...)", "(2 seconds)", "word(s)", "(be)cause", "[laughs]", "&", "&=", "&=laughs",
  "&=laughs:softly", "&-um", "&&", "=", "@", "#", "+", "+...", "*", "%", "$", "^", "~", "_", "|", "\\", "/",
  "2.5", "10:30", "1,000", "3rd", "21st", "007", "1990", "12,345.67", ".5", "192.168.1.1", "00:05:00", "50%", "½", "²",
  "٣", "۳", "Ⅻ", "1234567890123456789", "mp3", "COVID-19", "3cats", "Dr.", "Mrs.", "e.g.", "i.e.", "a.m.", "U.S.A",
  "etc.", "gmail.com", "end.Next", "👍🏽", "🎉", "1️⃣", "🇺🇬", "\t", "\u0015", "\u00151000_2000\u0015", "•", "\u0000",
  "\u0007", "\r", "\u200b", "\u200d", "\u200f", "\ufeff", "\ue000", "\ue010\ue001", "\ufe0f", "\u0301", "\u20e3",
  "\ud800", "\u00a0", "\u3000", "。", "、", "？", "！", "．", "‽", "¿", "¡", "*PAR:", "*INV:", "[0:01.000]",
];

/** A random transcript: paragraphs of pieces and random characters, with times and speakers. */
function hostileTranscript(next: () => number): ChatTranscript {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const paragraphs: string[] = [];
  const count = 1 + Math.floor(next() * 8);
  for (let p = 0; p < count; p++) {
    const time =
      next() < 0.6
        ? `[${Math.floor(next() * 3)}:${String(Math.floor(next() * 60)).padStart(2, "0")}.${String(Math.floor(next() * 1000)).padStart(3, "0")}] `
        : "";
    const speaker = next() < 0.5 ? pick(["*INV: ", "*PAR: ", ""]) : "";
    let text = "";
    const length = Math.floor(next() * 25);
    for (let i = 0; i < length; i++) {
      const piece = next() < 0.2 ? String.fromCodePoint(Math.floor(next() * 0x2ffff)) : pick(PIECES);
      text += piece + (next() < 0.7 ? " " : "");
    }
    paragraphs.push(`${time}${speaker}${text}`);
  }
  const participant: ChatParticipant | null =
    next() < 0.5
      ? null
      : {
          code: "P1",
          group: pick(["Control", "Dementia"] as const),
          sex: pick(["female", "male", null] as const),
          ageMonths: pick([null, 0, 5, 72 * 12 + 3, 1200, -3, 1.5]),
          educationYears: pick([null, 0, 12, 40, -1, 2.5]),
          mmse: pick([null, 0, 24, 30, 27.5, 31, -1]),
        };
  return {
    text: paragraphs.join(pick(["\n", "\r\n"])),
    mediaName: pick(["control_0042", "audio 1, copy", "", "ñame\tx", "a\u0015b"]),
    category: pick(["Control", "Dementia"] as const),
    participant,
    sessionDate: pick([null, "2026-03-05", "2026-02-30", "nonsense", "1999-12-31"]),
    durationMs: pick([null, 0, 1500.7, 60_000, 200_000]),
  };
}

/** Random segments of hostile texts, times and speakers. */
function hostileSegments(next: () => number): ChatSegment[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const text = () => {
    let written = "";
    const length = Math.floor(next() * 12);
    for (let i = 0; i < length; i++) {
      const piece = next() < 0.15 ? String.fromCodePoint(Math.floor(next() * 0x2ffff)) : pick(CHAT_PIECES);
      written += piece + (next() < 0.8 ? " " : "");
    }
    return written;
  };
  const time = () => pick([null, 0, 500, 1500.4, 3000, 3000, 9000, 250_000, -1, NaN]);
  return Array.from({ length: Math.floor(next() * 8) }, () => ({
    speaker: pick(["PAR", "INV"] as const),
    startMs: time(),
    endMs: time(),
    source: next() < 0.15 ? "" : text(),
    target: next() < 0.15 ? "" : text(),
  }));
}

// prettier-ignore
const CHAT_PIECES = [
  ...PIECES, "&-uh", "&+fr", "[/]", "[//]", "[///]", "[/?]", "(.)", "(..)", "(...)", "(1.5)", "(1:02.)", "xxx", "yyy",
  "www", "<", ">", "<he", "is>", "<>", "+...", "+..?", "+!?", "+/.", "+/?", "+//.", "+//?", "+\"/.", "[: went]",
  "[*]", "[+ gram]", "[x 3]", "[= points]", "[!]", "%xtra:", "%tra:", "\n", "\t%eng:\t", "*PAR:\t", ".", " . ",
];

describe("chatFile on hostile translated segments", () => {
  it("keeps every file it writes within the rules, whatever the segments hold", () => {
    const next = random(35);
    for (let i = 0; i < 1500; i++) {
      const segments = hostileSegments(next);
      const file = chatFile({
        text: "Fallback text.",
        mediaName: "a",
        category: "Dementia",
        durationMs: [null, 0, 4000, 60_000][i % 4] ?? null,
        segments,
        languages: { source: "lug", target: i % 3 === 0 ? "eng" : "swa" },
      });
      expect({ segments, problems: chatRuleViolations(file) }).toEqual({ segments, problems: [] });
    }
  });
});

describe("chatFile on hostile transcripts", () => {
  it("keeps every file it writes within the rules, whatever the transcript holds", () => {
    const next = random(24);
    for (let i = 0; i < 1500; i++) {
      const transcript = hostileTranscript(next);
      const settings =
        next() < 0.5
          ? DEFAULT_CHAT_SETTINGS
          : { languages: ["swa", "eng"], participantRole: "Investigator" as const, corpus: "k-1" };
      const file = chatFile(transcript, settings);
      expect({ transcript, problems: chatRuleViolations(file) }).toEqual({ transcript, problems: [] });
      expect(file).not.toContain("\u2022");
    }
  });
});
