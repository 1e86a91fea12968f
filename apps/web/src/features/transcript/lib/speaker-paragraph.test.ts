// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { applySegmentStarts, shortLineTime, SpeakerParagraph } from "./speaker-paragraph";
import { docToTranscript, transcriptToDoc } from "./transcript-doc";

/** What the paragraphs asked of the player: the plays and the messages. */
interface PlayerCalls {
  played: number[];
  told: string[];
}

let editor: Editor | null = null;
afterEach(() => {
  editor?.destroy();
  editor = null;
});

/** An editor holding `text` (a stored transcript), set up as the transcript editor is, with a player at `positionMs`. */
function open(text: string, positionMs: number | null = 1234.4): { editor: Editor; calls: PlayerCalls } {
  const calls: PlayerCalls = { played: [], told: [] };
  editor = new Editor({
    element: document.body.appendChild(document.createElement("div")),
    extensions: [
      StarterKit.configure({ paragraph: false, trailingNode: false }),
      SpeakerParagraph.configure({
        positionMs: () => positionMs,
        playFrom: (ms) => calls.played.push(ms),
        notify: (message) => calls.told.push(message),
      }),
    ],
    content: transcriptToDoc(text),
  });
  return { editor, calls };
}

/** Presses `key` (with Alt, and Shift when asked) in the editor, as the keyboard would. */
function press(target: Editor, key: string, { shift = false } = {}): void {
  const upper = key.toUpperCase();
  const init = { code: `Key${upper}`, keyCode: upper.charCodeAt(0), altKey: true, shiftKey: shift, bubbles: true };
  target.view.dom.dispatchEvent(new KeyboardEvent("keydown", { ...init, key: shift ? upper : key }));
}

/** Puts the cursor in the `n`-th paragraph (0-based). */
function cursorIn(target: Editor, n: number): void {
  let pos = 0;
  target.state.doc.forEach((node, offset, index) => {
    if (index === n) pos = offset + 1;
  });
  target.commands.setTextSelection(pos);
}

const stored = (target: Editor) => docToTranscript(target.state.doc);

describe("shortLineTime (the gutter's time: m:ss.t, h:mm:ss.t from an hour)", () => {
  it("writes minutes, seconds and tenths, cutting the rest", () => {
    expect(shortLineTime(0)).toBe("0:00.0");
    expect(shortLineTime(1234)).toBe("0:01.2");
    expect(shortLineTime(1299)).toBe("0:01.2");
    expect(shortLineTime(61_050)).toBe("1:01.0");
    expect(shortLineTime(3_599_999)).toBe("59:59.9");
  });

  it("adds hours from an hour on, and treats a negative time as 0", () => {
    expect(shortLineTime(3_600_000)).toBe("1:00:00.0");
    expect(shortLineTime(3_723_456)).toBe("1:02:03.4");
    expect(shortLineTime(-500)).toBe("0:00.0");
  });
});

describe("SpeakerParagraph: who spoke (decision 024, Alt+S)", () => {
  it("switches the cursor's paragraph between PAR and INV, one undo step each", () => {
    const { editor: e } = open("Where did you grow up?\nIn Gulu.");
    cursorIn(e, 0);
    press(e, "s");
    expect(stored(e)).toBe("*INV: Where did you grow up?\nIn Gulu.");
    press(e, "s");
    expect(stored(e)).toBe("Where did you grow up?\nIn Gulu.");
    e.commands.undo();
    expect(stored(e)).toBe("*INV: Where did you grow up?\nIn Gulu.");
  });

  it("gives every selected paragraph the speaker the first of them does not have", () => {
    const { editor: e } = open("One.\n*INV: Two.\nThree.");
    e.commands.setTextSelection({ from: 1, to: e.state.doc.content.size - 1 });
    press(e, "s");
    expect(stored(e)).toBe("*INV: One.\n*INV: Two.\n*INV: Three.");
  });

  it("a new paragraph (Enter) keeps the speaker but not the start time", () => {
    const { editor: e } = open("[0:01.500] *INV: Question");
    e.commands.setTextSelection(e.state.doc.content.size - 1);
    e.commands.splitBlock();
    e.commands.insertContent("more");
    expect(stored(e)).toBe("[0:01.500] *INV: Question\n*INV: more");
  });
});

describe("SpeakerParagraph: when (decision 024, Alt+T, Alt+Shift+T, Alt+P)", () => {
  it("Alt+T marks the paragraph's start at the player's position, in whole ms", () => {
    const { editor: e } = open("Hello\nWorld", 2_345.6);
    cursorIn(e, 1);
    press(e, "t");
    expect(stored(e)).toBe("Hello\n[0:02.346] World");
  });

  it("Alt+T without a player says how to get one and changes nothing", () => {
    const { editor: e, calls } = open("Hello", null);
    cursorIn(e, 0);
    press(e, "t");
    expect(calls.told).toEqual(["Show the original audio to mark where a paragraph starts."]);
    expect(stored(e)).toBe("Hello");
  });

  it("Alt+Shift+T clears the start; Alt+P plays from it, or says there is none", () => {
    const { editor: e, calls } = open("[1:02.345] Hello\nWorld");
    cursorIn(e, 0);
    press(e, "p");
    expect(calls.played).toEqual([62_345]);
    press(e, "t", { shift: true });
    expect(stored(e)).toBe("Hello\nWorld");
    press(e, "p");
    expect(calls.told).toEqual(["This paragraph has no start time yet (Alt+T marks it)."]);
    expect(calls.played).toEqual([62_345]);
  });
});

describe("SpeakerParagraph: the gutter and copy and paste", () => {
  it("labels the speaker and the time for screen readers, and the speaker button switches it", () => {
    const { editor: e } = open("[0:01.500] *INV: Question\nAnswer");
    const [first, second] = Array.from(e.view.dom.querySelectorAll<HTMLElement>(".speaker-paragraph"));
    expect(first!.querySelector(".speaker-label")!.getAttribute("aria-label")).toBe(
      "INV, Investigator: switch speaker",
    );
    expect(first!.querySelector(".speaker-time")!.getAttribute("aria-label")).toBe("0:01.5: play from here");
    expect(first!.querySelector<HTMLButtonElement>(".speaker-time")!.hidden).toBe(false);
    expect(second!.querySelector(".speaker-label")!.getAttribute("title")).toBe(
      "Participant: click or press Alt+S to switch to Investigator",
    );
    expect(second!.querySelector<HTMLButtonElement>(".speaker-time")!.hidden).toBe(true);
    second!.querySelector<HTMLButtonElement>(".speaker-label")!.click();
    expect(stored(e)).toBe("[0:01.500] *INV: Question\n*INV: Answer");
  });

  it("keeps speaker and start in HTML, and ignores a start that is not whole milliseconds", () => {
    const { editor: e } = open("");
    e.commands.setContent(
      '<p data-speaker="INV" data-start-ms="1500">A</p><p data-start-ms="1.5">B</p><p data-speaker="X">C</p>',
    );
    expect(stored(e)).toBe("[0:01.500] *INV: A\nB\nC");
    expect(e.getHTML()).toContain('<p data-speaker="INV" data-start-ms="1500">A</p>');
  });
});

describe("applySegmentStarts (decision 024: 'Suggest segments' → Apply)", () => {
  it("gives the paragraphs with text the starts in order, skipping empty ones, in one undo step", () => {
    const { editor: e } = open("*INV: One\n\nTwo\nThree");
    applySegmentStarts(e, [1000, 2500]);
    expect(stored(e)).toBe("[0:01.000] *INV: One\n\n[0:02.500] Two\nThree");
    e.commands.undo();
    expect(stored(e)).toBe("*INV: One\n\nTwo\nThree");
  });

  it("puts starts left over in new empty participant paragraphs at the end", () => {
    const { editor: e } = open("*INV: One");
    applySegmentStarts(e, [1000, 2000, 3000]);
    expect(stored(e)).toBe("[0:01.000] *INV: One\n[0:02.000]\n[0:03.000]");
  });

  it("an empty document's one paragraph takes the first start", () => {
    const { editor: e } = open("");
    applySegmentStarts(e, [500, 900]);
    expect(stored(e)).toBe("[0:00.500]\n[0:00.900]");
  });
});
