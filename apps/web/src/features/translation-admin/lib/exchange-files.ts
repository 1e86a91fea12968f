import { downloadBlob } from "#web/lib/csv";
import type { ExportedFile } from "./translation-types";

/**
 * The exchange files of Management → Translation (decision 035): glossaries (CSV, OmegaT's
 * tab-separated text, TBX) and translation memories (TMX) are read in the browser as text and
 * sent as `content`; what the server writes is offered as a download as it came.
 */

/** What the glossary file input accepts. */
export const GLOSSARY_FILE_TYPES = ".csv,.tsv,.txt,.tbx,text/csv,text/tab-separated-values,text/plain";
/** What the translation memory file input accepts. */
export const MEMORY_FILE_TYPES = ".tmx";

/** The text of a chosen file (UTF-8), without a byte-order mark. */
export async function fileText(file: File): Promise<string> {
  return (await file.text()).replace(/^\uFEFF/, "");
}

/** Offers a file the server wrote as a download named `fileName`, its content unchanged. */
export function downloadExportedFile(file: ExportedFile): void {
  downloadBlob(file.fileName, new Blob([file.content], { type: `${file.contentType};charset=utf-8` }));
}
