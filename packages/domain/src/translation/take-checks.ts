import { tokensOf } from "./similarity";
import type { CheckSeverity } from "./translation-checks";

/**
 * Checks of the spoken translation recorded segment by segment (decision 035, oral translation):
 * each segment's take, against its written translation and by its levels. The grid lists them
 * before the translated recording is assembled and the reviewer sees the same list. Errors block
 * the assembly, warnings do not.
 */

/** The take checks' stable ids, in the order they run on a segment. */
export const TAKE_CHECK_NAMES = [
  "missing",
  "silent",
  "too-short",
  "too-long",
  "long-silence",
  "clipped",
  "quiet",
] as const;
export type TakeCheckName = (typeof TAKE_CHECK_NAMES)[number];

/** What was measured of a take when it was stored (dBFS: decibels below full scale; 0 is the loudest). */
export interface TakeLevels {
  durationMs: number;
  peakDbfs: number;
  rmsDbfs: number;
  /** The longest stretch of silence inside the take (not at its ends), ms. */
  longestSilenceMs: number;
}

/** One thing a take check found in one segment. */
export interface TakeFinding {
  check: TakeCheckName;
  severity: CheckSeverity;
  segmentId: string;
  /** A sentence for the speaker: what is wrong, and what to do. */
  message: string;
}

/** A segment as the take checks see it: its id and its written translation. */
export interface TakeSegment {
  id: string;
  target: string;
}

/** Speaking rate the duration checks expect when reading a translation aloud, words a minute. */
export const READING_WORDS_PER_MINUTE = 150;
/** A take shorter than this share of the expected duration, or longer than TOO_LONG times it, is flagged. */
const TOO_SHORT = 0.4;
const TOO_LONG = 2.5;
/** Expected durations under this are not judged (a one-word answer may be said in any time). */
const MIN_JUDGED_MS = 1_500;
/** Silence inside a take longer than this is flagged, ms. */
export const LONGEST_SILENCE_MS = 3_000;
/** Levels: a take whose RMS is under SILENT_DBFS holds no speech; under QUIET_DBFS it is hard to hear. */
const SILENT_DBFS = -60;
const QUIET_DBFS = -35;
/** A peak at or above this is taken as clipped. */
const CLIPPED_DBFS = -0.3;

/** How long reading `text` aloud takes at READING_WORDS_PER_MINUTE, ms. */
export function expectedTakeMs(text: string): number {
  return Math.round((tokensOf(text).length * 60_000) / READING_WORDS_PER_MINUTE);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The findings of one segment's take (none when the segment has no written translation and no take). */
function checkTake(segment: TakeSegment, take: TakeLevels | undefined): TakeFinding[] {
  const finding = (check: TakeCheckName, severity: CheckSeverity, message: string): TakeFinding => ({
    check,
    severity,
    segmentId: segment.id,
    message,
  });
  if (!take) {
    return segment.target.trim() === ""
      ? []
      : [finding("missing", "error", "This segment has no take yet. Record or upload its spoken translation.")];
  }
  if (take.rmsDbfs < SILENT_DBFS)
    return [finding("silent", "error", "The take is silent. Check the microphone and record it again.")];
  const found: TakeFinding[] = [];
  const expected = expectedTakeMs(segment.target);
  if (expected >= MIN_JUDGED_MS && take.durationMs < expected * TOO_SHORT)
    found.push(
      finding(
        "too-short",
        "warning",
        `The take lasts ${seconds(take.durationMs)}; reading the translation takes about ${seconds(expected)}.`,
      ),
    );
  if (expected >= MIN_JUDGED_MS && take.durationMs > expected * TOO_LONG)
    found.push(
      finding(
        "too-long",
        "warning",
        `The take lasts ${seconds(take.durationMs)}; reading the translation takes about ${seconds(expected)}.`,
      ),
    );
  if (take.longestSilenceMs > LONGEST_SILENCE_MS)
    found.push(
      finding("long-silence", "warning", `The take has ${seconds(take.longestSilenceMs)} of silence inside it.`),
    );
  if (take.peakDbfs >= CLIPPED_DBFS)
    found.push(finding("clipped", "warning", "The take is clipped (too loud). Record it again a little further away."));
  else if (take.rmsDbfs < QUIET_DBFS)
    found.push(finding("quiet", "warning", "The take is very quiet. Record it again closer to the microphone."));
  return found;
}

/**
 * The take checks of an audio's segments, in segment order (decision 035): `takes` maps a segment
 * id to its take's levels. A segment with a written translation and no take is an error, as is a
 * silent take; a duration far from the translation's reading time, silence of more than 3 s inside
 * a take, clipping and a very low level are warnings.
 */
export function checkTakes(segments: readonly TakeSegment[], takes: ReadonlyMap<string, TakeLevels>): TakeFinding[] {
  return segments.flatMap((segment) => checkTake(segment, takes.get(segment.id)));
}

/** Whether any finding blocks the assembly of the translated recording. */
export function takesBlockAssembly(findings: readonly TakeFinding[]): boolean {
  return findings.some((f) => f.severity === "error");
}
