import { describe, expect, it } from "vitest";
import {
  chatFile,
  chatRuleViolations,
  chatSegmentSpans,
  translatedRecordingTranscript,
  type ChatSegment,
  type ChatSpan,
  type ChatTranscript,
} from "../src";

// Decision 035, the parallel speech corpus: a translated recording's own CHAT file, with the
// translation on the main tier bulleted into the recording and the source on its dependent tier.

const segment = (fields: Partial<ChatSegment>): ChatSegment => ({
  speaker: "PAR",
  startMs: null,
  endMs: null,
  source: "",
  target: "",
  ...fields,
});

/** The transcript of an original audio (lug → swa unless told), as the export makes it. */
const original = (segments: ChatSegment[], languages = { source: "lug", target: "swa" }): ChatTranscript => ({
  text: "Translated text the main tier does not hold.",
  mediaName: "dementia_0042",
  category: "Dementia",
  participant: { code: "P0042", group: "Dementia", sex: "female", ageMonths: 867, educationYears: 12, mmse: 24 },
  sessionDate: "2026-03-05",
  durationMs: 12_000,
  segments,
  languages,
});

/** The main and dependent tier lines of a file, bullets shown as ‹start_end›. */
const tiersOf = (file: string): string[] =>
  file
    .split("\n")
    .filter((line) => /^[*%]/.test(line))
    .map((line) => line.replace(/\u0015(\d+)_(\d+)\u0015/g, "‹$1_$2›"));

/** Every bullet of a file by speaker, in file order. */
const bulletsOf = (file: string): { speaker: string; startMs: number; endMs: number }[] =>
  [...file.matchAll(/^\*(\w+):.*\u0015(\d+)_(\d+)\u0015$/gm)].map((m) => ({
    speaker: m[1]!,
    startMs: Number(m[2]),
    endMs: Number(m[3]),
  }));

describe("translatedRecordingTranscript (decision 035)", () => {
  const segments = [
    segment({ speaker: "INV", startMs: 0, endMs: 2000, source: "Kiki ky'olaba?", target: "Unaona nini?" }),
    segment({ startMs: 2000, endMs: 6000, source: "Omulenzi agwa.", target: "Mvulana anaanguka. Anaumia!" }),
    // Said but not translated: not spoken in the recording, left out.
    segment({ startMs: 6000, endMs: 7000, source: "Ee.", target: "" }),
    // Translated but with no span in the recording: no bullet.
    segment({ startMs: 7000, endMs: 9000, source: "Amazzi gayiika.", target: "Maji yanamwagika." }),
  ];
  const spans: (ChatSpan | null)[] = [{ startMs: 0, endMs: 1500 }, { startMs: 1800, endMs: 4200 }, null, null];

  it("puts the translation on the main tier, bulleted into the recording, and the source on %xtra", () => {
    const recorded = translatedRecordingTranscript(original(segments), {
      mediaName: "dementia_0042_TRANSLATEDAUDIO",
      durationMs: 4200,
      spans,
    })!;
    const file = chatFile(recorded);
    expect(chatRuleViolations(file)).toEqual([]);
    expect(file).toContain("@Languages:\tswa\n");
    expect(file).toContain("@Participants:\tPAR Participant, INV Investigator\n");
    expect(file).toContain("@ID:\tswa|tafsiri|PAR|72;03.|female|Dementia||Participant|12|24|\n");
    expect(file).toContain("@ID:\tswa|tafsiri|INV|||||Investigator|||\n");
    expect(file).toContain("@Media:\tdementia_0042_TRANSLATEDAUDIO, audio\n");
    expect(file).toContain("@Date:\t05-MAR-2026\n");
    expect(tiersOf(file)).toEqual([
      "*INV:\tUnaona nini ? ‹0_1500›",
      "%xtra:\tKiki ky'olaba?",
      // Two sentences share the segment's span by length: 1800 + round(2400 × 19 / 28) = 3429.
      "*PAR:\tMvulana anaanguka . ‹1800_3429›",
      "*PAR:\tAnaumia ! ‹3429_4200›",
      "%xtra:\tOmulenzi agwa.",
      "*PAR:\tMaji yanamwagika .",
      "%xtra:\tAmazzi gayiika.",
    ]);
    // The spans a manifest lists are the bullets' (chatSegmentSpans over the same segments).
    expect(chatSegmentSpans(recorded.segments!, recorded.durationMs ?? null)).toEqual([
      { startMs: 0, endMs: 1500 },
      { startMs: 1800, endMs: 4200 },
      null,
      null,
    ]);
  });

  it("writes the source on %eng when it is English, and the target as @Languages", () => {
    const recorded = translatedRecordingTranscript(original(segments, { source: "eng", target: "lug" }), {
      mediaName: "r",
      durationMs: null,
      spans,
    })!;
    const file = chatFile(recorded);
    expect(chatRuleViolations(file)).toEqual([]);
    expect(file).toContain("@Languages:\tlug\n");
    expect(tiersOf(file)).toContain("%eng:\tKiki ky'olaba?");
    expect(file).not.toContain("%xtra");
  });

  it("keeps bullets inside the recording and each speaker's in order, however the spans come", () => {
    const file = chatFile(
      translatedRecordingTranscript(
        original([
          segment({ source: "a", target: "Moja." }),
          segment({ source: "b", target: "Mbili." }),
          segment({ speaker: "INV", source: "c", target: "Tatu." }),
          segment({ source: "d", target: "Nne." }),
        ]),
        {
          mediaName: "r",
          durationMs: 5000,
          // Overlapping the same speaker's previous span; out of order; past the recording's end.
          spans: [
            { startMs: 1000, endMs: 3000 },
            { startMs: 2000, endMs: 4000 },
            { startMs: 500, endMs: 900 },
            { startMs: 4500, endMs: 6500 },
          ],
        },
      )!,
    );
    expect(chatRuleViolations(file)).toEqual([]);
    const bullets = bulletsOf(file);
    expect(bullets.every((b) => b.startMs < b.endMs && b.endMs <= 5000)).toBe(true);
    for (const speaker of ["PAR", "INV"]) {
      const own = bullets.filter((b) => b.speaker === speaker);
      own.slice(1).forEach((b, i) => expect(b.startMs).toBeGreaterThanOrEqual(own[i]!.endMs));
    }
    expect(tiersOf(file).filter((line) => line.startsWith("*"))).toEqual([
      "*PAR:\tMoja . ‹1000_2000›",
      "*PAR:\tMbili . ‹2000_4000›",
      "*INV:\tTatu .",
      "*PAR:\tNne . ‹4500_5000›",
    ]);
  });

  it("has nothing to write without a pair, a source or a translation", () => {
    const recording = { mediaName: "r", durationMs: null, spans: [] };
    const translated = [segment({ source: "Ee.", target: "Ndiyo." })];
    expect(translatedRecordingTranscript({ ...original(translated), languages: null }, recording)).toBeNull();
    expect(translatedRecordingTranscript(original([segment({ target: "Ndiyo." })]), recording)).toBeNull();
    expect(translatedRecordingTranscript(original([segment({ source: "Ee." })]), recording)).toBeNull();
    expect(translatedRecordingTranscript({ ...original(translated), segments: null }, recording)).toBeNull();
  });

  it("keeps every file within the rules and the recording on random spans", () => {
    let state = 35;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const texts = ["", "Ndiyo.", "Mama anaosha vyombo. Maji!", "&-uh mvulana [/] mvulana (.)", "xxx", "2.5 km?"];
    for (let i = 0; i < 500; i++) {
      const count = Math.floor(next() * 8);
      const segments = Array.from({ length: count }, () =>
        segment({ speaker: pick(["PAR", "INV"] as const), source: pick(texts), target: pick(texts) }),
      );
      const durationMs = pick([null, 3000, 60_000]);
      const spans = segments.map(() => {
        const start = Math.floor(next() * 8000);
        return next() < 0.2 ? null : { startMs: start, endMs: start + 1 + Math.floor(next() * 3000) };
      });
      const recorded = translatedRecordingTranscript(original(segments), { mediaName: "r", durationMs, spans });
      if (!recorded) continue;
      const file = chatFile(recorded);
      expect({ spans, problems: chatRuleViolations(file) }).toEqual({ spans, problems: [] });
      const bullets = bulletsOf(file);
      expect(bullets.every((b) => b.startMs < b.endMs && (durationMs === null || b.endMs <= durationMs))).toBe(true);
      for (const speaker of ["PAR", "INV"]) {
        const own = bullets.filter((b) => b.speaker === speaker);
        own.slice(1).forEach((b, k) => expect(b.startMs).toBeGreaterThanOrEqual(own[k]!.endMs));
      }
    }
  });
});
