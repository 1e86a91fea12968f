import type { GlossaryTerm } from "../segments";
import { comparable, quoted } from "./wording";

/**
 * The glossary check of the translation checks (decision 035): when a glossary term occurs in the
 * source (a whole word or words, any case), the translation must contain its target term (any case).
 * A source term listed with several target terms is satisfied by any one of them.
 */

/** One source term of the glossary, with every target term it may be translated as. */
interface TermEntry {
  sourceTerm: string;
  pattern: RegExp;
  targetTerms: string[];
}

/** Characters a regular expression reads as syntax, escaped to match themselves. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/gu, "\\$&");
}

/** A source term as a whole-word, case-insensitive, Unicode-aware pattern; its words may be split by any white space. */
function termPattern(sourceTerm: string): RegExp {
  const words = sourceTerm.normalize("NFC").trim().split(/\s+/u).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])${words.join("\\s+")}(?![\\p{L}\\p{M}\\p{N}_])`, "iu");
}

/** The glossary's terms grouped by source term (compared as `comparable`), terms with an empty side left out. */
function termEntries(glossary: readonly GlossaryTerm[]): TermEntry[] {
  const entries = new Map<string, TermEntry>();
  for (const { sourceTerm, targetTerm } of glossary) {
    const key = comparable(sourceTerm);
    if (key === "" || comparable(targetTerm) === "") continue;
    const entry = entries.get(key) ?? {
      sourceTerm: sourceTerm.trim(),
      pattern: termPattern(sourceTerm),
      targetTerms: [],
    };
    if (!entry.targetTerms.some((term) => comparable(term) === comparable(targetTerm))) {
      entry.targetTerms.push(targetTerm.trim());
    }
    entries.set(key, entry);
  }
  return [...entries.values()];
}

/**
 * The glossary check for one glossary (decision 035): takes the language pair's terms, returns a
 * function of a segment's source and translation that returns one message per term the translation
 * misses, e.g. 'Glossary: "picture" should be translated as "picha".' (none: an empty list). The
 * terms' patterns are built once, for every segment of a check run.
 */
export function glossaryCheck(glossary: readonly GlossaryTerm[]): (source: string, target: string) => string[] {
  const entries = termEntries(glossary);
  return (source, target) => {
    const normalSource = source.normalize("NFC");
    const normalTarget = comparable(target);
    return entries
      .filter(({ pattern, targetTerms }) => {
        return pattern.test(normalSource) && !targetTerms.some((term) => normalTarget.includes(comparable(term)));
      })
      .map(
        ({ sourceTerm, targetTerms }) =>
          `Glossary: ${quoted(sourceTerm)} should be translated as ${targetTerms.map(quoted).join(" or ")}.`,
      );
  };
}

/** A glossary term found in a source: where (UTF-16 offsets of the NFC text) and its translations. */
export interface GlossaryMatch {
  start: number;
  end: number;
  sourceTerm: string;
  targetTerms: string[];
}

/**
 * Decision 035: the glossary's terms found in `source` (whole words, any case, as the glossary
 * check finds them), in text order, overlapping finds dropped (the earlier, then the longer, kept).
 * The segment grid marks them and inserts their translation. Offsets are those of
 * `source.normalize("NFC")`, which is `source` itself for text typed or stored by Tafsiri.
 */
export function findGlossaryTerms(source: string, glossary: readonly GlossaryTerm[]): GlossaryMatch[] {
  const text = source.normalize("NFC");
  const found: GlossaryMatch[] = [];
  for (const { sourceTerm, pattern, targetTerms } of termEntries(glossary)) {
    const all = new RegExp(pattern.source, "giu");
    for (const match of text.matchAll(all)) {
      found.push({ start: match.index, end: match.index + match[0].length, sourceTerm, targetTerms });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: GlossaryMatch[] = [];
  for (const m of found) if (kept.length === 0 || m.start >= kept[kept.length - 1]!.end) kept.push(m);
  return kept;
}
