/**
 * Who spoke and when, kept in the plain-text transcript (SPEC §3: the transcript stays a plain-text
 * file; decision 024). A transcript is one paragraph per line; a line may start with its start time
 * in the recording and its speaker:
 *
 *     [1:02.345] *INV: Where did you grow up?
 *     [1:05.000] In Gulu , near the river.
 *     And then we moved.
 *
 * The time is `[m:ss.mmm]` or `[h:mm:ss.mmm]`; the speaker is `*INV:` or `*PAR:` (CHAT's tier codes).
 * A line without a speaker is the participant's (`PAR`), so transcripts written before keep their
 * meaning. `*PAR:` is written only when the text itself would read as a prefix, so every line
 * round-trips: formatTranscript(parseTranscript(t)) === t for any t formatTranscript writes.
 */

/** The speakers a paragraph may be marked as: the participant (default) or the investigator. */
export const SPEAKERS = ["PAR", "INV"] as const;
export type Speaker = (typeof SPEAKERS)[number];
export const DEFAULT_SPEAKER: Speaker = "PAR";

/** One paragraph of a transcript. */
export interface TranscriptLine {
  speaker: Speaker;
  /** Where the paragraph starts in the recording, in whole milliseconds; null when not marked. */
  startMs: number | null;
  text: string;
}

const TIME = /^\[(?:(\d+):)?(\d{1,2}):(\d{2})(?:\.(\d{1,3}))?\](?: |$)/;
const SPEAKER = /^\*(PAR|INV):(?: |$)/;

/** `[m:ss.mmm]` (or `[h:mm:ss.mmm]` from an hour on) of a time in milliseconds. */
export function formatLineTime(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor(whole / 60_000) % 60;
  const seconds = Math.floor(whole / 1000) % 60;
  const millis = String(whole % 1000).padStart(3, "0");
  const ss = String(seconds).padStart(2, "0");
  return hours > 0 ? `[${hours}:${String(minutes).padStart(2, "0")}:${ss}.${millis}]` : `[${minutes}:${ss}.${millis}]`;
}

/** One stored line as a paragraph (see the module's comment for the prefixes). */
function parseTranscriptLine(line: string): TranscriptLine {
  let rest = line;
  let startMs: number | null = null;
  const time = TIME.exec(rest);
  if (time) {
    const [, hours = "0", minutes = "0", seconds = "0", fraction = "0"] = time;
    if (Number(seconds) < 60 && (time[1] === undefined || Number(minutes) < 60)) {
      startMs =
        Number(hours) * 3_600_000 + Number(minutes) * 60_000 + Number(seconds) * 1000 + Number(fraction.padEnd(3, "0"));
      rest = rest.slice(time[0].length);
    }
  }
  let speaker: Speaker = DEFAULT_SPEAKER;
  const marked = SPEAKER.exec(rest);
  if (marked) {
    speaker = marked[1] as Speaker;
    rest = rest.slice(marked[0].length);
  }
  return { speaker, startMs, text: rest };
}

/** A paragraph as one stored line. Line breaks inside the text become spaces. */
function formatTranscriptLine({ speaker, startMs, text }: TranscriptLine): string {
  const flat = text.replace(/\r?\n/g, " ");
  const time = startMs === null ? "" : `${formatLineTime(startMs)} `;
  // The text alone would be read as a prefix: say the speaker explicitly.
  const ambiguous = SPEAKER.test(flat) || (startMs === null && TIME.test(flat));
  const mark = speaker !== DEFAULT_SPEAKER || ambiguous ? `*${speaker}: ` : "";
  const line = `${time}${mark}${flat}`;
  return line.endsWith(" ") && flat === "" ? line.trimEnd() : line;
}

/** A stored transcript as its paragraphs, one per line (`\n` or `\r\n`). */
export function parseTranscript(text: string): TranscriptLine[] {
  return text.split(/\r?\n/).map(parseTranscriptLine);
}

/** Paragraphs as a stored transcript, joined with `\n`. */
export function formatTranscript(lines: readonly TranscriptLine[]): string {
  return lines.map(formatTranscriptLine).join("\n");
}
