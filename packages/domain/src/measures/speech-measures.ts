import { SPEAKERS, type Speaker } from "../transcript-lines";

/**
 * Speech measures of a recording (decision 035, "Speech measures"; docs/corpus.md says what each
 * is, its source, and what biases it): per speaker, from the speaker's segments (as the exported
 * CHAT file bullets them) and the voice activity detector's speech stretches of the ORIGINAL audio,
 * never of a translation or a staff re-recording (those measure the translator). Pure functions,
 * whole milliseconds in.
 */

/** A speaker's segment: where its CHAT bullet puts it in the recording, whole ms, start < end. */
export interface SpeakerSpan {
  speaker: Speaker;
  startMs: number;
  endMs: number;
}

/** A stretch of the recording where the voice activity detector found speech, whole ms, start < end. */
export interface SpeechStretch {
  startMs: number;
  endMs: number;
}

/** A silent gap between two speech stretches inside one segment counts as a pause from this long on (ms). */
export const MIN_PAUSE_MS = 250;

/** The measures of one speaker of one recording. Null: not known (see each field). */
export interface SpeakerMeasures {
  speaker: Speaker;
  /** The speaker's segments. */
  segmentCount: number;
  /** Sum of the speaker's segment durations, ms (CLAN EVAL `Duration_(sec)`, in ms). */
  speakingMs: number;
  /** speakingMs / the recording's duration; null when the duration is not known. */
  speakingRatio: number | null;
  /** Speech the detector found inside the speaker's segments, ms; null without stretches. */
  phonationMs: number | null;
  /** Silent gaps ≥ MIN_PAUSE_MS between speech stretches inside the speaker's segments; null without stretches. */
  pauseCount: number | null;
  /** Their mean length, ms; null without stretches or without a pause. */
  meanPauseMs: number | null;
  /**
   * PAR only: the mean of (PAR segment's start − end of the INV segment just before it), over every
   * PAR segment that directly follows an INV one (FLUCALC `Switch_Dur / #_Switch`). An overlap (PAR
   * starting before INV ended) counts as a negative latency, not as 0 and not left out. Null for
   * INV, without such a switch, or when the segments' ends are not their own (`endsTimed` false).
   */
  responseLatencyMs: number | null;
  /** The switches responseLatencyMs is the mean of (0 for INV). */
  responseCount: number;
  /** segmentCount per minute of the recording's duration; null when the duration is not known. */
  segmentsPerMinute: number | null;
}

/**
 * The measures the group report summarises (the Dashboard's table, `measures-summary.csv`), in
 * their order there: of PAR, per recording.
 */
export const GROUP_MEASURES = [
  "speakingMs",
  "speakingRatio",
  "pauseCount",
  "meanPauseMs",
  "responseLatencyMs",
  "segmentsPerMinute",
] as const satisfies readonly (keyof SpeakerMeasures)[];
export type GroupMeasure = (typeof GROUP_MEASURES)[number];

/** The speakers measured, in this order. */
export const MEASURED_SPEAKERS: readonly Speaker[] = SPEAKERS;

/** The index of the first stretch ending after `ms` (stretches ordered, not overlapping). */
function firstEndingAfter(stretches: readonly SpeechStretch[], ms: number): number {
  let low = 0;
  let high = stretches.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (stretches[mid]!.endMs <= ms) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Phonation (ms) and pauses (lengths, ms) inside one segment: the stretches clipped to it, and the gaps between them. */
function insideSegment(
  segment: SpeakerSpan,
  stretches: readonly SpeechStretch[],
): { phonationMs: number; pauses: number[] } {
  let phonationMs = 0;
  const pauses: number[] = [];
  let previousEnd: number | null = null;
  for (let i = firstEndingAfter(stretches, segment.startMs); i < stretches.length; i++) {
    const stretch = stretches[i]!;
    if (stretch.startMs >= segment.endMs) break;
    const start = Math.max(stretch.startMs, segment.startMs);
    const end = Math.min(stretch.endMs, segment.endMs);
    phonationMs += end - start;
    if (previousEnd !== null && start - previousEnd >= MIN_PAUSE_MS) pauses.push(start - previousEnd);
    previousEnd = end;
  }
  return { phonationMs, pauses };
}

/** Latencies (ms) of every PAR segment directly after an INV one, the segments ordered by start (then end). */
function responseLatencies(spans: readonly SpeakerSpan[]): number[] {
  const ordered = [...spans].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const latencies: number[] = [];
  for (let i = 1; i < ordered.length; i++) {
    const before = ordered[i - 1]!;
    const after = ordered[i]!;
    if (before.speaker === "INV" && after.speaker === "PAR") latencies.push(after.startMs - before.endMs);
  }
  return latencies;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Decision 035, "Speech measures": the measures (SpeakerMeasures) of each speaker with at least
 * one segment, PAR first, from `spans` (the segments as the CHAT file bullets them, any order),
 * `stretches` (the detector's speech in the original audio, ordered and not overlapping; null
 * when not known: then phonation and pauses are null), the recording's duration (ms; null when not
 * known: then the ratio and the rate are null) and whether the segments' ends are their own
 * (`endsTimed`; false when each runs to the next one's start, as paragraph times do: then no
 * response latency). Throws RangeError for a span or stretch whose end is not after its start.
 */
export function speakerMeasures(
  spans: readonly SpeakerSpan[],
  stretches: readonly SpeechStretch[] | null,
  durationMs: number | null,
  endsTimed: boolean,
): SpeakerMeasures[] {
  for (const s of [...spans, ...(stretches ?? [])]) {
    if (!(s.endMs > s.startMs)) throw new RangeError(`a stretch must end after it starts (${s.startMs}–${s.endMs} ms)`);
  }
  const minutes = durationMs !== null && durationMs > 0 ? durationMs / 60_000 : null;
  const latencies = endsTimed ? responseLatencies(spans) : [];
  return MEASURED_SPEAKERS.flatMap((speaker): SpeakerMeasures[] => {
    const mine = spans.filter((s) => s.speaker === speaker);
    if (mine.length === 0) return [];
    const speakingMs = mine.reduce((sum, s) => sum + (s.endMs - s.startMs), 0);
    let phonationMs: number | null = null;
    let pauses: number[] = [];
    if (stretches) {
      phonationMs = 0;
      for (const segment of mine) {
        const inside = insideSegment(segment, stretches);
        phonationMs += inside.phonationMs;
        pauses = pauses.concat(inside.pauses);
      }
    }
    const responses = speaker === "PAR" ? latencies : [];
    return [
      {
        speaker,
        segmentCount: mine.length,
        speakingMs,
        speakingRatio: minutes === null ? null : speakingMs / (minutes * 60_000),
        phonationMs,
        pauseCount: stretches ? pauses.length : null,
        meanPauseMs: mean(pauses),
        responseLatencyMs: mean(responses),
        responseCount: responses.length,
        segmentsPerMinute: minutes === null ? null : mine.length / minutes,
      },
    ];
  });
}
