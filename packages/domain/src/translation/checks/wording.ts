/** Small helpers for the translation checks' sentences (decision 035). */

/** Items as an English list: `a`, `a and b`, `a, b and c`; `none` when empty (decision 035). */
export function listWithAnd(items: readonly string[]): string {
  if (items.length === 0) return "none";
  if (items.length === 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A text in double quotes, for a translation or a term inside a message (decision 035). */
export function quoted(text: string): string {
  return `"${text}"`;
}

/**
 * A text as compared by the checks (decision 035): trimmed, NFC, runs of white space as one space
 * and lower case, so `Picture ` and `picture` are the same.
 */
export function comparable(text: string): string {
  return text.normalize("NFC").trim().replace(/\s+/gu, " ").toLowerCase();
}
