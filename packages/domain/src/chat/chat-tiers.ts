import { parseTranscript, type Speaker } from "../transcript-lines";
import { CHAT_UNTRANSCRIBED, type ChatTranslationTier } from "./chat-settings";
import { utteranceProblems } from "./chat-rules";
import { chatUtterances, chatUtteranceText } from "./chat-utterances";

/**
 * The tiers of an exported CHAT file and their times (decisions 024 and 035): a stored
 * transcript's paragraphs, or translated segments with what was said on the main tier and the
 * translation on a dependent tier, each utterance with its span in the recording. Pure functions,
 * no I/O; chatFile (chat-file.ts) writes the headers around them.
 */

/**
 * One segment of a translated recording (decision 035): a speaker's stretch of the recording with
 * what was said (the source, in the source language) and its translation.
 */
export interface ChatSegment {
  speaker: Speaker;
  /** Where it starts and ends in the recording, whole ms; null when not known. */
  startMs: number | null;
  endMs: number | null;
  /** What was said, as written (CHAT codes such as `&-uh`, `[/]`, `(.)` kept); "" when nobody wrote it. */
  source: string;
  /** Its translation; "" when none. */
  target: string;
}

/** A stretch of the recording in whole milliseconds, start < end. */
export interface ChatSpan {
  startMs: number;
  endMs: number;
}

/**
 * The span of each paragraph from the paragraphs' start times (ms, null when not marked) in
 * transcript order: a paragraph runs from its start to the next usable start, the last one to the
 * audio's duration. A start is usable when it is later than every usable start before it (a time
 * out of order is ignored, so spans never go back or overlap) and, when the duration is known,
 * before the audio's end (so no span runs past it). Null when the paragraph has no usable start,
 * or its end is unknown or not after its start.
 */
export function paragraphSpans(starts: readonly (number | null)[], durationMs: number | null): (ChatSpan | null)[] {
  const end = durationMs !== null && Number.isFinite(durationMs) ? Math.round(durationMs) : null;
  const usable: (number | null)[] = [];
  let latest = -Infinity;
  for (const start of starts) {
    const ok =
      start !== null && Number.isFinite(start) && start >= 0 && start > latest && (end === null || start < end);
    usable.push(ok ? Math.round(start) : null);
    if (ok) latest = start;
  }
  let next: number | null = end;
  const spans: (ChatSpan | null)[] = new Array<ChatSpan | null>(starts.length).fill(null);
  for (let i = starts.length - 1; i >= 0; i--) {
    const start = usable[i] ?? null;
    if (start === null) continue;
    if (next !== null && next > start) spans[i] = { startMs: start, endMs: next };
    next = start;
  }
  return spans;
}

/**
 * A paragraph's span shared among its utterances in proportion to their length in characters:
 * boundaries at start + round(span × characters so far / all characters), so the parts follow one
 * another without gap or overlap (each ends where the next starts), in whole ms. An utterance whose
 * share rounds to nothing gets no span (null).
 */
export function splitSpan(span: ChatSpan, lengths: readonly number[]): (ChatSpan | null)[] {
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (total <= 0) return lengths.map(() => null);
  const width = span.endMs - span.startMs;
  let before = 0;
  return lengths.map((length, i) => {
    const from = span.startMs + Math.round((width * before) / total);
    before += length;
    const to = i === lengths.length - 1 ? span.endMs : span.startMs + Math.round((width * before) / total);
    return to > from ? { startMs: from, endMs: to } : null;
  });
}

/** A usable time in ms: a finite number ≥ 0, rounded to whole ms; null otherwise. */
function usableMs(ms: number | null): number | null {
  return ms !== null && Number.isFinite(ms) && ms >= 0 ? Math.round(ms) : null;
}

/**
 * The span of each segment in the recording (decision 035), for the bullets of a translated CHAT
 * file and the export's `segments.tsv`, in segment order:
 * - a segment has a span when its start is usable: a whole ms ≥ 0, before the audio's end when
 *   the duration is known, and not before an earlier segment's usable start (out of order: none);
 * - it ends at its own end when that is after its start (cut at the audio's end), otherwise at
 *   the next usable start after it, otherwise at the audio's end; no span when none of these is
 *   known or later than the start;
 * - consecutive segments with the same span (a row the grid split keeps its times) share it in
 *   proportion to their length in characters (splitSpan), so they do not overlap;
 * - a speaker's span that starts before the same speaker's previous one ends ends that previous
 *   one where it starts, or, starting with it, has no span: one speaker's spans never overlap, so
 *   their bullets keep CHECK's order (errors 83 and 133) however a segment's span is shared among
 *   its utterances.
 * Takes segments with `startMs`, `endMs` and their text's length, and the duration in ms (null:
 * unknown); returns a span or null per segment.
 */
export function segmentSpans(
  segments: readonly { speaker: Speaker; startMs: number | null; endMs: number | null; length: number }[],
  durationMs: number | null,
): (ChatSpan | null)[] {
  const end = durationMs !== null && Number.isFinite(durationMs) && durationMs > 0 ? Math.round(durationMs) : null;
  let latest = -Infinity;
  const starts = segments.map((segment) => {
    const start = usableMs(segment.startMs);
    if (start === null || start < latest || (end !== null && start >= end)) return null;
    latest = start;
    return start;
  });
  const spans = segments.map((segment, i): ChatSpan | null => {
    const start = starts[i];
    if (start === null || start === undefined) return null;
    const own = usableMs(segment.endMs);
    let to: number | null = own !== null && own > start ? own : null;
    if (to === null) to = starts.slice(i + 1).find((next) => next !== null && next > start) ?? end;
    if (to !== null && end !== null) to = Math.min(to, end);
    return to !== null && to > start ? { startMs: start, endMs: to } : null;
  });
  // Segments sharing one span share it out.
  for (let i = 0; i < spans.length;) {
    const span = spans[i];
    let j = i + 1;
    while (span && spans[j]?.startMs === span.startMs && spans[j]?.endMs === span.endMs) j++;
    if (span && j - i > 1) {
      const parts = splitSpan(
        span,
        segments.slice(i, j).map((segment) => Math.max(1, segment.length)),
      );
      parts.forEach((part, k) => (spans[i + k] = part));
    }
    i = j;
  }
  const last = new Map<Speaker, number>();
  spans.forEach((span, i) => {
    if (!span) return;
    const speaker = segments[i]!.speaker;
    const previousIndex = last.get(speaker);
    const previous = previousIndex === undefined ? null : spans[previousIndex];
    if (previous && span.startMs < previous.endMs) {
      if (previous.startMs < span.startMs) spans[previousIndex!] = { startMs: previous.startMs, endMs: span.startMs };
      else {
        spans[i] = null;
        return;
      }
    }
    last.set(speaker, i);
  });
  return spans;
}

/**
 * A segment's source as main-tier utterances (decision 035): kept as written, whitespace
 * collapsed, when it is one utterance CHAT accepts (a CHAT source: `&-uh I went [/] I went (.)
 * home .`); otherwise written as chatUtterances writes typed text (one per sentence, CHAT codes
 * kept). [] when it holds no word.
 */
export function sourceUtterances(source: string): string[] {
  const written = source.replace(/\s+/g, " ").trim();
  if (written !== "" && utteranceProblems(written).length === 0) return [written];
  return chatUtterances(source).map(chatUtteranceText);
}

/** A translation as a dependent tier's text: on one line, whitespace collapsed, no control character or bullet. */
function dependentText(text: string): string {
  return text
    .replace(/[\p{Cc}\u2022\u2028\u2029]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The dependent tier of translations into `targetLanguage` (ISO 639-3): `%eng` for English, else `%xtra`. */
export function translationTier(targetLanguage: string): ChatTranslationTier {
  return targetLanguage === "eng" ? "eng" : "xtra";
}

/** One tier line to write: a main tier (its speaker, utterance and span) or a dependent tier. */
export type TierLine = { speaker: Speaker; text: string; span: ChatSpan | null } | { tier: string; text: string };

/**
 * The main tiers of a stored transcript's paragraphs (the translation, or what was said without a
 * source): each paragraph (parseTranscript) on its speaker's tier, one utterance per sentence
 * (chatUtterances), its span (paragraphSpans, `durationMs` the audio's, null when unknown) shared
 * among them by length (splitSpan).
 */
export function paragraphTiers(text: string, durationMs: number | null): TierLine[] {
  const paragraphs = parseTranscript(text);
  const spans = paragraphSpans(
    paragraphs.map((paragraph) => paragraph.startMs),
    durationMs,
  );
  return paragraphs.flatMap((paragraph, i) => {
    const texts = chatUtterances(paragraph.text).map(chatUtteranceText);
    const span = spans[i];
    const parts = span
      ? splitSpan(
          span,
          texts.map((text) => text.length),
        )
      : [];
    return texts.map((text, k) => ({ speaker: paragraph.speaker, text, span: parts[k] ?? null }));
  });
}

/** A segment as a translated CHAT file writes it: its main-tier utterances and its dependent tier's text. */
interface WrittenSegment {
  segment: ChatSegment;
  /** The main tier's utterances: the source (sourceUtterances), `www .` when only a translation is there; [] when left out. */
  texts: string[];
  /** The translation on one line; "" when none. */
  target: string;
}

/** What a translated CHAT file writes of each segment (WrittenSegment), in order. */
function writtenSegments(segments: readonly ChatSegment[]): WrittenSegment[] {
  return segments.map((segment) => {
    const target = dependentText(segment.target);
    const texts = sourceUtterances(segment.source);
    return { segment, target, texts: texts.length === 0 && target !== "" ? [`${CHAT_UNTRANSCRIBED} .`] : texts };
  });
}

/** segmentSpans of the segments a translated CHAT file writes; null for those it leaves out. */
function writtenSpans(written: readonly WrittenSegment[], durationMs: number | null): (ChatSpan | null)[] {
  const kept = written.flatMap((w, i) => (w.texts.length > 0 ? [i] : []));
  const spans = segmentSpans(
    kept.map((i) => ({ ...written[i]!.segment, length: written[i]!.texts.join(" ").length })),
    durationMs,
  );
  const all: (ChatSpan | null)[] = written.map(() => null);
  kept.forEach((i, k) => (all[i] = spans[k] ?? null));
  return all;
}

/**
 * The span in the recording of each of `segments` as a translated CHAT file bullets it (decision
 * 035; segmentSpans over the segments it writes, the sources' CHAT text giving their lengths), for
 * files that list the same segments (the export's `segments.tsv`). Null for a segment without a
 * usable time, or with neither source nor translation (left out of the file).
 */
export function chatSegmentSpans(segments: readonly ChatSegment[], durationMs: number | null): (ChatSpan | null)[] {
  return writtenSpans(writtenSegments(segments), durationMs);
}

/**
 * The tiers of translated segments (decision 035): each segment's source on its speaker's main
 * tier (sourceUtterances; `www .`, CHAT's untranscribed speech, when it has none), its span
 * (segmentSpans) shared among its utterances by length, then its translation on `%{tier}` after
 * its last utterance. A segment with neither source nor translation is left out.
 */
export function segmentTiers(
  segments: readonly ChatSegment[],
  durationMs: number | null,
  tier: ChatTranslationTier,
): TierLine[] {
  const written = writtenSegments(segments);
  const spans = writtenSpans(written, durationMs);
  return written.flatMap(({ segment, target, texts }, i): TierLine[] => {
    const span = spans[i];
    const parts = span
      ? splitSpan(
          span,
          texts.map((text) => text.length),
        )
      : [];
    const main = texts.map((text, k) => ({ speaker: segment.speaker, text, span: parts[k] ?? null }));
    return target === "" ? main : [...main, { tier, text: target }];
  });
}
