import { XMLParser, XMLValidator } from "fast-xml-parser";

/**
 * What the translation file formats (TMX, TBX, glossary CSV; decision 035) refuse, and the one
 * guarded XML reader the XML formats share: a size cap, no DOCTYPE (so no entity can be declared,
 * let alone expanded), a well-formedness check with the line of the fault, and entity expansion
 * off in the parser (the five predefined entities and character references are decoded here).
 */

/** A file that cannot be read as the format it claims to be; the message names the line or entry. */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FormatError";
  }
}

/** The largest file any of the formats reads: 20 MB of UTF-8. */
const MAX_FORMAT_INPUT_BYTES = 20 * 1024 * 1024;

/** The most terms one glossary file may hold (CSV, TSV or TBX). */
export const MAX_GLOSSARY_TERMS = 10_000;

/**
 * Refuses a text over MAX_FORMAT_INPUT_BYTES (decision 035). Takes the whole file as a string;
 * throws FormatError saying how large it is.
 */
export function refuseOversizedInput(text: string): void {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_FORMAT_INPUT_BYTES) {
    // Rounded up, so a file just over the limit does not read as "20.0 MB".
    const megabytes = (Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1);
    throw new FormatError(`This file is too large: ${megabytes} MB, over the limit of 20 MB.`);
  }
}

/** An element of a parsed XML file: its name without namespace prefix (`xml:lang` is `lang`). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** Child elements and text (entities decoded, CDATA as written), in document order. */
  children: XmlNode[];
}

type XmlNode = XmlElement | string;

/** The five entities XML predefines; no other named entity is expanded. */
const PREDEFINED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the predefined entities and character references; leaves any other `&name;` as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED_ENTITIES[ref] ?? whole;
  });
}

/** Characters XML 1.0 cannot hold, not even as a character reference (most C0 controls, U+FFFE/F, lone surrogates). */
const NOT_XML_CHARACTERS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text escaped for an XML element's content or a double-quoted attribute (decision 035): `&`, `<`,
 * `>`, `"`, `'` as entities; a carriage return as `&#13;` (a parser would turn it into a line
 * feed); in an attribute also line feeds and tabs as references (a parser would turn them into
 * spaces). Characters XML cannot hold are left out. Throws nothing.
 */
export function escapeXml(text: string, inAttribute = false): string {
  const escaped = text
    .replace(NOT_XML_CHARACTERS, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;");
  return inAttribute ? escaped.replace(/\n/g, "&#10;").replace(/\t/g, "&#9;") : escaped;
}

/** fast-xml-parser 5 with entity expansion off, whitespace and strings kept as written. */
const PARSER = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  cdataPropName: "#cdata",
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** A node of fast-xml-parser's ordered output: `{ name: children, ":@": attributes }` or `{ "#text": text }`. */
type OrderedNode = Record<string, unknown>;

/** Our tree of one ordered node; undefined for what is neither an element nor text (a comment). */
function toXmlNode(node: OrderedNode): XmlNode | undefined {
  if (typeof node["#text"] === "string") return decodeEntities(node["#text"]);
  if (Array.isArray(node["#cdata"])) {
    return (node["#cdata"] as OrderedNode[]).map((part) => String(part["#text"] ?? "")).join("");
  }
  const name = Object.keys(node).find((key) => key !== ":@" && !key.startsWith("#") && !key.startsWith("?"));
  if (name === undefined) return undefined;
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries((node[":@"] ?? {}) as Record<string, unknown>)) {
    attributes[key] = decodeEntities(String(value));
  }
  const children = ((node[name] ?? []) as OrderedNode[])
    .map(toXmlNode)
    .filter((child): child is XmlNode => child !== undefined);
  return { name, attributes, children };
}

/**
 * The root element of an XML text, read safely (decision 035). Takes the whole file as a string;
 * throws FormatError when it is empty or over 20 MB, has a DOCTYPE (anywhere, even in a comment
 * or CDATA), or is not well-formed XML (with the line of the fault).
 */
export function parseXml(xml: string): XmlElement {
  refuseOversizedInput(xml);
  const text = xml.replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new FormatError("This file is empty.");
  if (/<!DOCTYPE/i.test(text)) {
    throw new FormatError("This file has a DOCTYPE declaration, which is not accepted: remove the <!DOCTYPE …> part.");
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new FormatError(`This is not well-formed XML: line ${valid.err.line}: ${valid.err.msg}`);
  }
  let nodes: OrderedNode[];
  try {
    nodes = PARSER.parse(text) as OrderedNode[];
  } catch (error) {
    throw new FormatError(`This XML file cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const root = nodes.map(toXmlNode).find((node): node is XmlElement => typeof node === "object");
  if (root === undefined) throw new FormatError("This XML file has no element.");
  return root;
}

/**
 * The child elements of `element` named one of `names` (decision 035), in document order. Takes
 * an element and names without namespace prefix; throws nothing.
 */
export function childElements(element: XmlElement, ...names: string[]): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => typeof child === "object" && names.includes(child.name),
  );
}

/**
 * The text inside an element, its descendants' included (decision 035), leaving out the elements
 * named in `skip` with all they hold. Takes an element and names; returns the text as written
 * (not trimmed); throws nothing.
 */
export function textOf(element: XmlElement, skip: ReadonlySet<string> = new Set()): string {
  return element.children
    .map((child) => (typeof child === "string" ? child : skip.has(child.name) ? "" : textOf(child, skip)))
    .join("");
}
