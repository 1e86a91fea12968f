import { missingChatMarkers, withoutChatMarkers } from "./checks/chat-markers";
import { glossaryCheck } from "./checks/glossary";
import { differentNumbers } from "./checks/numbers";
import { comparable, quoted } from "./checks/wording";
import type { GlossaryTerm, TranslationSegment } from "./segments";

/**
 * Quality checks of a translated transcript (decision 035), after Weblate's and Matecat's: each
 * segment is checked as the translator types (the segment grid shows the findings live) and again
 * by the server on Submit. As in Pontoon, errors block Submit and warnings do not.
 *
 * A segment not translated yet gets only the untranslated finding: the other checks would all
 * repeat it. A row whose source and translation are both empty is not checked.
 */

/** The checks' stable ids, in the order they run on a segment (decision 035). */
export const CHECK_NAMES = [
  "untranslated",
  "unchanged",
  "numbers",
  "glossary",
  "length",
  "inconsistent",
  "chat-markers",
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** Errors block Submit; warnings are shown but do not (decision 035). */
export type CheckSeverity = "error" | "warning";

/** One thing a check found in one segment (decision 035). */
export interface CheckFinding {
  check: CheckName;
  severity: CheckSeverity;
  segmentId: string;
  /** A sentence for the translator: what is wrong, and what to do. */
  message: string;
}

/** What the checks need besides the segments (decision 035). */
export interface CheckContext {
  /** The glossary terms of the language pair. */
  glossary: readonly GlossaryTerm[];
  /** The programme's guidelines keep CHAT markers in translations (a setting); the chat-markers check runs only then. */
  keepChatMarkers: boolean;
  /** Other translations of the same normalised source in the translation memory, by segment id (the server looks them up). */
  memoryVariants?: ReadonlyMap<string, readonly string[]>;
  /** Expected target/source length ratio of the language pair (characters), default 1. */
  lengthRatio?: number;
}

/** Short human names of the checks, for the list of findings (decision 035): takes a check id, gives its name. */
export const CHECK_LABELS: Record<CheckName, string> = {
  untranslated: "Untranslated",
  unchanged: "Unchanged",
  numbers: "Numbers",
  glossary: "Glossary",
  length: "Length",
  inconsistent: "Inconsistent",
  "chat-markers": "CHAT markers",
};

/** How serious each check's findings are. The chat-markers check runs only when the guidelines keep markers. */
const SEVERITIES: Record<CheckName, CheckSeverity> = {
  untranslated: "error",
  unchanged: "warning",
  numbers: "warning",
  glossary: "warning",
  length: "warning",
  inconsistent: "warning",
  "chat-markers": "error",
};

/** A source shorter than this (characters) is not length-checked: short phrases vary too much. */
const LENGTH_MIN_SOURCE = 20;
/** How many of the memory's other translations the inconsistent check quotes. */
const VARIANTS_QUOTED = 2;

/** What one check run shares between segments: the context, and the glossary's prepared patterns. */
interface Run {
  context: CheckContext;
  glossary: (source: string, target: string) => string[];
  lengthRatio: number;
}

/** A check of one translated segment: its messages (none: an empty list). */
type SegmentCheck = (segment: TranslationSegment, run: Run) => string[];

/** A text with nothing but white space. */
function isBlank(text: string): boolean {
  return text.trim() === "";
}

/** A text's length in characters (code points), white space around it left out. */
function lengthOf(text: string): number {
  return Array.from(text.trim()).length;
}

/** unchanged: the translation is the source again, and the source has words (not only numbers or CHAT markers). */
function unchangedCheck({ source, target }: TranslationSegment): string[] {
  const hasWords = /\p{L}/u.test(withoutChatMarkers(source));
  return hasWords && comparable(source) === comparable(target) ? ["The translation is the same as the source."] : [];
}

/** numbers: the source and the translation have different numbers. */
function numbersCheck({ source, target }: TranslationSegment): string[] {
  const message = differentNumbers(source, target);
  return message === null ? [] : [message];
}

/** glossary: a glossary term of the source is not translated as the glossary says. */
function glossaryTermsCheck({ source, target }: TranslationSegment, run: Run): string[] {
  return run.glossary(source, target);
}

/** length: the translation is far shorter or longer than the language pair's ratio expects. */
function lengthCheck({ source, target }: TranslationSegment, run: Run): string[] {
  const sourceLength = lengthOf(source);
  if (sourceLength < LENGTH_MIN_SOURCE || isBlank(target)) return [];
  const ratio = lengthOf(target) / sourceLength;
  if (ratio < 0.5 * run.lengthRatio) {
    return ["The translation is much shorter than the source: check that nothing is missing."];
  }
  if (ratio > 2 * run.lengthRatio) {
    return ["The translation is much longer than the source: check that nothing was added."];
  }
  return [];
}

/** inconsistent: the translation memory translates the same source differently. */
function inconsistentCheck({ id, target }: TranslationSegment, run: Run): string[] {
  const others = new Map<string, string>();
  for (const variant of run.context.memoryVariants?.get(id) ?? []) {
    const key = comparable(variant);
    if (key !== "" && key !== comparable(target) && !others.has(key)) others.set(key, variant.trim());
  }
  if (others.size === 0) return [];
  const variants = [...others.values()];
  const shown = variants.slice(0, VARIANTS_QUOTED).map(quoted).join(" or ");
  const more = variants.length > VARIANTS_QUOTED ? ` (and ${variants.length - VARIANTS_QUOTED} more)` : "";
  return [
    `Elsewhere this source was translated as ${shown}${more}. Use the same translation unless this context needs another.`,
  ];
}

/** chat-markers: a CHAT marker of the source is missing from the translation (run only when markers are kept). */
function chatMarkersCheck({ source, target }: TranslationSegment, run: Run): string[] {
  if (!run.context.keepChatMarkers) return [];
  const message = missingChatMarkers(source, target);
  return message === null ? [] : [message];
}

/** The checks of a translated segment, in CHECK_NAMES order (untranslated is decided before them). */
const CHECKS: ReadonlyArray<readonly [CheckName, SegmentCheck]> = [
  ["unchanged", unchangedCheck],
  ["numbers", numbersCheck],
  ["glossary", glossaryTermsCheck],
  ["length", lengthCheck],
  ["inconsistent", inconsistentCheck],
  ["chat-markers", chatMarkersCheck],
];

/** A finding of a check on a segment. */
function finding(check: CheckName, segmentId: string, message: string): CheckFinding {
  return { check, severity: SEVERITIES[check], segmentId, message };
}

/**
 * Every check on every segment (decision 035): takes the segments in grid order and the context,
 * returns the findings in segment order, each segment's in CHECK_NAMES order. An empty translation
 * gets only 'Not translated yet.'; a row with neither source nor translation gets nothing.
 */
export function checkSegments(segments: readonly TranslationSegment[], context: CheckContext): CheckFinding[] {
  const ratio = context.lengthRatio;
  const run: Run = {
    context,
    glossary: glossaryCheck(context.glossary),
    lengthRatio: ratio !== undefined && Number.isFinite(ratio) && ratio > 0 ? ratio : 1,
  };
  const findings: CheckFinding[] = [];
  for (const segment of segments) {
    if (isBlank(segment.target)) {
      if (!isBlank(segment.source)) findings.push(finding("untranslated", segment.id, "Not translated yet."));
      continue;
    }
    for (const [check, runCheck] of CHECKS) {
      for (const message of runCheck(segment, run)) findings.push(finding(check, segment.id, message));
    }
  }
  return findings;
}

/** The findings that block Submit (decision 035): takes findings, returns those that are errors, in order. */
export function blockingFindings(findings: readonly CheckFinding[]): CheckFinding[] {
  return findings.filter((f) => f.severity === "error");
}

/**
 * The grid's 'N of M translated' (decision 035): takes the segments, returns how many are in state
 * `translated` and how many there are, rows with neither source nor translation left out of both.
 */
export function countTranslated(segments: readonly TranslationSegment[]): { translated: number; total: number } {
  const rows = segments.filter((s) => !(isBlank(s.source) && isBlank(s.target)));
  return { translated: rows.filter((s) => s.state === "translated").length, total: rows.length };
}
