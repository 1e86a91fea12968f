import { formatLineTime, type SegmentState, type Speaker } from "@tafsiri/domain";

/** A time in ms as the grid shows it: m:ss.mmm (h:mm:ss.mmm from an hour). */
function segmentTime(ms: number): string {
  return formatLineTime(ms).slice(1, -1);
}

/** A segment's span in words for its play button ('0:02.600 to 0:06.100', or from its start only). */
export function spanText(startMs: number | null, endMs: number | null): string | null {
  if (startMs === null) return null;
  return endMs === null ? segmentTime(startMs) : `${segmentTime(startMs)}–${segmentTime(endMs)}`;
}

/** Each state in words, with a mark that tells it without colour (decision 035). */
export const STATE_LABELS: Record<SegmentState, { mark: string; text: string }> = {
  empty: { mark: "○", text: "Empty" },
  draft: { mark: "✎", text: "Draft" },
  translated: { mark: "✓", text: "Translated" },
};

/** The speakers in words. */
export const SPEAKER_WORDS: Record<Speaker, string> = { PAR: "Participant", INV: "Investigator" };

/** An ISO 639-3 code as an HTML `lang` (BCP 47 prefers ISO 639-1 where there is one: swa → sw). */
export function htmlLang(code: string): string {
  try {
    return Intl.getCanonicalLocales(code)[0] ?? code;
  } catch {
    return code;
  }
}
