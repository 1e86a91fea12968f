// CSV for the downloads of the Dashboard's report and the Logs page: RFC 4180 quoting, formula
// cells neutralised, offered as a UTF-8 file.

/** A cell starting with one of these is read as a formula by spreadsheets (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; text that looks like a formula is prefixed with '. */
function field(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of fields → CSV text, CRLF line ends, with a final line end. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}

/** Offers `text` as a download named `filename` (a Blob link clicked once), with a BOM so spreadsheets read it as UTF-8. */
export function downloadCsv(filename: string, text: string): void {
  downloadBlob(filename, new Blob(["\uFEFF", text], { type: "text/csv;charset=utf-8" }));
}

/** Offers `blob` as a download named `filename` (a link to it clicked once). */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
