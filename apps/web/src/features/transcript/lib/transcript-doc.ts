import type { JSONContent } from "@tiptap/react";
import type { Node as PMNode } from "@tiptap/pm/model";
import { DEFAULT_SPEAKER, formatTranscript, parseTranscript, type TranscriptLine } from "@tafsiri/domain";

/**
 * A plain-text transcript as an editor document: one paragraph per line (ARCHITECTURE:
 * transcripts are plain text; the editor edits paragraphs), each with its speaker and start time
 * (decision 024: the line prefixes `[1:02.345] *INV: ` of parseTranscript become the paragraph's
 * `speaker` and `startMs` attributes, never text). A transcript without prefixes opens as before.
 */
export function transcriptToDoc(text: string): JSONContent {
  return {
    type: "doc",
    content: parseTranscript(text).map(({ speaker, startMs, text: line }) => ({
      type: "paragraph",
      attrs: { speaker, startMs },
      ...(line ? { content: [{ type: "text", text: line }] } : {}),
    })),
  };
}

/**
 * The editor document's paragraphs as transcript lines, in order: every text block is one line (a
 * paragraph's speaker and start come from its attributes; any other block is the participant's
 * without a time), and a line break inside a block starts another line of the same speaker without
 * a time, as the plain text had it.
 */
function docToLines(doc: PMNode): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  doc.descendants((block) => {
    if (!block.isTextblock) return true;
    const isParagraph = block.type.name === "paragraph";
    const speaker = isParagraph && block.attrs.speaker === "INV" ? "INV" : DEFAULT_SPEAKER;
    const startMs = isParagraph && typeof block.attrs.startMs === "number" ? (block.attrs.startMs as number) : null;
    let line: TranscriptLine = { speaker, startMs, text: "" };
    lines.push(line);
    block.forEach((inline) => {
      if (inline.isText) line.text += inline.text ?? "";
      else if (inline.type.name === "hardBreak") {
        line = { speaker, startMs: null, text: "" };
        lines.push(line);
      }
    });
    return false;
  });
  return lines;
}

/**
 * The editor document as the stored plain-text transcript (formatTranscript of docToLines): a
 * document opened from a transcript and left unchanged gives back the same bytes (line breaks
 * as `\n`).
 */
export function docToTranscript(doc: PMNode): string {
  return formatTranscript(docToLines(doc));
}
