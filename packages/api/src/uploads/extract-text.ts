import { promises as fs } from "node:fs";
import mammoth from "mammoth";
import WordExtractor from "word-extractor";
import type { TranscriptExtension } from "./file-rules";

/** A file whose text cannot be read (corrupt document, binary data in a .txt, ...). */
export class UnreadableTextError extends Error {}

/**
 * Decodes plain text (.txt, .cha): must be valid UTF-8 without NUL bytes; a leading BOM is
 * dropped. Throws UnreadableTextError otherwise.
 */
export function decodePlainText(bytes: Buffer): string {
  if (bytes.includes(0)) throw new UnreadableTextError("The file is not a plain text file.");
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UnreadableTextError("The file is not valid UTF-8 text.");
  }
}

/** Line endings to \n, trailing spaces and runs of blank lines trimmed. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

async function extractPdf(file: string): Promise<string> {
  // Loaded on first use: pdfjs-dist (under pdf-parse) replaces Array.prototype.push for the whole
  // process when imported, which slows every other hot path (the live-event fan-out above all).
  const { PDFParse } = await import("pdf-parse");
  const parser = new PDFParse({ data: new Uint8Array(await fs.readFile(file)) });
  try {
    const result = await parser.getText({ pageJoiner: "" });
    return result.text;
  } finally {
    await parser.destroy();
  }
}

/**
 * The plain text of an initial transcript (SPEC §2.18, ARCHITECTURE "Initial transcripts"):
 * .docx with mammoth, .doc with word-extractor, .pdf with pdf-parse, .txt and .cha as UTF-8.
 * Returns the tidied text (may be empty). Throws UnreadableTextError when the document
 * cannot be read.
 */
export async function extractText(file: string, ext: TranscriptExtension): Promise<string> {
  try {
    switch (ext) {
      case ".txt":
      case ".cha":
        return tidy(decodePlainText(await fs.readFile(file)));
      case ".docx":
        return tidy((await mammoth.extractRawText({ path: file })).value);
      case ".doc":
        return tidy((await new WordExtractor().extract(file)).getBody());
      case ".pdf":
        return tidy(await extractPdf(file));
    }
  } catch (error) {
    if (error instanceof UnreadableTextError) throw error;
    throw new UnreadableTextError("The file could not be read.", { cause: error });
  }
}
