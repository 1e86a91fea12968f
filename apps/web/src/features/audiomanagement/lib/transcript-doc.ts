import type { JSONContent } from "@tiptap/react";

/** Editor separator between paragraphs when reading the transcript back as plain text. */
export const BLOCK_SEPARATOR = "\n";

/**
 * A plain-text transcript as an editor document: one paragraph per line (ARCHITECTURE:
 * transcripts are plain text; the editor edits paragraphs).
 */
export function transcriptToDoc(text: string): JSONContent {
  return {
    type: "doc",
    content: text
      .split(/\r?\n/)
      .map((line) => (line ? { type: "paragraph", content: [{ type: "text", text: line }] } : { type: "paragraph" })),
  };
}
