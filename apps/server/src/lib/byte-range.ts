import type { IncomingHttpHeaders } from "node:http";

/** What a `Range` header asks of a file: all of it, one slice (bytes, both ends included), or nothing it has. */
export type RangeAnswer =
  { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

const BYTES_UNIT = /^\s*bytes\s*=(.*)$/i;
const RANGE_SPEC = /^(\d*)-(\d*)$/;

/**
 * The answer to `Range: bytes=…` (RFC 9110 §14; decision 014) for a file of `size` bytes, as
 * @fastify/send gave it before the files route read through the storage interface: no header, a
 * unit other than bytes or a malformed header: the full file (200); `a-b`, `a-` and `-n` (the last
 * n bytes, the whole file when n is larger) clipped to the file; overlapping or adjacent ranges
 * merged; one range left: partial (206); none within the file: unsatisfiable (416); several
 * disjoint ranges: the full file (no multipart/byteranges answers).
 */
export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  const unit = header === undefined ? null : BYTES_UNIT.exec(header);
  if (!unit) return { kind: "full" };
  const ranges: Array<{ start: number; end: number }> = [];
  for (const spec of (unit[1] ?? "").split(",")) {
    const match = RANGE_SPEC.exec(spec.trim());
    if (!match || (match[1] === "" && match[2] === "")) return { kind: "full" };
    const [first, last] = [match[1] ?? "", match[2] ?? ""];
    if (first === "") {
      const suffix = Number(last);
      if (suffix > 0 && size > 0) ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(first);
    const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== "" && Number(last) < start) return { kind: "full" }; // a-b with b < a: malformed
    if (start < size) ranges.push({ start, end });
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  ranges.sort((a, b) => a.start - b.start);
  const merged = [ranges[0]!];
  for (const range of ranges.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (range.start <= last.end + 1) last.end = Math.max(last.end, range.end);
    else merged.push(range);
  }
  return merged.length === 1 ? { kind: "partial", ...merged[0]! } : { kind: "full" };
}

/** A stored file's validators: its entity tag and when it was last written. */
export interface Validators {
  /** A weak tag, `W/"{size hex}-{mtime ms hex}"`, as @fastify/send made it. */
  etag: string;
  lastModified: Date;
}

/** The validators of a file of `sizeBytes` last written at `modifiedAt`. */
export function validatorsOf(sizeBytes: number, modifiedAt: Date): Validators {
  return { etag: `W/"${sizeBytes.toString(16)}-${modifiedAt.getTime().toString(16)}"`, lastModified: modifiedAt };
}

/** Whether `header` (an If-None-Match or If-Range list) names `etag`, compared weakly. */
function namesTag(header: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}

/** A header's value (the first, if sent several times). */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `date` (an HTTP date) parsed in milliseconds, or null when it is not one. */
function httpDate(date: string | undefined): number | null {
  if (date === undefined) return null;
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? null : ms;
}

/** The last write time as an HTTP date can say it: whole seconds. */
function inSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000) * 1000;
}

/**
 * Whether a conditional GET may be answered 304 Not Modified: `If-None-Match` names the file's
 * tag (or is `*`), or, without it, `If-Modified-Since` is not older than its last write. A
 * request with `Cache-Control: no-cache` always gets the file.
 */
export function isNotModified(headers: IncomingHttpHeaders, validators: Validators): boolean {
  if (headers["cache-control"]?.includes("no-cache")) return false;
  const ifNoneMatch = headers["if-none-match"];
  if (ifNoneMatch !== undefined) return ifNoneMatch.trim() === "*" || namesTag(ifNoneMatch, validators.etag);
  const since = httpDate(headers["if-modified-since"]);
  return since !== null && inSeconds(validators.lastModified) <= since;
}

/**
 * Whether a `Range` applies (RFC 9110 §13.1.5 If-Range): always without `If-Range`; with it, only
 * when it names the file's tag or a date not older than its last write (else the full file is
 * sent, as it changed).
 */
export function rangeStillApplies(headers: IncomingHttpHeaders, validators: Validators): boolean {
  const ifRange = headerValue(headers["if-range"]);
  if (ifRange === undefined) return true;
  if (ifRange.includes('"')) return namesTag(ifRange, validators.etag);
  const date = httpDate(ifRange);
  return date !== null && inSeconds(validators.lastModified) <= date;
}
