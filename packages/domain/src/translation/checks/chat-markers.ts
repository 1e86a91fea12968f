/**
 * The chat-markers check of the translation checks (decision 035): when the programme's guidelines
 * keep CHAT markers in translations, every marker of the source must be in the translation.
 *
 * Repetition and retracing (`[/]`, `[//]`, `[///]`), pauses (`(.)`, `(..)`, `(...)`, timed `(1.5)`)
 * and unintelligible speech (`xxx`, `yyy`, `www`) are kept exactly as written, so they are compared
 * as strings. Fillers (`&-uh`), fragments (`&+fr`) and events (`&=laughs`) may have their word
 * translated, so only how many of each prefix there are is compared.
 */

/** Every CHAT marker the check knows, in one pattern. */
const MARKER =
  /&[-+=][\p{L}\p{M}][\p{L}\p{M}\p{N}_:'+-]*|\[\/{1,3}\]|\(\.{1,3}\)|\((?:\d+:)?\d+\.\d*\)|(?<![\p{L}\p{M}\p{N}_])(?:xxx|yyy|www)(?![\p{L}\p{M}\p{N}_])/gu;

/** The kind a marker is counted under: its prefix (`&-`, `&+`, `&=`) or the marker itself. */
function kindOf(marker: string): string {
  return marker.startsWith("&") ? marker.slice(0, 2) : marker;
}

/** A text's CHAT markers grouped by kind, kinds in the order they first appear. */
function markersByKind(text: string): Map<string, string[]> {
  const kinds = new Map<string, string[]>();
  for (const [marker] of text.matchAll(MARKER)) {
    const kind = kindOf(marker);
    kinds.set(kind, [...(kinds.get(kind) ?? []), marker]);
  }
  return kinds;
}

/**
 * A text without its CHAT markers (each replaced by a space), so other checks do not read a timed
 * pause as a number or `xxx` as a word (decision 035). Takes a text, returns the rest of it.
 */
export function withoutChatMarkers(text: string): string {
  return text.replace(MARKER, " ");
}

/**
 * What the chat-markers check says of a segment (decision 035): takes its source and translation,
 * returns 'CHAT markers missing from the translation: [/] (1 of 2), &-uh.' or null when none is
 * missing. A kind the source has more than once says how many of how many are missing; fillers,
 * fragments and events are named by the source's words (`&-uh or &-um (1 of 2)`).
 */
export function missingChatMarkers(source: string, target: string): string | null {
  const inTarget = markersByKind(target);
  const missing: string[] = [];
  for (const [kind, markers] of markersByKind(source)) {
    const count = markers.length;
    const lacking = count - (inTarget.get(kind)?.length ?? 0);
    if (lacking <= 0) continue;
    const name = kind.startsWith("&") ? [...new Set(markers)].join(" or ") : kind;
    missing.push(count > 1 ? `${name} (${lacking} of ${count})` : name);
  }
  return missing.length === 0 ? null : `CHAT markers missing from the translation: ${missing.join(", ")}.`;
}
