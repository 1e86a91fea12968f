import { Node, type Editor } from "@tiptap/react";
import type { Node as PMNode } from "@tiptap/pm/model";
import type { EditorState, Transaction } from "@tiptap/pm/state";
import { closeHistory } from "@tiptap/pm/history";
import { DEFAULT_SPEAKER, type Speaker } from "@tafsiri/domain";

/**
 * Decision 024, "Who spoke, when": the transcript editor's paragraph carries its speaker (`PAR`, the
 * participant, by default, or `INV`, the investigator) and its start in the recording (`startMs`,
 * whole milliseconds, or null), as node attributes that transcript-doc.ts reads from and writes to
 * the plain-text line prefixes. A gutter before each paragraph shows them (never part of the
 * text): the speaker as a button that switches it, the start as a button that plays the original
 * audio from there, and a × that clears the start. TRANSCRIPT_SHORTCUTS do the same from the keyboard.
 */

/** What the paragraphs ask of the page's player (the original audio). */
export interface SpeakerParagraphOptions {
  /** The player's position in ms, or null when there is no player to ask (hidden, not loaded). */
  positionMs: () => number | null;
  /** Plays the original audio from `ms`. */
  playFrom: (ms: number) => void;
  /** Tells the user why nothing happened (e.g. no player shown to take a time from). */
  notify: (message: string) => void;
}

/** Speakers by their CHAT code, as the gutter names them. */
export const SPEAKER_NAMES: Record<Speaker, string> = { PAR: "Participant", INV: "Investigator" };

/** Said by Alt+T while there is no player position to mark. */
const NO_PLAYER_POSITION = "Show the original audio to mark where a paragraph starts.";
/** Said by Alt+P on a paragraph without a start. */
const NO_START_TIME = "This paragraph has no start time yet (Alt+T marks it).";

const other = (speaker: Speaker): Speaker => (speaker === "INV" ? "PAR" : "INV");
const speakerOf = (node: PMNode): Speaker => (node.attrs.speaker === "INV" ? "INV" : "PAR");
const startOf = (node: PMNode): number | null =>
  typeof node.attrs.startMs === "number" && Number.isFinite(node.attrs.startMs) ? node.attrs.startMs : null;

/** A time as the gutter shows it: m:ss.t, or h:mm:ss.t from an hour on (tenths cut, not rounded). */
export function shortLineTime(ms: number): string {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const hours = Math.floor(tenths / 36_000);
  const minutes = Math.floor(tenths / 600) % 60;
  const seconds = String(Math.floor(tenths / 10) % 60).padStart(2, "0");
  const rest = `${seconds}.${tenths % 10}`;
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** The paragraphs the selection touches (at least the one with the cursor), with their positions. */
function selectedParagraphs(state: EditorState): { node: PMNode; pos: number }[] {
  const found: { node: PMNode; pos: number }[] = [];
  const { from, to } = state.selection;
  state.doc.nodesBetween(from, to, (node, pos) => {
    if (node.type.name === "paragraph") found.push({ node, pos });
    return !node.isTextblock;
  });
  return found;
}

/** Dispatches `tr` as its own undo step (typing just before does not merge with it). */
function dispatchStep(editor: Editor, tr: Transaction): void {
  editor.view.dispatch(closeHistory(tr));
}

/** Switches the speaker of the paragraph at `pos`. */
function switchSpeakerAt(editor: Editor, pos: number): void {
  const node = editor.state.doc.nodeAt(pos);
  if (!node) return;
  dispatchStep(editor, editor.state.tr.setNodeAttribute(pos, "speaker", other(speakerOf(node))));
}

/** Sets (or with null clears) the start of the paragraph at `pos`. */
function setStartAt(editor: Editor, pos: number, startMs: number | null): void {
  dispatchStep(editor, editor.state.tr.setNodeAttribute(pos, "startMs", startMs));
}

/**
 * Alt+S: the selected paragraphs all take the speaker the first of them does not have (a single
 * paragraph switches between PAR and INV). Answers whether there was a paragraph.
 */
function switchSpeaker(editor: Editor): boolean {
  const paragraphs = selectedParagraphs(editor.state);
  if (paragraphs.length === 0) return false;
  const speaker = other(speakerOf(paragraphs[0]!.node));
  const tr = editor.state.tr;
  for (const { pos } of paragraphs) tr.setNodeAttribute(pos, "speaker", speaker);
  dispatchStep(editor, tr);
  return true;
}

/** The paragraph holding the cursor (the selection's start), or null. */
function cursorParagraph(state: EditorState): { node: PMNode; pos: number } | null {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type.name === "paragraph") return { node, pos: $from.before(depth) };
  }
  return null;
}

/**
 * Decision 024: gives the paragraphs the starts of suggested segments, in order: the n-th paragraph
 * with text gets `startsMs[n]`; starts left over go to new empty PAR paragraphs at the end (a
 * document of one empty paragraph takes the first of them). Other paragraphs keep theirs. One undo
 * step.
 */
export function applySegmentStarts(editor: Editor, startsMs: readonly number[]): void {
  const { state } = editor;
  const paragraphType = state.schema.nodes.paragraph!;
  const tr = state.tr;
  let next = 0;
  state.doc.descendants((node, pos) => {
    if (next >= startsMs.length) return false;
    if (node.type !== paragraphType) return true;
    if (node.textContent.trim() !== "") tr.setNodeAttribute(pos, "startMs", startsMs[next++]);
    return false;
  });
  const only = state.doc.childCount === 1 ? state.doc.firstChild : null;
  if (next < startsMs.length && only?.type === paragraphType && only.content.size === 0) {
    tr.setNodeAttribute(0, "startMs", startsMs[next++]);
  }
  for (; next < startsMs.length; next++) {
    tr.insert(tr.doc.content.size, paragraphType.create({ speaker: DEFAULT_SPEAKER, startMs: startsMs[next] }));
  }
  if (tr.docChanged) dispatchStep(editor, tr);
}

/**
 * A gutter button: out of the Tab order (the editor's keys do the same), focus kept in the editor.
 * Its visible text is drawn from `data-label` (CSS ::before), so the editor's text (innerText, what
 * is copied) is the transcript's alone; its accessible name is its aria-label.
 */
function gutterButton(className: string): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.tabIndex = -1;
  // A click must not move the caret or take the focus from the text.
  button.addEventListener("mousedown", (event) => event.preventDefault());
  return button;
}

/**
 * The transcript's paragraph (it replaces StarterKit's): `<p>` with `data-speaker` and
 * `data-start-ms` in HTML (copy and paste keep them), drawn with its gutter.
 */
export const SpeakerParagraph = Node.create<SpeakerParagraphOptions>({
  name: "paragraph",
  // First among the block nodes, as StarterKit's paragraph: the editor's default block.
  priority: 1000,
  group: "block",
  content: "inline*",

  addOptions() {
    return { positionMs: () => null, playFrom: () => undefined, notify: () => undefined };
  },

  addAttributes() {
    return {
      speaker: {
        default: DEFAULT_SPEAKER,
        parseHTML: (element) => (element.getAttribute("data-speaker") === "INV" ? "INV" : DEFAULT_SPEAKER),
        renderHTML: (attributes) => ({ "data-speaker": attributes.speaker as string }),
      },
      startMs: {
        default: null,
        // Enter starts a new paragraph of the same speaker and without a time.
        keepOnSplit: false,
        parseHTML: (element) => {
          const value = element.getAttribute("data-start-ms");
          return value && /^\d+$/.test(value) ? Number(value) : null;
        },
        renderHTML: (attributes) =>
          attributes.startMs === null ? {} : { "data-start-ms": String(attributes.startMs as number) },
      },
    };
  },

  parseHTML() {
    return [{ tag: "p" }];
  },

  renderHTML({ HTMLAttributes }) {
    return ["p", HTMLAttributes, 0];
  },

  addKeyboardShortcuts() {
    // prosemirror-keymap also matches these by the key's code, so ⌥S on a Mac ('ß') is Alt-s.
    return {
      "Alt-s": ({ editor }) => switchSpeaker(editor),
      "Alt-t": ({ editor }) => {
        const paragraph = cursorParagraph(editor.state);
        if (!paragraph) return false;
        const position = this.options.positionMs();
        if (position === null) this.options.notify(NO_PLAYER_POSITION);
        else setStartAt(editor, paragraph.pos, Math.round(position));
        return true;
      },
      "Alt-Shift-t": ({ editor }) => {
        const paragraph = cursorParagraph(editor.state);
        if (!paragraph) return false;
        if (startOf(paragraph.node) !== null) setStartAt(editor, paragraph.pos, null);
        return true;
      },
      "Alt-p": ({ editor }) => {
        const paragraph = cursorParagraph(editor.state);
        if (!paragraph) return false;
        const start = startOf(paragraph.node);
        if (start === null) this.options.notify(NO_START_TIME);
        else this.options.playFrom(start);
        return true;
      },
    };
  },

  addNodeView() {
    const options = this.options;
    return ({ node: initial, getPos, editor }) => {
      let node = initial;
      const dom = document.createElement("div");
      dom.className = "speaker-paragraph";
      const gutter = document.createElement("span");
      gutter.className = "speaker-gutter";
      gutter.contentEditable = "false";
      const speakerButton = gutterButton("speaker-label");
      const timeButton = gutterButton("speaker-time");
      const clearButton = gutterButton("speaker-time-clear");
      clearButton.dataset.label = "×";
      const contentDOM = document.createElement("p");
      contentDOM.className = "speaker-text";
      gutter.append(speakerButton, timeButton, clearButton);
      dom.append(gutter, contentDOM);

      const position = () => {
        const pos = getPos();
        return typeof pos === "number" ? pos : null;
      };
      speakerButton.addEventListener("click", () => {
        const pos = position();
        if (pos !== null && editor.isEditable) switchSpeakerAt(editor, pos);
      });
      timeButton.addEventListener("click", () => {
        const start = startOf(node);
        if (start !== null) options.playFrom(start);
      });
      clearButton.addEventListener("click", () => {
        const pos = position();
        if (pos !== null && editor.isEditable) setStartAt(editor, pos, null);
      });

      const render = () => {
        const speaker = speakerOf(node);
        const start = startOf(node);
        dom.dataset.speaker = speaker;
        if (start === null) delete dom.dataset.startMs;
        else dom.dataset.startMs = String(start);
        speakerButton.dataset.label = speaker;
        speakerButton.title = `${SPEAKER_NAMES[speaker]}: click or press Alt+S to switch to ${SPEAKER_NAMES[other(speaker)]}`;
        speakerButton.setAttribute("aria-label", `${speaker}, ${SPEAKER_NAMES[speaker]}: switch speaker`);
        timeButton.hidden = start === null;
        clearButton.hidden = start === null;
        if (start !== null) {
          const shown = shortLineTime(start);
          timeButton.dataset.label = shown;
          timeButton.title = `Play the original audio from ${shown} (Alt+P)`;
          timeButton.setAttribute("aria-label", `${shown}: play from here`);
          clearButton.title = "Clear the start time (Alt+Shift+T)";
          clearButton.setAttribute("aria-label", `Clear start time ${shown}`);
        }
      };
      render();

      return {
        dom,
        contentDOM,
        update: (updated: PMNode) => {
          if (updated.type !== node.type) return false;
          node = updated;
          render();
          return true;
        },
        // The gutter is ours: ProseMirror neither reads its changes nor handles its events.
        ignoreMutation: (mutation) => mutation.type !== "selection" && !contentDOM.contains(mutation.target),
        stopEvent: (event) => event.target instanceof globalThis.Node && gutter.contains(event.target),
      };
    };
  },
});
