import { memo, type FormEvent } from "react";
import type { GlossaryMatch } from "@tafsiri/domain";

/** Stops every change to the read-only source: typing, pasting, dropping, cutting. */
const refuse = (event: FormEvent) => event.preventDefault();

/**
 * Decision 035: a segment's source as read, its glossary terms marked (underlined, the translation
 * in their title; the active row's assistant lists them in words). It takes a caret (a read-only text box), so Alt+X can split
 * the source where the caret is; it cannot be changed. `data-field="source"` tells the grid.
 */
export const SegmentSource = memo(function SegmentSource({
  text,
  terms,
  label,
}: {
  text: string;
  terms: readonly GlossaryMatch[];
  label: string;
}) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const term of terms) {
    if (term.start > at) parts.push(text.slice(at, term.start));
    const translation = term.targetTerms.join(" / ");
    parts.push(
      <mark
        key={term.start}
        className="glossary-term"
        title={`Glossary: ${translation}`}
        data-translation={translation}
      >
        {text.slice(term.start, term.end)}
      </mark>,
    );
    at = term.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return (
    <div
      className="segment-source"
      role="textbox"
      aria-readonly="true"
      aria-multiline="true"
      aria-label={label}
      contentEditable
      suppressContentEditableWarning
      spellCheck={false}
      data-field="source"
      onBeforeInput={refuse}
      onPaste={refuse}
      onDrop={refuse}
      onCut={refuse}
      onKeyDown={(event) => {
        // Enter, Backspace and Delete would change the text in some browsers before beforeinput.
        if (["Enter", "Backspace", "Delete"].includes(event.key) && !event.altKey && !event.ctrlKey)
          event.preventDefault();
      }}
    >
      {parts.length > 0 ? parts : <span className="muted">(no source)</span>}
    </div>
  );
});

/** The caret's offset in a source element's text, or null when the selection is elsewhere. */
export function caretOffsetIn(element: HTMLElement): number | null {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (!element.contains(range.startContainer)) return null;
  const before = document.createRange();
  before.selectNodeContents(element);
  before.setEnd(range.startContainer, range.startOffset);
  return before.toString().length;
}
