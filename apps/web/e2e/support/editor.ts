import type { Page } from "playwright-core";

/** What the page's tiptap editor element carries (tiptap sets `editor` on ProseMirror's element). */
interface EditorElement extends Element {
  editor?: {
    view: {
      state: { selection: { head: number } };
      posAtDOM(node: Node, offset: number): number;
    };
  };
}

/**
 * Waits until the editor holding the caret has read where the caret now is. A key that moves
 * the caret (Control+Home, Control+End) moves the browser's selection at once; ProseMirror reads
 * it on 'selectionchange', a task later, as it does between a person's key presses. Read from
 * the editor itself: its selection's head is the position of the browser's caret.
 */
export async function caretRead(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const selection = document.getSelection();
    const caret = selection?.focusNode;
    if (!selection || !caret) return false;
    const element = (caret instanceof Element ? caret : caret.parentElement)?.closest(".ProseMirror");
    const view = (element as EditorElement | null | undefined)?.editor?.view;
    return view !== undefined && view.posAtDOM(caret, selection.focusOffset) === view.state.selection.head;
  });
}
