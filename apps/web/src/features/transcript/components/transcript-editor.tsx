import { useImperativeHandle, type Ref } from "react";
import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import Placeholder from "@tiptap/extension-placeholder";
import { Fragment, Slice } from "@tiptap/pm/model";
import { toast } from "sonner";
import { useWindowHeight } from "#web/features/transcript/hooks/use-window-height";
import { docToTranscript, transcriptToDoc } from "#web/features/transcript/lib/transcript-doc";
import {
  applySegmentStarts,
  SpeakerParagraph,
  type SpeakerParagraphOptions,
} from "#web/features/transcript/lib/speaker-paragraph";
import "./transcript-speakers.css";

/** SPEC §9: the editor is 1.2 times the window height, updated on resize. */
const HEIGHT_FACTOR = 1.2;
const ALLOWED_LINK = /^(https?:|mailto:|tel:)/i;

/** The original audio as the editor uses it (decision 024): its position, and playing from a time. */
export type TranscriptPlayer = Pick<SpeakerParagraphOptions, "positionMs" | "playFrom">;

/** What the transcript panel may ask of the editor. */
export interface TranscriptEditorHandle {
  /** Gives the paragraphs the starts of suggested segments (ms, in order); one undo step. */
  applySegmentStarts(startsMs: readonly number[]): void;
  /** Puts the focus in the text (where the cursor was). */
  focus(): void;
}

/**
 * The rich-text transcript editor (TipTap 3, SPEC §2.12): starts with `initialText` (one paragraph
 * per line) and reports the text after every change, paragraphs joined with '\n'. Decision 024:
 * each paragraph carries its speaker (PAR/INV) and start time, read from and written to the line
 * prefixes (`[1:02.345] *INV: `), shown in a gutter and set with TRANSCRIPT_SHORTCUTS; `player` is
 * the original audio they are taken from and played in. Text pasted or copied as plain text keeps
 * the prefixes. `onChange` and `player` must be stable (e.g. a state setter, a memoised object).
 */
export function TranscriptEditor({
  initialText,
  onChange,
  player,
  ref,
}: {
  initialText: string;
  onChange: (text: string) => void;
  player: TranscriptPlayer;
  ref?: Ref<TranscriptEditorHandle>;
}) {
  const height = useWindowHeight();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        // SPEC §9: undo history merges changes within 1000 ms, up to 100 steps; links http, https, mailto, tel.
        undoRedo: { depth: 100, newGroupDelay: 1000 },
        link: { openOnClick: false, isAllowedUri: (url) => ALLOWED_LINK.test(url) },
        trailingNode: false,
        paragraph: false,
      }),
      SpeakerParagraph.configure({
        positionMs: player.positionMs,
        playFrom: player.playFrom,
        notify: (message) => toast.info(message),
      }),
      Placeholder.configure({ placeholder: "Write the translated transcript here..." }),
    ],
    content: transcriptToDoc(initialText),
    autofocus: "end",
    editorProps: {
      attributes: {
        class: "transcript-editor-content",
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": "Translated transcript editor",
      },
      // Plain text in and out is the stored form: prefixes become (and come from) the attributes.
      clipboardTextParser: (text, _context, _plain, view) => {
        const paragraphs = transcriptToDoc(text).content ?? [];
        const nodes = paragraphs.map((json) => view.state.schema.nodeFromJSON(json));
        return new Slice(Fragment.from(nodes), 1, 1);
      },
      // A part of one paragraph is copied as its text; whole lines with their prefixes.
      clipboardTextSerializer: (slice, view) =>
        slice.content.childCount > 1
          ? docToTranscript(view.state.schema.topNodeType.create(null, slice.content))
          : slice.content.textBetween(0, slice.content.size, "\n"),
    },
    onUpdate: ({ editor: current }) => onChange(docToTranscript(current.state.doc)),
  });

  useImperativeHandle(
    ref,
    () => ({
      applySegmentStarts: (starts) => applySegmentStarts(editor, starts),
      focus: () => editor.commands.focus(),
    }),
    [editor],
  );

  return (
    <div
      className="transcript-editor"
      style={{ minHeight: Math.round(height * HEIGHT_FACTOR) }}
      data-testid="transcript-editor"
    >
      <EditorContent editor={editor} />
    </div>
  );
}
