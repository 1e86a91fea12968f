import type { GlossaryTerm, LanguagePair } from "@tafsiri/domain";
import {
  FormatError,
  MAX_GLOSSARY_TERMS,
  childElements,
  escapeXml,
  parseXml,
  textOf,
  type XmlElement,
} from "./format-error";
import { sameLanguage } from "./tmx";

/**
 * A glossary as TBX (decision 035): Tafsiri writes TBX-Basic v3 (ISO 30042:2019) and reads both
 * v3 (`conceptEntry/langSec/termSec/term`) and v2, TBX-Basic 2008 (`martif` with
 * `termEntry/langSet/tig|ntig/term`, as OmegaT reads and memoQ and Weblate write).
 *
 * A term's note is written as a `<note>` of its concept entry: our notes are free text for
 * translators, which TBX-Basic's `note` is for, while `<descrip type="definition">` is meant to
 * define the concept. Reading takes both, and `descrip` of any type.
 */

/** One `<conceptEntry>`: its note, then a langSec per language with the one term. */
function conceptEntryXml(term: GlossaryTerm, index: number, pair: LanguagePair): string {
  const note = term.note !== "" ? `        <note>${escapeXml(term.note)}</note>\n` : "";
  const langSec = (language: string, text: string) =>
    `        <langSec xml:lang="${escapeXml(language, true)}">\n` +
    `          <termSec>\n            <term>${escapeXml(text)}</term>\n          </termSec>\n` +
    "        </langSec>\n";
  return (
    `      <conceptEntry id="c${index + 1}">\n${note}` +
    langSec(pair.source, term.sourceTerm) +
    langSec(pair.target, term.targetTerm) +
    "      </conceptEntry>\n"
  );
}

/**
 * A TBX-Basic v3 file of glossary terms (decision 035): `<tbx type="TBX-Basic" style="dca"
 * xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">`, a `<tbxHeader>` naming the pair, then a
 * `<conceptEntry id="c1">` per term with its note as `<note>` (left out when empty) and a
 * `<langSec xml:lang>` per language (the pair's ISO 639-3 codes, as is) holding
 * `<termSec><term>`. Takes the terms and their pair; throws nothing.
 */
export function writeTbx(terms: readonly GlossaryTerm[], pair: LanguagePair): string {
  const description = escapeXml(`Glossary ${pair.source} to ${pair.target}, written by Tafsiri.`);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">\n' +
    "  <tbxHeader>\n    <fileDesc>\n" +
    `      <sourceDesc>\n        <p>${description}</p>\n      </sourceDesc>\n` +
    "    </fileDesc>\n  </tbxHeader>\n" +
    "  <text>\n    <body>\n" +
    terms.map((term, index) => conceptEntryXml(term, index, pair)).join("") +
    "    </body>\n  </text>\n</tbx>\n"
  );
}

/** The language sections of an entry: v3 `langSec`, v2 `langSet`. */
const LANGUAGE_SECTIONS = ["langSec", "langSet"];

/** The first non-blank term of a language section: `termSec/term` (v3), `tig/term` or `ntig/termGrp/term` (v2). */
function firstTermOf(section: XmlElement): string | undefined {
  const holders = [
    ...childElements(section, "termSec", "tig"),
    ...childElements(section, "ntig").flatMap((ntig) => childElements(ntig, "termGrp")),
    section,
  ];
  for (const holder of holders) {
    for (const term of childElements(holder, "term")) {
      const text = textOf(term).trim();
      if (text !== "") return text;
    }
  }
  return undefined;
}

/** The texts of `note` and `descrip` elements at or under `element`, in document order. */
function notesUnder(element: XmlElement): string[] {
  if (element.name === "note" || element.name === "descrip") return [textOf(element).trim()];
  return element.children.flatMap((child) => (typeof child === "string" ? [] : notesUnder(child)));
}

/**
 * An entry's note: the notes and descrips of the entry itself and of its source and target
 * language sections (not those of other languages), distinct, joined by line breaks.
 */
function noteOf(entry: XmlElement, sections: XmlElement[]): string {
  const notes = entry.children.flatMap((child) => {
    if (typeof child === "string") return [];
    if (LANGUAGE_SECTIONS.includes(child.name) && !sections.includes(child)) return [];
    return notesUnder(child);
  });
  return [...new Set(notes.filter((note) => note !== ""))].join("\n");
}

/** The first language section of an entry in a language. */
function sectionOf(entry: XmlElement, language: string): XmlElement | undefined {
  return childElements(entry, ...LANGUAGE_SECTIONS).find((section) =>
    sameLanguage(section.attributes.lang ?? "", language),
  );
}

/** The term of one entry for the pair; undefined when it lacks either language's term. */
function termOf(entry: XmlElement, pair: LanguagePair): GlossaryTerm | undefined {
  const sourceSection = sectionOf(entry, pair.source);
  const targetSection = sectionOf(entry, pair.target);
  if (sourceSection === undefined || targetSection === undefined) return undefined;
  const sourceTerm = firstTermOf(sourceSection);
  const targetTerm = firstTermOf(targetSection);
  if (sourceTerm === undefined || targetTerm === undefined) return undefined;
  return { sourceTerm, targetTerm, note: noteOf(entry, [sourceSection, targetSection]) };
}

/**
 * The glossary terms of a TBX file for one language pair (decision 035). Takes the file as a
 * string (v3 `<tbx>` or v2 `<martif>`) and the pair; returns one term per entry that has both
 * languages (compared by sameLanguage, in either direction): its first non-blank source term and
 * first non-blank target term, trimmed, with a note from the `note` and `descrip` elements of the
 * entry and of those two language sections ('' when none); entries lacking a language are
 * skipped, exact duplicates dropped. Throws FormatError for input over 20 MB, a DOCTYPE, XML
 * that is not well-formed, no `<tbx>`/`<martif>` root, no `<text><body>`, or more than 10,000
 * terms.
 */
export function readTbx(xml: string, pair: LanguagePair): GlossaryTerm[] {
  const root = parseXml(xml);
  if (root.name !== "tbx" && root.name !== "martif") {
    throw new FormatError("This is not a TBX file: no <tbx> or <martif> element.");
  }
  const text = childElements(root, "text")[0];
  const body = text === undefined ? undefined : childElements(text, "body")[0];
  if (body === undefined) throw new FormatError("This TBX file has no <text><body> element.");
  const terms = new Map<string, GlossaryTerm>();
  for (const entry of childElements(body, "conceptEntry", "termEntry")) {
    const term = termOf(entry, pair);
    if (term === undefined) continue;
    terms.set(JSON.stringify([term.sourceTerm, term.targetTerm, term.note]), term);
    if (terms.size > MAX_GLOSSARY_TERMS) {
      throw new FormatError("This glossary has more than 10,000 terms: split it into files of at most 10,000.");
    }
  }
  return [...terms.values()];
}
