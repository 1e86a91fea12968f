import { stringify } from "csv-stringify/sync";
import { CsvSyntaxError, readCsvRecords, type GlossaryTerm } from "@tafsiri/domain";
import { FormatError, MAX_GLOSSARY_TERMS, refuseOversizedInput } from "./format-error";

/**
 * A glossary as CSV or tab-separated text (decision 035). Tafsiri writes RFC 4180 CSV with the
 * header `source,target,note`; it reads that (columns in any order) and OmegaT's glossary files:
 * tab-separated, no header, `source TAB target TAB comment`, lines starting with `#` ignored.
 */

/** One row of a glossary file: the line it starts on (the first line is 1) and its cells. */
interface Row {
  line: number;
  cells: string[];
}

/** Where the columns are. */
interface Columns {
  source: number;
  target: number;
  note: number | undefined;
}

/** Header names, lower-case with spaces, `_` and `-` taken out (so `Source term`, `source_term` and `sourceTerm` match). */
const HEADER_NAMES = {
  source: ["source", "sourceterm"],
  target: ["target", "targetterm"],
  note: ["note", "notes", "comment", "comments", "translatorcomments"],
};

/** OmegaT's column order, for a tab-separated file without header. */
const OMEGAT_COLUMNS: Columns = { source: 0, target: 1, note: 2 };

/** The columns a header row names; undefined when it does not name both a source and a target column. */
function headerColumns(cells: string[]): Columns | undefined {
  const names = cells.map((cell) =>
    cell
      .trim()
      .toLowerCase()
      .replace(/[\s_-]/g, ""),
  );
  const find = (aliases: string[]) => {
    const index = names.findIndex((name) => aliases.includes(name));
    return index === -1 ? undefined : index;
  };
  const source = find(HEADER_NAMES.source);
  const target = find(HEADER_NAMES.target);
  if (source === undefined || target === undefined) return undefined;
  return { source, target, note: find(HEADER_NAMES.note) };
}

/**
 * A CSV glossary with the header `source,target,note` (decision 035; RFC 4180 by csv-stringify,
 * CRLF line ends, fields quoted when they hold a comma, quote or line break; no BOM). Takes the
 * terms; throws nothing.
 */
export function writeGlossaryCsv(terms: readonly GlossaryTerm[]): string {
  const rows = terms.map((term) => [term.sourceTerm, term.targetTerm, term.note]);
  return stringify([["source", "target", "note"], ...rows], { record_delimiter: "\r\n" });
}

/** Whether every cell of a row is blank (a blank line, or `,,` as spreadsheets write empty rows). */
function isBlank(row: Row): boolean {
  return row.cells.every((cell) => cell.trim() === "");
}

/** The rows of a tab-separated text: split on tabs, no quoting (as OmegaT reads it); `#` lines left out. */
function tabSeparatedRows(text: string): Row[] {
  return text
    .split(/\r\n|\n|\r/)
    .map((content, index) => ({ line: index + 1, cells: content.split("\t") }))
    .filter(({ cells }) => !cells[0]!.startsWith("#"));
}

/** The rows of a CSV text (csv-parse through readCsvRecords); a syntax fault becomes a FormatError with its line. */
function commaSeparatedRows(text: string): Row[] {
  try {
    return readCsvRecords(text).map(({ line, fields }) => ({ line, cells: fields }));
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new FormatError(`Line ${error.line}: ${error.message}`);
    throw error;
  }
}

/** The term of one row, trimmed; throws FormatError naming the line when the source or target is empty. */
function termOf(row: Row, columns: Columns): GlossaryTerm {
  const cell = (index: number | undefined) => (index === undefined ? "" : (row.cells[index] ?? "").trim());
  const sourceTerm = cell(columns.source);
  const targetTerm = cell(columns.target);
  if (sourceTerm === "") throw new FormatError(`Line ${row.line}: the source term is empty.`);
  if (targetTerm === "") throw new FormatError(`Line ${row.line}: the target term is empty.`);
  return { sourceTerm, targetTerm, note: cell(columns.note) };
}

/**
 * The terms of a glossary file (decision 035). Takes the file as a string: CSV whose first row
 * is a header naming the columns `source` and `target` and optionally `note` (any order, any
 * case; also `source_term`, `target_term`, `comment`; other columns ignored), or tab-separated
 * text as OmegaT writes it (`source TAB target TAB comment`, no header, `#` lines ignored; a
 * header row is taken when it names the columns). Returns the terms, trimmed, '' for a missing
 * note, blank rows skipped, exact duplicate rows dropped, in file order. Throws FormatError for input over 20 MB, a
 * CSV without that header, a quote left open, a row with an empty source or target term
 * ('Line 4: the source term is empty.'), or more than 10,000 terms.
 */
export function readGlossaryCsv(text: string): GlossaryTerm[] {
  refuseOversizedInput(text);
  const content = text.replace(/^\uFEFF/, "");
  const firstLine = content.split(/\r\n|\n|\r/).find((line) => line.trim() !== "" && !line.startsWith("#"));
  if (firstLine === undefined) return [];
  const tabSeparated = firstLine.includes("\t");
  const rows = (tabSeparated ? tabSeparatedRows(content) : commaSeparatedRows(content)).filter((row) => !isBlank(row));
  const header = rows[0] === undefined ? undefined : headerColumns(rows[0].cells);
  if (header === undefined && !tabSeparated) {
    throw new FormatError(
      `Line ${rows[0]?.line ?? 1}: the first row must be the header source,target,note ` +
        "(only a tab-separated file, as OmegaT writes, may go without one).",
    );
  }
  const terms = new Map<string, GlossaryTerm>();
  for (const row of header === undefined ? rows : rows.slice(1)) {
    const term = termOf(row, header ?? OMEGAT_COLUMNS);
    terms.set(JSON.stringify([term.sourceTerm, term.targetTerm, term.note]), term);
    if (terms.size > MAX_GLOSSARY_TERMS) {
      throw new FormatError("This glossary has more than 10,000 terms: split it into files of at most 10,000.");
    }
  }
  return [...terms.values()];
}
