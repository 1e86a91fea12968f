import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import Placeholder from "@tiptap/extension-placeholder";
import { useWindowHeight } from "../hooks/use-window-height";
import { BLOCK_SEPARATOR, transcriptToDoc } from "../lib/transcript-doc";

/** SPEC §9: the editor is 1.2 times the window height, updated on resize. */
const HEIGHT_FACTOR = 1.2;
const ALLOWED_LINK = /^(https?:|mailto:|tel:)/i;

/**
 * The rich-text transcript editor (TipTap 3, SPEC §2.12): starts with `initialText` (one paragraph
 * per line) and reports the text after every change, paragraphs joined with '\n'.
 * `onChange` must be stable (e.g. a state setter).
 */
export function TranscriptEditor({ initialText, onChange }: { initialText: string; onChange: (text: string) => void }) {
  const height = useWindowHeight();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        // SPEC §9: undo history merges changes within 1000 ms, up to 100 steps; links http, https, mailto, tel.
        undoRedo: { depth: 100, newGroupDelay: 1000 },
        link: { openOnClick: false, isAllowedUri: (url) => ALLOWED_LINK.test(url) },
        trailingNode: false,
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
    },
    onUpdate: ({ editor: current }) => onChange(current.getText({ blockSeparator: BLOCK_SEPARATOR })),
  });

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
