import type { LanguagePair } from "@tafsiri/domain";
import { FormatError, childElements, escapeXml, parseXml, textOf, type XmlElement } from "./format-error";

/**
 * Translation memory as TMX 1.4b (decision 035; LISA/GALA,
 * https://transtandards.sourceforge.net/TMX-14b-specification.html): what Tafsiri writes is read
 * back unchanged, and TMX from other tools (OmegaT, Weblate, memoQ, Trados) is read for the
 * units of one language pair.
 */

/** One translation unit: a source text and its translation, with optional provenance. */
export interface MemoryUnit {
  source: string;
  target: string;
  sourceLanguage: string;
  targetLanguage: string;
  /** optional provenance */
  id?: string;
  createdAt?: Date;
  creator?: string;
  note?: string;
  props?: Record<string, string>;
}

/**
 * ISO 639-1 codes to the ISO 639-3 codes Tafsiri uses, for the languages our projects meet
 * (Acholi, Luo, Runyankole and Ateso have no two-letter code and map to themselves), and the
 * ISO 639-2/B codes some tools write (`fre`, `ger`, `chi`, `dut`).
 */
const THREE_LETTER_CODES: Record<string, string> = {
  en: "eng",
  sw: "swa",
  fr: "fra",
  de: "deu",
  es: "spa",
  pt: "por",
  ar: "ara",
  lg: "lug",
  rw: "kin",
  am: "amh",
  so: "som",
  zh: "zho",
  hi: "hin",
  yo: "yor",
  ha: "hau",
  ig: "ibo",
  zu: "zul",
  xh: "xho",
  nl: "nld",
  it: "ita",
  ru: "rus",
  ja: "jpn",
  ko: "kor",
  tr: "tur",
  pl: "pol",
  ach: "ach",
  luo: "luo",
  nyn: "nyn",
  teo: "teo",
  fre: "fra",
  ger: "deu",
  chi: "zho",
  dut: "nld",
};

/** The language of a tag: its primary subtag, lower-case, as an ISO 639-3 code where we know one. */
function languageOf(tag: string): string {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return THREE_LETTER_CODES[primary] ?? primary;
}

/**
 * Whether two language tags name the same language (decision 035), loosely: case-insensitive,
 * region and script subtags ignored (`en-GB` ≈ `en`, `zh-Hans` ≈ `zho`), ISO 639-1 ≈ 639-3 for
 * common languages (`sw` ≈ `swa`). Takes two tags; returns false when either is empty; throws
 * nothing.
 */
export function sameLanguage(a: string, b: string): boolean {
  const language = languageOf(a);
  return language !== "" && language === languageOf(b);
}

/** A date as TMX writes it (`YYYYMMDDThhmmssZ`, UTC, whole seconds). */
function tmxDate(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

/** A TMX date (`YYYYMMDDThhmmssZ`); undefined when it is missing or in another form. */
function dateOfTmx(value: string | undefined): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value?.trim() ?? "");
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A `<tuv>` with its language and text, as written (the text is not trimmed). */
function tuvXml(language: string, text: string): string {
  return `      <tuv xml:lang="${escapeXml(language, true)}">\n        <seg>${escapeXml(text)}</seg>\n      </tuv>\n`;
}

/** One `<tu>`: tuid and creation attributes when known, props as `x-<key>`, the note, then both tuvs. */
function tuXml(unit: MemoryUnit, pair: LanguagePair): string {
  const attributes = [
    unit.id !== undefined ? ` tuid="${escapeXml(unit.id, true)}"` : "",
    unit.createdAt !== undefined && !Number.isNaN(unit.createdAt.getTime())
      ? ` creationdate="${tmxDate(unit.createdAt)}"`
      : "",
    unit.creator !== undefined ? ` creationid="${escapeXml(unit.creator, true)}"` : "",
  ].join("");
  const props = Object.entries(unit.props ?? {})
    .map(([key, value]) => `      <prop type="x-${escapeXml(key, true)}">${escapeXml(value)}</prop>\n`)
    .join("");
  const note = unit.note !== undefined && unit.note !== "" ? `      <note>${escapeXml(unit.note)}</note>\n` : "";
  return (
    `    <tu${attributes}>\n${props}${note}` +
    tuvXml(pair.source, unit.source) +
    tuvXml(pair.target, unit.target) +
    "    </tu>\n"
  );
}

/**
 * A TMX 1.4b file of translation units (decision 035). Takes the units, the language pair (its
 * ISO 639-3 codes become `srclang` and the tuvs' `xml:lang`, as is) and the tool that writes
 * (`creationtool`/`creationtoolversion`; Tafsiri 1.0 by default). Each unit is a `<tu>` with
 * `tuid` (its id, when it has one), `creationdate` (`YYYYMMDDThhmmssZ`, whole seconds),
 * `creationid`, a `<prop type="x-<key>">` per prop, a `<note>`, then a `<tuv><seg>` per language.
 * Throws FormatError for a unit whose languages are not the pair's.
 */
export function writeTmx(
  units: readonly MemoryUnit[],
  pair: LanguagePair,
  tool: { name: string; version: string } = { name: "Tafsiri", version: "1.0" },
): string {
  const body = units
    .map((unit, index) => {
      if (!sameLanguage(unit.sourceLanguage, pair.source) || !sameLanguage(unit.targetLanguage, pair.target)) {
        throw new FormatError(
          `Unit ${index + 1}: it is ${unit.sourceLanguage} to ${unit.targetLanguage}, not ${pair.source} to ${pair.target}.`,
        );
      }
      return tuXml(unit, pair);
    })
    .join("");
  const header =
    `  <header creationtool="${escapeXml(tool.name, true)}" creationtoolversion="${escapeXml(tool.version, true)}"` +
    ` segtype="sentence" o-tmf="Tafsiri" adminlang="en" srclang="${escapeXml(pair.source, true)}"` +
    ` datatype="plaintext"/>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n${header}  <body>\n${body}  </body>\n</tmx>\n`;
}

/**
 * Inline elements whose content is the original document's formatting code, not text
 * (TMX 1.4b §3.7): left out of a segment's text. `<hi>` (highlighted text) keeps its text.
 */
const NATIVE_CODE_ELEMENTS: ReadonlySet<string> = new Set(["bpt", "ept", "ph", "it", "ut"]);

/** The first `<tuv>` of a language (its `xml:lang`, or `lang` as TMX 1.1 wrote it). */
function tuvOf(tu: XmlElement, language: string): XmlElement | undefined {
  return childElements(tu, "tuv").find((tuv) => sameLanguage(tuv.attributes.lang ?? "", language));
}

/** The text of a tuv's `<seg>`, inline codes left out; undefined when it has no seg. */
function segTextOf(tuv: XmlElement | undefined): string | undefined {
  const seg = tuv === undefined ? undefined : childElements(tuv, "seg")[0];
  return seg === undefined ? undefined : textOf(seg, NATIVE_CODE_ELEMENTS);
}

/** A tu's props by type, `x-` taken off (a later prop of the same type wins); undefined when none. */
function propsOf(tu: XmlElement): Record<string, string> | undefined {
  const props: Record<string, string> = {};
  for (const prop of childElements(tu, "prop")) {
    const type = prop.attributes.type;
    if (type === undefined || type === "") continue;
    props[type.startsWith("x-") ? type.slice(2) : type] = textOf(prop);
  }
  return Object.keys(props).length > 0 ? props : undefined;
}

/** The unit of one `<tu>` for the pair; undefined when either language or text is missing. */
function unitOf(tu: XmlElement, pair: LanguagePair): MemoryUnit | undefined {
  const sourceTuv = tuvOf(tu, pair.source);
  const targetTuv = tuvOf(tu, pair.target);
  const source = segTextOf(sourceTuv);
  const target = segTextOf(targetTuv);
  if (source === undefined || target === undefined || source.trim() === "" || target.trim() === "") return undefined;
  const unit: MemoryUnit = { source, target, sourceLanguage: pair.source, targetLanguage: pair.target };
  const id = tu.attributes.tuid;
  if (id !== undefined && id !== "") unit.id = id;
  // OmegaT writes who and when on the target tuv rather than on the tu.
  const createdAt = dateOfTmx(tu.attributes.creationdate ?? targetTuv?.attributes.creationdate);
  if (createdAt !== undefined) unit.createdAt = createdAt;
  const creator = tu.attributes.creationid ?? targetTuv?.attributes.creationid;
  if (creator !== undefined && creator !== "") unit.creator = creator;
  const notes = childElements(tu, "note").map((note) => textOf(note));
  if (notes.length > 0) unit.note = notes.join("\n");
  const props = propsOf(tu);
  if (props !== undefined) unit.props = props;
  return unit;
}

/**
 * The translation units of a TMX file (any 1.x version) for one language pair (decision 035).
 * Takes the file as a string and the pair; a `<tu>` counts when it has a `<tuv>` of each of the
 * pair's languages (compared by sameLanguage, in either direction) with non-blank text; others
 * are skipped. Returns the units with the pair's codes; segment text keeps its whitespace, with
 * inline codes (`<bpt>`, `<ept>`, `<ph>`, `<it>`, `<ut>`) left out and `<hi>` reduced to its
 * text; provenance from `tuid`, `creationdate`, `creationid` (of the tu, else of the target
 * tuv), the tu's `<note>`s (joined by line breaks) and `<prop>`s (type without `x-`). Throws
 * FormatError for input over 20 MB, a DOCTYPE, XML that is not well-formed, no `<tmx>` root or
 * no `<body>`.
 */
export function readTmx(xml: string, pair: LanguagePair): MemoryUnit[] {
  const root = parseXml(xml);
  if (root.name !== "tmx") throw new FormatError("This is not a TMX file: no <tmx> element.");
  const body = childElements(root, "body")[0];
  if (body === undefined) throw new FormatError("This TMX file has no <body> element.");
  return childElements(body, "tu")
    .map((tu) => unitOf(tu, pair))
    .filter((unit): unit is MemoryUnit => unit !== undefined);
}
