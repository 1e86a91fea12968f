import { DEFAULT_SPEAKER, parseTranscript, type Speaker } from "../transcript-lines";
import type { SourceSegment } from "./segments";

/**
 * Reading an uploaded source transcript as segments (decision 035): a CHAT file gives one segment
 * per main-tier utterance, any other text (extracted from .txt, .docx, .doc or .pdf) one per line.
 */

/** A CHAT main tier: `*`, a speaker code, `:`, then the utterance. */
const MAIN_TIER = /^\*([A-Za-z0-9]+):(.*)$/s;
/**
 * A CHAT media bullet, `\u0015start_end\u0015` in ms; also the old `%snd:"file"_start_end` (or
 * `%mov:`) form inside it, and a visible `•` (U+2022) for U+0015 as some exports write it.
 */
const BULLET = /[\u0015\u2022](?:%(?:snd|mov):[^\u0015\u2022]*?_)?(\d+)_(\d+)[\u0015\u2022]/gu;
/** A bracketed time at the start of a plain-text line: `[m:ss]`, `[m:ss.mmm]`, `[h:mm:ss]`, `[h:mm:ss.mmm]`. */
const TIME_PREFIX = /^\[(\d+(?::\d{1,2}){1,2}(?:\.\d{1,3})?)\][ \t]*/;
/** A speaker prefix of a plain-text line: `INV:`, `*PAR:` (any case), or the role written out. */
const SPEAKER_PREFIX = /^(?:\*?(inv|par)|(investigator|interviewer|participant))[ \t]*:[ \t]*/i;
/** Any other CHAT tier code as a plain-text prefix: `*IN1:`, `*CHI:`. */
const CHAT_CODE_PREFIX = /^\*([A-Z][A-Z0-9]{2}):[ \t]*/;
/** Lines longer than this (in characters) are paragraphs from PDF/DOCX extraction: split into sentences. */
const LONG_LINE_CHARS = 300;
/** A sentence's end: `.`, `?` or `!`, closing quotes or brackets, a space, then an upper-case letter or digit. */
const SENTENCE_END = /[.?!]["'”’)\]]*\s+(?=[\p{Lu}\p{N}])/gu;
/** Words after which a `.` does not end a sentence (lower-case, without their last `.`). */
const ABBREVIATIONS = new Set(["dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "e.g", "i.e", "vs", "cf", "approx"]);

/** The lines of a text: a leading BOM dropped, `\n`, `\r\n`, `\r` and form feeds all ending a line. */
function linesOf(text: string): string[] {
  return text.replace(/^\uFEFF/, "").split(/\r\n|[\n\r\f\v\u2028\u2029]/);
}

/** Whitespace runs as single spaces, the ends trimmed. */
function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The speaker of a CHAT tier code: `INV`, `IN1`, `INT`… (codes starting with `IN`) are `INV`, the rest `PAR`. */
function speakerOfCode(code: string): Speaker {
  return code.toUpperCase().startsWith("IN") ? "INV" : "PAR";
}

/**
 * Whether `text` is a CHAT transcript: it has an `@Begin` line and at least one main tier line
 * (`*PAR:`, `*INV:`, any `*CODE:`). Decision 035.
 */
export function isChatText(text: string): boolean {
  const lines = linesOf(text);
  return lines.some((line) => /^@Begin\b/.test(line)) && lines.some((line) => MAIN_TIER.test(line));
}

/** One utterance's text (its continuation lines joined) as a segment; null when no text is left. */
function chatSegment(code: string, utterance: string): SourceSegment | null {
  let startMs: number | null = null;
  let endMs: number | null = null;
  for (const bullet of utterance.matchAll(BULLET)) {
    const start = Number(bullet[1]);
    const end = Number(bullet[2]);
    startMs = startMs === null ? start : Math.min(startMs, start);
    endMs = endMs === null ? end : Math.max(endMs, end);
  }
  const text = collapse(utterance.replace(BULLET, " "));
  return text === "" ? null : { speaker: speakerOfCode(code), startMs, endMs, text };
}

/**
 * The segments of a CHAT transcript (decision 035), one per main-tier utterance, in file order:
 * - the speaker is `INV` for tier codes starting with `IN` (`*INV:`, `*IN1:`), `PAR` for any other;
 * - continuation lines (starting with a tab or space) join the utterance with a space; a line with
 *   no tier code at all is read as a continuation too;
 * - headers (`@…`), dependent tiers (`%mor:`, `%gra:`, `%com:`, any `%…`) and their continuation
 *   lines are skipped;
 * - the media bullet `\u0015start_end\u0015` (also `%snd:"file"_start_end` inside it, and `•`
 *   for U+0015) gives startMs/endMs in ms and is removed; with several bullets, the earliest start
 *   and the latest end; null when there is none;
 * - the text is otherwise kept as written (`&-uh`, `[/]`, `(.)`, `xxx`, `&=laughs`, terminators),
 *   whitespace collapsed to single spaces and trimmed; an utterance with no text left is dropped.
 * Takes the file's text (`\n` or `\r\n` line ends, with or without a BOM).
 */
export function segmentsFromChat(text: string): SourceSegment[] {
  const utterances: { code: string; parts: string[] }[] = [];
  let current: { code: string; parts: string[] } | null = null;
  for (const line of linesOf(text)) {
    const tier = MAIN_TIER.exec(line);
    if (tier) {
      current = { code: tier[1] ?? "", parts: [tier[2] ?? ""] };
      utterances.push(current);
    } else if (line.startsWith("@") || line.startsWith("%")) {
      current = null;
    } else if (current && line.trim() !== "") {
      current.parts.push(line);
    }
  }
  return utterances.flatMap(({ code, parts }) => chatSegment(code, parts.join(" ")) ?? []);
}

/** A plain-text line's time, speaker (null when it names none) and the text after them. */
interface PlainLine {
  startMs: number | null;
  speaker: Speaker | null;
  text: string;
}

/** The bracketed time at the start of `rest` in ms and the text after it, or null (also for `[1:75]`). */
function takeTime(rest: string): { startMs: number; rest: string } | null {
  const time = TIME_PREFIX.exec(rest);
  // parseTranscript knows the time format and which times are real (seconds below 60).
  const startMs = time ? (parseTranscript(`[${time[1]}]`)[0]?.startMs ?? null) : null;
  return time && startMs !== null ? { startMs, rest: rest.slice(time[0].length) } : null;
}

/** The speaker prefix at the start of `rest` and the text after it, or null. */
function takeSpeaker(rest: string): { speaker: Speaker; rest: string } | null {
  const named = SPEAKER_PREFIX.exec(rest);
  if (named) {
    const speaker = /^(inv|investigator|interviewer)$/i.test(named[1] ?? named[2] ?? "") ? "INV" : "PAR";
    return { speaker, rest: rest.slice(named[0].length) };
  }
  const code = CHAT_CODE_PREFIX.exec(rest);
  return code ? { speaker: speakerOfCode(code[1] ?? ""), rest: rest.slice(code[0].length) } : null;
}

/** One plain-text line's time and speaker prefixes (in either order) and its text. */
function readPlainLine(line: string): PlainLine {
  let rest = line.trim();
  let time = takeTime(rest);
  if (time) rest = time.rest;
  const speaker = takeSpeaker(rest);
  if (speaker) rest = speaker.rest;
  if (!time && speaker) {
    time = takeTime(rest);
    if (time) rest = time.rest;
  }
  return { startMs: time?.startMs ?? null, speaker: speaker?.speaker ?? null, text: collapse(rest) };
}

/** Whether the `.` ending `before` belongs to an abbreviation (`Dr.`, `e.g.`) or an initial (`J.`). */
function endsInAbbreviation(before: string): boolean {
  const word = (/(\S+)$/.exec(before)?.[1] ?? "").replace(/^[^\p{L}]+/u, "");
  return ABBREVIATIONS.has(word.toLowerCase()) || (/^\p{Lu}$/u.test(word) && word !== "I");
}

/**
 * A line as its sentences when it is longer than 300 characters (a paragraph), else the line
 * alone. A sentence ends at `.`, `?` or `!` (and closing quotes) followed by a space and an
 * upper-case letter or digit, not at the `.` of `Dr.`, `Mr.`, `Mrs.`, `e.g.` and the like.
 */
function sentencesOf(line: string): string[] {
  if (line.length <= LONG_LINE_CHARS) return [line];
  const sentences: string[] = [];
  let from = 0;
  for (const end of line.matchAll(SENTENCE_END)) {
    const at = end.index ?? 0;
    if (end[0].startsWith(".") && endsInAbbreviation(line.slice(from, at))) continue;
    sentences.push(line.slice(from, at + end[0].length).trim());
    from = at + end[0].length;
  }
  sentences.push(line.slice(from).trim());
  return sentences.filter((sentence) => sentence !== "");
}

/**
 * The segments of a plain-text transcript (text extracted from .txt, .docx, .doc or .pdf),
 * decision 035. One segment per non-empty line, in order:
 * - a line may start with a bracketed time `[m:ss]`, `[m:ss.mmm]`, `[h:mm:ss]` or `[h:mm:ss.mmm]`
 *   (startMs, in ms) and a speaker prefix, in either order; a time that is not one (`[1:75]`) stays
 *   in the text;
 * - speaker prefixes (any case, spaces allowed around the `:`): `INV:`, `*INV:`, `Investigator:`,
 *   `Interviewer:` are INV; `PAR:`, `*PAR:`, `Participant:` are PAR; other CHAT codes `*XXX:` are
 *   INV when starting with `IN`, else PAR;
 * - a line without a speaker keeps the previous line's speaker (the first is PAR); a line holding
 *   only prefixes (`INV:` above its text) sets the speaker and time of the next line with text;
 * - endMs is the next segment's startMs when both are known and the next starts later, else null;
 * - lines over 300 characters are split into sentences (see sentencesOf); the pieces keep the
 *   speaker, only the first keeps the time;
 * - whitespace is collapsed to single spaces and trimmed.
 */
export function segmentsFromPlainText(text: string): SourceSegment[] {
  const segments: SourceSegment[] = [];
  let speaker: Speaker = DEFAULT_SPEAKER;
  let pendingStartMs: number | null = null;
  for (const line of linesOf(text)) {
    const read = readPlainLine(line);
    if (read.speaker) speaker = read.speaker;
    const startMs: number | null = read.startMs ?? pendingStartMs;
    if (read.text === "") {
      pendingStartMs = startMs;
      continue;
    }
    pendingStartMs = null;
    for (const [i, sentence] of sentencesOf(read.text).entries()) {
      segments.push({ speaker, startMs: i === 0 ? startMs : null, endMs: null, text: sentence });
    }
  }
  return segments.map((segment, i) => {
    const next = segments[i + 1]?.startMs ?? null;
    const endMs = segment.startMs !== null && next !== null && next > segment.startMs ? next : null;
    return { ...segment, endMs };
  });
}

/**
 * The segments of an uploaded source transcript (decision 035): segmentsFromChat when the text is
 * a CHAT file (isChatText), else segmentsFromPlainText. Takes the file's text; [] when it has none.
 */
export function sourceSegments(text: string): SourceSegment[] {
  return isChatText(text) ? segmentsFromChat(text) : segmentsFromPlainText(text);
}
