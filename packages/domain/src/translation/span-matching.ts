import { expectedTakeMs } from "./take-checks";

/**
 * Decision 035, a whole-file upload of the spoken translation (SPEC §2.13): the voice activity
 * detector finds the stretches of speech in the recording, and these functions propose which
 * stretch speaks which grid row, for staff to confirm or correct, and check what staff confirm.
 */

/** A grid row as the matching sees it: its id and its written translation. */
export interface SpanSegment {
  id: string;
  target: string;
}

/** A stretch of speech the detector found, or a row's span: ms from the recording's start, end > start. */
interface Stretch {
  startMs: number;
  endMs: number;
}

/** A row's proposed or confirmed span in the recording, whole ms. */
export interface SegmentSpan {
  segmentId: string;
  startMs: number;
  endMs: number;
}

/** A row with little or nothing to read still expects this much speech, ms (about one word). */
const MIN_EXPECTED_MS = 400;
/** At most this many stretches make one row's span, and one stretch is shared by at most this many rows. */
const MAX_GROUP = 32;
/** Cost of each extra row a single stretch is split into: far above any mismatch, so a split is a last resort. */
const SPLIT_COST = 10;
/** Weight of cutting at a short pause rather than at one of the longest (see matchSpans). */
const GAP_WEIGHT = 1;
/** A row stops taking more stretches once they hold this many times its share (plus 1/rows) beyond it. */
const OVERSHOOT = 2;
/** Up to this many cells ((rows + 1) × (stretches + 1)) the matching tries every alignment; beyond, a band. */
const FULL_CELLS = 1_000_000;
/** Half the band's width, in stretches, around the alignment that the expected shares suggest. */
const BAND = 400;

/** The speech each row is expected to take: its translation read at 150 words a minute, at least MIN_EXPECTED_MS. */
function expectedMs(segments: readonly SpanSegment[]): number[] {
  return segments.map((s) => Math.max(MIN_EXPECTED_MS, expectedTakeMs(s.target)));
}

/**
 * Cuts [startMs, endMs) into `weights.length` consecutive spans in proportion to `weights`, whole
 * ms, each at least 1 ms long when the stretch allows.
 */
function splitProportionally(stretch: Stretch, weights: readonly number[]): Stretch[] {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const length = stretch.endMs - stretch.startMs;
  const spans: Stretch[] = [];
  let at = stretch.startMs;
  let acc = 0;
  for (const [k, w] of weights.entries()) {
    acc += w;
    const left = weights.length - k - 1;
    const ideal = k === weights.length - 1 ? stretch.endMs : stretch.startMs + Math.round((length * acc) / total);
    const end = Math.min(stretch.endMs - left, Math.max(at + 1, ideal));
    spans.push({ startMs: at, endMs: end });
    at = end;
  }
  return spans;
}

/**
 * Proposes each grid row's span in a recording of `recordingMs` ms that speaks the rows'
 * translations in order, from the detector's speech `stretches` (ordered, not overlapping, whole
 * ms). Each row is expected to take a share of the speech in proportion to its translation's
 * reading time at 150 words a minute (MIN_EXPECTED_MS at least). Rows and stretches are aligned by
 * dynamic programming: a row takes one or more whole consecutive stretches, or, only where there
 * are fewer stretches than rows, a stretch is split among several rows in proportion to their
 * expected times. The alignment minimises the squared difference between each unit's speech and
 * its expected share (both as fractions of all the speech), plus, for each cut, GAP_WEIGHT / rows²
 * times how much shorter its pause is than the (rows − 1)-th longest pause, so a recording read
 * with clear pauses between rows is cut at those pauses. A span runs from its first stretch's start
 * to its last stretch's end. With no stretch at all the whole recording is split in proportion.
 * Returns one span per row, in the rows' order, ordered and not overlapping; [] without rows.
 * Expects `recordingMs` ≥ the number of rows, so each span can last at least 1 ms.
 */
export function matchSpans(
  segments: readonly SpanSegment[],
  stretches: readonly Stretch[],
  recordingMs: number,
): SegmentSpan[] {
  const n = segments.length;
  if (n === 0) return [];
  const expected = expectedMs(segments);
  const spans =
    stretches.length === 0
      ? splitProportionally({ startMs: 0, endMs: recordingMs }, expected)
      : alignByCost(expected, stretches);
  return spans.map((span, i) => ({ segmentId: segments[i]!.id, startMs: span.startMs, endMs: span.endMs }));
}

/** The dynamic programme of matchSpans: one span per expected duration, from the stretches. */
function alignByCost(expected: readonly number[], stretches: readonly Stretch[]): Stretch[] {
  const n = expected.length;
  const m = stretches.length;
  const speech = stretches.map((s) => s.endMs - s.startMs);
  const totalSpeech = speech.reduce((sum, d) => sum + d, 0);
  const totalExpected = expected.reduce((sum, e) => sum + e, 0);
  // Prefix sums: speech of stretches [0, j) and expected shares of rows [0, i), both as fractions.
  const speechBefore = [0];
  for (const d of speech) speechBefore.push(speechBefore.at(-1)! + d / totalSpeech);
  const shareBefore = [0];
  for (const e of expected) shareBefore.push(shareBefore.at(-1)! + e / totalExpected);
  // gaps[j]: the pause before stretch j (j ≥ 1); the (n − 1)-th longest is the scale of a clear pause.
  const gaps = stretches.map((s, j) => (j === 0 ? 0 : Math.max(0, s.startMs - stretches[j - 1]!.endMs)));
  const sortedGaps = gaps.slice(1).sort((a, b) => b - a);
  const clearPause = Math.max(1, sortedGaps[Math.min(n - 1, sortedGaps.length) - 1] ?? 1);
  const cutCost = (j: number) => (GAP_WEIGHT / (n * n)) * (1 - Math.min(1, gaps[j]! / clearPause));

  // The band: for row i, stretches around where the expected shares put its start.
  const band = (n + 1) * (m + 1) <= FULL_CELLS ? m : BAND;
  const lo: number[] = [];
  const hi: number[] = [];
  let j0 = 0;
  for (let i = 0; i <= n; i++) {
    while (j0 < m && speechBefore[j0]! < shareBefore[i]! - 1e-12) j0++;
    const centre = i === n ? m : j0;
    lo.push(Math.max(0, centre - band));
    hi.push(Math.min(m, centre + band));
  }
  const cost = lo.map((l, i) => new Float64Array(hi[i]! - l + 1).fill(Number.POSITIVE_INFINITY));
  // Where each cell came from: the previous row index and stretch index.
  const fromRow = lo.map((l, i) => new Int32Array(hi[i]! - l + 1).fill(-1));
  const fromStretch = lo.map((l, i) => new Int32Array(hi[i]! - l + 1).fill(-1));
  cost[0]![0 - lo[0]!] = 0;
  const relax = (i: number, j: number, ni: number, nj: number, add: number, base: number) => {
    if (ni > n || nj > m || nj < lo[ni]! || nj > hi[ni]!) return;
    const k = nj - lo[ni]!;
    if (base + add < cost[ni]![k]!) {
      cost[ni]![k] = base + add;
      fromRow[ni]![k] = i;
      fromStretch[ni]![k] = j;
    }
  };
  for (let i = 0; i < n; i++) {
    for (let j = lo[i]!; j <= hi[i]! && j < m; j++) {
      const base = cost[i]![j - lo[i]!]!;
      if (!Number.isFinite(base)) continue;
      const cut = i === 0 ? 0 : cutCost(j);
      // Row i takes stretches j .. j + k − 1, until they hold far more speech than its share.
      const share = shareBefore[i + 1]! - shareBefore[i]!;
      for (let k = 1; k <= MAX_GROUP && j + k <= m; k++) {
        const diff = speechBefore[j + k]! - speechBefore[j]! - share;
        relax(i, j, i + 1, j + k, diff * diff + cut, base);
        if (diff > OVERSHOOT * share + 1 / n) break;
      }
      // Stretch j is shared by rows i .. i + r − 1: only ever needed with fewer stretches than rows.
      for (let r = 2; r <= MAX_GROUP && i + r <= n && m < n; r++) {
        const diff = speechBefore[j + 1]! - speechBefore[j]! - (shareBefore[i + r]! - shareBefore[i]!);
        const inner = (r - 1) * (SPLIT_COST + GAP_WEIGHT / (n * n));
        relax(i, j, i + r, j + 1, diff * diff + cut + inner, base);
      }
    }
  }
  if (!Number.isFinite(cost[n]![m - lo[n]!]!)) {
    // No alignment within the limits (e.g. one stretch for hundreds of rows): share out all the speech.
    return splitProportionally({ startMs: stretches[0]!.startMs, endMs: stretches.at(-1)!.endMs }, expected);
  }
  // Walk back from (n, m), then lay the units out in order.
  const units: { rows: [number, number]; stretches: [number, number] }[] = [];
  for (let i = n, j = m; i > 0;) {
    const pi = fromRow[i]![j - lo[i]!]!;
    const pj = fromStretch[i]![j - lo[i]!]!;
    units.push({ rows: [pi, i], stretches: [pj, j] });
    i = pi;
    j = pj;
  }
  return units.reverse().flatMap(({ rows: [r0, r1], stretches: [s0, s1] }) => {
    const extent = { startMs: stretches[s0]!.startMs, endMs: stretches[s1 - 1]!.endMs };
    return r1 - r0 === 1 ? [extent] : splitProportionally(extent, expected.slice(r0, r1));
  });
}

/**
 * Checks spans staff confirm for the rows `segmentIds` of a recording of `recordingMs` ms
 * (decision 035): every row exactly once, whole ms, each ending after it starts, inside the
 * recording, in the rows' order and not overlapping. Returns the first problem as a sentence for
 * staff (rows numbered from 1), or null when there is none.
 */
export function spanProblem(
  segmentIds: readonly string[],
  spans: readonly SegmentSpan[],
  recordingMs: number,
): string | null {
  const place = new Map(segmentIds.map((id, i) => [id, i]));
  const seen = new Set<string>();
  for (const span of spans) {
    if (!place.has(span.segmentId)) return "A span names a segment that is not in this transcript.";
    if (seen.has(span.segmentId)) return `Segment ${place.get(span.segmentId)! + 1} has more than one span.`;
    seen.add(span.segmentId);
  }
  const missing = segmentIds.findIndex((id) => !seen.has(id));
  if (missing !== -1) return `Segment ${missing + 1} has no span.`;
  const ordered = [...spans].sort((a, b) => place.get(a.segmentId)! - place.get(b.segmentId)!);
  for (const [k, span] of ordered.entries()) {
    const label = `Segment ${k + 1}`;
    if (!Number.isInteger(span.startMs) || !Number.isInteger(span.endMs))
      return `${label}: times are whole milliseconds.`;
    if (span.startMs < 0 || span.endMs > recordingMs) return `${label} lies outside the recording.`;
    if (span.endMs <= span.startMs) return `${label} ends before it starts.`;
    const previous = ordered[k - 1];
    if (previous && span.startMs < previous.endMs) return `${label} starts before segment ${k} ends.`;
  }
  return null;
}
