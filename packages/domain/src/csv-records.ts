// csv-parse's browser build (a bundle with its own Buffer) runs in the browser and in Node alike.
import { CsvError, parse } from "csv-parse/browser/esm/sync";

/** One record of a CSV file: the line it starts on (the first line is 1) and its fields. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** A CSV text that cannot be read: `line` is where the record in trouble starts or breaks. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The records of a CSV text (RFC 4180, read by csv-parse: comma-separated, fields optionally in
 * double quotes with `""` for a quote, quoted fields may hold commas and line breaks; CRLF or LF; a
 * BOM skipped; blank lines left out; rows of any length). Used by the participants import and a
 * zip's participants.csv (decision 024). Throws CsvSyntaxError with the line for a quote that never
 * closes or text after a closing quote.
 */
export function readCsvRecords(text: string): CsvRecord[] {
  try {
    const rows = parse(text, {
      bom: true,
      info: true,
      raw: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number }; raw: string }>;
    return rows
      .filter(({ record }) => !(record.length === 1 && record[0]?.trim() === ""))
      .map(({ record, info, raw }) => {
        // info.lines is the line the record ends on; its raw text says how many breaks it spans.
        const breaks = (raw.replace(/\r?\n$/, "").match(/\r?\n/g) ?? []).length;
        return { line: info.lines - breaks, fields: record };
      });
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines ?? 1;
      const message =
        error.code === "CSV_QUOTE_NOT_CLOSED"
          ? "A quoted field is not closed."
          : error.code === "CSV_INVALID_CLOSING_QUOTE" || error.code === "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE"
            ? "A quoted field must be followed by a comma or the end of the line."
            : "This line cannot be read as CSV.";
      throw new CsvSyntaxError(line, message);
    }
    throw error;
  }
}
