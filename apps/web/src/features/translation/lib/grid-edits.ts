import type { SegmentState, TranslationSegment } from "@tafsiri/domain";

/**
 * The segment grid's edits (decision 035) as pure functions of the rows: each returns new rows and
 * leaves the others' objects as they were, so unchanged rows are not drawn again.
 */

type Rows = readonly TranslationSegment[];

/** The state a row has after its translation became `target` (typing makes a confirmed row a draft again). */
function stateAfterTyping(target: string): SegmentState {
  return target.trim() === "" ? "empty" : "draft";
}

function replaceAt(rows: Rows, index: number, row: TranslationSegment): TranslationSegment[] {
  const next = rows.slice();
  next[index] = row;
  return next;
}

/** The row at `index` with its translation `target`, a draft (or empty). */
export function withTarget(rows: Rows, index: number, target: string): TranslationSegment[] {
  const row = rows[index];
  if (!row || row.target === target) return rows.slice();
  return replaceAt(rows, index, { ...row, target, state: stateAfterTyping(target) });
}

/** The row at `index` confirmed ('translated') when it has a translation; unchanged otherwise. */
export function confirmed(rows: Rows, index: number): TranslationSegment[] {
  const row = rows[index];
  if (!row || row.target.trim() === "" || row.state === "translated") return rows.slice();
  return replaceAt(rows, index, { ...row, state: "translated" });
}

/** The row at `index` with the other speaker. */
export function withOtherSpeaker(rows: Rows, index: number): TranslationSegment[] {
  const row = rows[index];
  if (!row) return rows.slice();
  return replaceAt(rows, index, { ...row, speaker: row.speaker === "INV" ? "PAR" : "INV" });
}

/** `text` with `insert` put in place of [from, to) (a selection, or the caret when equal). */
export function insertedAt(text: string, insert: string, from: number, to: number): string {
  return text.slice(0, from) + insert + text.slice(to);
}

/** Where a split at `caret` of a text of `length` characters falls in the span [start, end), in whole ms. */
function splitTime(startMs: number | null, endMs: number | null, caret: number, length: number): number | null {
  if (startMs === null || endMs === null || endMs <= startMs || length === 0) return null;
  return Math.round(startMs + ((endMs - startMs) * caret) / length);
}

/**
 * The row at `index` split in two at `caret` of its source or translation (`field`): the text
 * after the caret starts the new row (a new id); the other field stays whole in the first row.
 * With a known span, the new row starts where the caret falls in proportion. Unchanged when the
 * caret is at either end.
 */
export function splitAt(
  rows: Rows,
  index: number,
  field: "source" | "target",
  caret: number,
  newId: string,
): TranslationSegment[] {
  const row = rows[index];
  if (!row) return rows.slice();
  const text = row[field];
  const head = text.slice(0, caret).trimEnd();
  const tail = text.slice(caret).trimStart();
  if (head === "" || tail === "") return rows.slice();
  const at = field === "source" ? splitTime(row.startMs, row.endMs, caret, text.length) : null;
  const first: TranslationSegment = {
    ...row,
    [field]: head,
    endMs: at ?? row.endMs,
    state: field === "target" ? stateAfterTyping(head) : row.state,
  };
  const second: TranslationSegment = {
    id: newId,
    speaker: row.speaker,
    startMs: at,
    endMs: at === null ? null : row.endMs,
    source: field === "source" ? tail : "",
    target: field === "target" ? tail : "",
    state: field === "target" ? stateAfterTyping(tail) : "empty",
  };
  if (field === "source") first.state = first.target.trim() === "" ? "empty" : "draft";
  const next = rows.slice();
  next.splice(index, 1, first, second);
  return next;
}

/** The row at `index` and the next as one row: texts joined by a space, the first's start, the second's end. */
export function mergedWithNext(rows: Rows, index: number): TranslationSegment[] {
  const row = rows[index];
  const after = rows[index + 1];
  if (!row || !after) return rows.slice();
  const join = (a: string, b: string) => [a.trim(), b.trim()].filter((t) => t !== "").join(" ");
  const target = join(row.target, after.target);
  const merged: TranslationSegment = {
    ...row,
    endMs: after.endMs ?? row.endMs,
    source: join(row.source, after.source),
    target,
    state: row.state === "translated" && after.state === "translated" ? "translated" : stateAfterTyping(target),
  };
  const next = rows.slice();
  next.splice(index, 2, merged);
  return next;
}

/** The index of the first row from `from` (wrapping) that is not confirmed, or -1. */
export function nextUntranslated(rows: Rows, from: number): number {
  for (let step = 0; step < rows.length; step++) {
    const i = (from + step) % rows.length;
    if (rows[i]!.state !== "translated") return i;
  }
  return -1;
}
