// Decision 024, "Who spoke, when": in the transcript editor each paragraph shows its speaker (PAR or
// INV) and its start in the recording, kept in the plain-text transcript as `[m:ss.mmm] *INV: `.
// A staff member types two paragraphs of an interview recorded with espeak-ng, marks the first as
// the investigator's (Alt+S; ⌥S as a Mac sends it also works), plays the original audio and marks
// both starts (Alt+T; Alt+Shift+T clears one), and saves: the stored transcript has the prefixes.
// After a reload the labels and times are back, and a click on a time plays from there. A
// transcript written before opens and saves byte for byte. 'Suggest segments' lists the speech the
// server finds, plays one, and 'Apply' sets the paragraphs' starts (undo takes it back), all from
// the keyboard; no speech and an unreadable file say so. axe finds nothing serious.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { formatLineTime } from "@tafsiri/domain";
import { describeBrowser, RESULTS_DIR, seen, toast, toastsGone, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { caretRead } from "./support/editor";
import { prepareWaveforms, seedAudioFile } from "./support/long-audio";
import { seedAudio } from "./support/seed";
import { createSteps, fixture } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

const run = promisify(execFile);

const INTERVIEW = "speakers-interview";
const SILENT = "speakers-silence";
const UNREADABLE = "speakers-unreadable";
const OLD = "speakers-old";
const QUESTION = "Where did you grow up?";
const ANSWER = "In Gulu, near the river.";
/** A transcript saved before speakers and times: spaces, a tab, an empty line, no prefixes. */
const OLD_TEXT = "Habari ya asubuhi  \nNimefika saa mbili, 2.5 kilo (laughs).\n\n\tMstari wa mwisho ";

/**
 * Writes a 16 kHz mono WAV of `phrases` spoken by espeak-ng, each after `gap` seconds of silence
 * (and `gap` at the end): an interview with silences between its turns.
 */
async function speakWithSilences(dir: string, phrases: string[], gap: number): Promise<string> {
  const pieces: string[] = [];
  const silence = path.join(dir, "silence.wav");
  await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", silence, "trim", "0", String(gap)]);
  for (const [index, phrase] of phrases.entries()) {
    const raw = path.join(dir, `raw-${index}.wav`);
    const piece = path.join(dir, `piece-${index}.wav`);
    await run("espeak-ng", ["-s", "150", "-w", raw, phrase]);
    await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", piece]);
    pieces.push(silence, piece);
  }
  const out = path.join(dir, "interview.wav");
  await run("sox", [...pieces, silence, out]);
  return out;
}

describeBrowser("the transcript editor marks who spoke and when", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let page: Page;
  let workDir: string;
  let interviewId: string;
  let oldId: string;
  let unreadableId: string;

  const editor = () => page.getByRole("textbox", { name: "Translated transcript editor" });
  const paragraphs = () => page.getByTestId("transcript-editor").locator(".speaker-paragraph");
  const player = () => page.getByRole("group", { name: "Original audio", exact: true });
  const playerTime = async () => Number(await player().getAttribute("data-time"));
  const storedText = async (audioId: string) =>
    (await suite.server.harness.caller(staff).transcripts.get({ audioId })).text;
  /** The paragraph's start in ms (data-start-ms), or null. */
  const startOf = async (paragraph: Locator) => {
    const value = await paragraph.getAttribute("data-start-ms");
    return value === null ? null : Number(value);
  };
  /** The text a gutter button shows (drawn from its data-label, outside the editor's text). */
  const shownText = (button: Locator) =>
    button.evaluate((el) => getComputedStyle(el, "::before").content.replace(/^"|"$/g, ""));
  /** Waits until `paragraph`'s `data-<name>` attribute equals `value`. */
  const shows = (paragraph: Locator, name: string, value: string) =>
    seen(paragraph.and(page.locator(`[data-${name}="${value}"]`)));
  /**
   * Presses `key` to move the caret (Control+Home, Control+End) and waits until the editor has read
   * the new selection (caretRead), as it has between a person's key presses.
   */
  const moveCaret = async (key: string) => {
    await page.keyboard.press(key);
    await caretRead(page);
  };
  /** Plays the shown original audio for about `seconds` and pauses it (Ctrl+Space). */
  const playFor = async (seconds: number) => {
    const from = await playerTime();
    await page.keyboard.press("Control+Space");
    await seen(player().and(page.locator('[data-state="playing"]')));
    await expect.poll(playerTime, { timeout: 10_000 }).toBeGreaterThanOrEqual(from + seconds);
    await page.keyboard.press("Control+Space");
    await seen(player().and(page.locator('[data-state="paused"]')));
  };

  beforeAll(async () => {
    const admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    workDir = await mkdtemp(path.join(tmpdir(), "tafsiri-speakers-"));
    const interview = await speakWithSilences(
      workDir,
      ["Where did you grow up?", "In Gulu, near the river.", "And then we moved to Kampala."],
      1.5,
    );
    const silent = path.join(workDir, "silent.wav");
    await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", silent, "trim", "0", "3"]);
    const assign = (audioId: string) => suite.server.harness.caller(admin).tasks.assign({ audioId, staffId: staff.id });
    interviewId = (
      await seedAudioFile(suite.server, admin, { filename: INTERVIEW, file: interview, mimeType: "audio/wav" })
    ).id;
    const silentId = (
      await seedAudioFile(suite.server, admin, { filename: SILENT, file: silent, mimeType: "audio/wav" })
    ).id;
    // Text named .mp3: the player cannot load it, and the server cannot read it to find speech.
    unreadableId = (
      await seedAudioFile(suite.server, admin, {
        filename: UNREADABLE,
        file: fixture("fake-audio.mp3"),
        mimeType: "audio/mpeg",
      })
    ).id;
    for (const id of [interviewId, silentId, unreadableId]) await assign(id);
    oldId = await seedAudio(suite.server, admin, { filename: OLD, assignTo: staff });
    await suite.server.harness.caller(staff).transcripts.save({ audioId: oldId, text: OLD_TEXT });
    await prepareWaveforms(suite.server);
  });
  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  step("two paragraphs typed; Alt+S makes the first the investigator's (also as ⌥S on a Mac sends it)", async () => {
    page = await suite.newPage("staff");
    await openTranslatedTranscript(page, staff, INTERVIEW);
    await page.getByRole("button", { name: "Show original Audio" }).click();
    await seen(player().and(page.locator('[data-status="ready"]')));
    await page.getByRole("button", { name: "Write", exact: true }).click();
    const typing = await seen(editor());
    // The empty editor's placeholder sits beside the first paragraph's gutter.
    await expect
      .poll(() =>
        paragraphs()
          .nth(0)
          .evaluate((el) => getComputedStyle(el, "::after").content),
      )
      .toBe('"Write the translated transcript here..."');
    await typing.pressSequentially(QUESTION);
    await page.keyboard.press("Enter");
    await page.keyboard.type(ANSWER);
    await expect.poll(() => paragraphs().count()).toBe(2);
    const [first, second] = [paragraphs().nth(0), paragraphs().nth(1)];
    // A new paragraph is the participant's, shown by its label's text.
    await shows(first, "speaker", "PAR");
    expect(await shownText(first.locator(".speaker-label"))).toBe("PAR");
    expect(await first.locator(".speaker-label").getAttribute("title")).toMatch(/^Participant/);

    await moveCaret("Control+Home");
    await page.keyboard.press("Alt+s");
    await shows(first, "speaker", "INV");
    expect(await shownText(first.locator(".speaker-label"))).toBe("INV");
    expect(await first.locator(".speaker-label").getAttribute("aria-label")).toBe("INV, Investigator: switch speaker");
    await shows(second, "speaker", "PAR");
    // No label went into the text.
    expect(await editor().innerText()).toBe(`${QUESTION}\n\n${ANSWER}`);

    // ⌥S on a Mac types 'ß': the key's code still makes it Alt+S. Sent as the browser gets it.
    await moveCaret("Control+End");
    const cdp = await page.context().newCDPSession(page);
    const optionS = { modifiers: 1, key: "ß", code: "KeyS", windowsVirtualKeyCode: 83, text: "ß" };
    await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", ...optionS });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...optionS });
    await shows(second, "speaker", "INV");
    await page.keyboard.press("Alt+s");
    await shows(second, "speaker", "PAR");
    expect(await second.innerText()).toContain(ANSWER);
    expect(await editor().innerText()).not.toContain("ß");
  });

  step("Alt+T marks each paragraph's start at the player's position; Alt+Shift+T and × clear it", async () => {
    const [first, second] = [paragraphs().nth(0), paragraphs().nth(1)];
    await moveCaret("Control+Home");
    await playFor(0.4);
    const firstAt = await playerTime();
    await page.keyboard.press("Alt+t");
    await expect.poll(() => startOf(first)).not.toBeNull();
    expect(Math.abs((await startOf(first))! - firstAt * 1000)).toBeLessThan(100);

    await moveCaret("Control+End");
    await playFor(1.5);
    await page.keyboard.press("Alt+t");
    await expect.poll(() => startOf(second)).not.toBeNull();
    const secondStart = (await startOf(second))!;
    expect(secondStart).toBeGreaterThan((await startOf(first))! + 1000);
    // The time shows as m:ss.t before the paragraph; its button plays from there.
    const shown = `0:0${Math.floor(secondStart / 1000)}.${Math.floor((secondStart % 1000) / 100)}`;
    const timeButton = await seen(second.getByRole("button", { name: `${shown}: play from here` }));
    expect(await shownText(timeButton)).toBe(shown);

    await page.keyboard.press("Alt+Shift+T");
    await expect.poll(() => startOf(second)).toBeNull();
    await page.keyboard.press("Alt+t");
    await expect.poll(() => startOf(second)).toBe(secondStart);
    await second.getByRole("button", { name: /^Clear start time/ }).click();
    await expect.poll(() => startOf(second)).toBeNull();
    await page.keyboard.press("Control+z");
    await expect.poll(() => startOf(second)).toBe(secondStart);

    // The player's 'Shortcuts' lists the editor's keys beside its own.
    await player().getByRole("button", { name: "Shortcuts" }).click();
    const list = await seen(page.getByRole("region", { name: "Keyboard shortcuts" }));
    for (const keys of ["Ctrl+Space", "Alt+S", "Alt+T", "Alt+Shift+T", "Alt+P"]) {
      await seen(list.getByText(keys, { exact: true }));
    }
    await seen(list.getByText("Switch the paragraph's speaker (PAR/INV)"));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    // The viewport, not the full page (a full-page capture stretches the window and its sticky
    // header and footer). docs/screenshots/transcript-speakers.png is a copy of the wide one.
    await page.mouse.move(0, 0);
    await editor().evaluate((el) => el.focus({ preventScroll: true }));
    await page.getByRole("heading", { name: INTERVIEW }).scrollIntoViewIfNeeded();
    const wideShot = path.join(RESULTS_DIR, "transcript-speakers-01-editor-1440.png");
    await page.screenshot({ path: wideShot });
    await page.setViewportSize({ width: 375, height: 800 });
    // Below 1024 px the sidebar slides away (0.22 s): wait until it has left the screen.
    await expect
      .poll(async () => {
        const box = await page.locator(".shell-sidebar").boundingBox();
        return box ? box.x + box.width : 0;
      })
      .toBeLessThanOrEqual(0);
    await paragraphs()
      .nth(0)
      .evaluate((el) => el.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: path.join(RESULTS_DIR, "transcript-speakers-02-editor-375.png") });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // At 375 px nothing reaches past the window's edge.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  step("the draft kept in the browser keeps speakers and times; the saved transcript has the prefixes", async () => {
    const first = (await startOf(paragraphs().nth(0)))!;
    const second = (await startOf(paragraphs().nth(1)))!;
    await page.reload();
    await page.getByRole("region", { name: "Unsaved draft" }).getByRole("button", { name: "Restore draft" }).click();
    await shows(paragraphs().nth(0), "speaker", "INV");
    expect(await startOf(paragraphs().nth(0))).toBe(first);
    expect(await startOf(paragraphs().nth(1))).toBe(second);

    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Transcript saved and uploaded successfully.");
    const stored = await storedText(interviewId);
    expect(stored).toBe(`${formatLineTime(first)} *INV: ${QUESTION}\n${formatLineTime(second)} ${ANSWER}`);
    expect(stored).toMatch(/^\[0:0\d\.\d{3}\] \*INV: Where.*\n\[0:0\d\.\d{3}\] In Gulu/);
    // As read, the saved transcript shows the same labels and times, not the prefixes.
    const view = await seen(page.getByTestId("transcript-text"));
    await seen(view.getByText(QUESTION, { exact: true }));
    expect(await view.locator(".speaker-label").allInnerTexts()).toEqual(["INV", "PAR"]);
    expect(await view.innerText()).not.toContain("*INV:");
    await toastsGone(page);
  });

  step("after a reload the labels and times are back; a click on a time plays from there", async () => {
    await page.reload();
    await page.getByRole("button", { name: "Write", exact: true }).click();
    await seen(editor());
    const [first, second] = [paragraphs().nth(0), paragraphs().nth(1)];
    await shows(first, "speaker", "INV");
    await shows(second, "speaker", "PAR");
    const secondStart = (await startOf(second))!;
    const firstStart = (await startOf(first))!;
    expect(firstStart).toBeGreaterThan(0);

    // The player is hidden after the reload: the time shows it and plays from there.
    expect(await player().count()).toBe(0);
    await second.locator("button.speaker-time").click();
    await seen(player().and(page.locator('[data-state="playing"]')));
    const jumped = await playerTime();
    expect(jumped).toBeGreaterThanOrEqual(secondStart / 1000 - 0.15);
    expect(jumped).toBeLessThan(secondStart / 1000 + 1.5);
    await page.keyboard.press("Control+Space");
    await seen(player().and(page.locator('[data-state="paused"]')));

    // Back to the first paragraph's start, from the keyboard (Alt+P) this time.
    await editor().click();
    await moveCaret("Control+Home");
    await page.keyboard.press("Alt+p");
    await seen(player().and(page.locator('[data-state="playing"]')));
    expect(await playerTime()).toBeLessThan(secondStart / 1000 - 0.5);
    await page.keyboard.press("Control+Space");
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
  });

  step("a transcript written before opens as it was and saves byte for byte", async () => {
    const other = await suite.newPage("staff-old");
    await openTranslatedTranscript(other, staff, OLD);
    const view = await seen(other.getByTestId("transcript-text"));
    expect(await view.locator(".speaker-label").count()).toBe(0);
    await other.getByRole("button", { name: "Write", exact: true }).click();
    const typing = await seen(other.getByRole("textbox", { name: "Translated transcript editor" }));
    await expect.poll(() => other.getByTestId("transcript-editor").locator(".speaker-paragraph").count()).toBe(4);
    // A change undone: the text goes through the editor's document and back.
    await typing.press("Control+End");
    await other.keyboard.type("x");
    await other.keyboard.press("Backspace");
    await other.getByRole("button", { name: "Save Changes" }).click();
    await toast(other, "Transcript saved and uploaded successfully.");
    expect(await storedText(oldId)).toBe(OLD_TEXT);
    await other.context().close();
  });

  step("'Suggest segments' lists the speech found, plays one; Apply sets the starts, from the keyboard", async () => {
    const suggested = await suite.server.harness.caller(staff).transcripts.suggestSegments({ audioId: interviewId });
    expect(suggested.segments).toHaveLength(3);
    const starts = suggested.segments.map((s) => s.startMs);

    await page.getByRole("button", { name: "Write", exact: true }).click();
    await seen(editor());
    const before = [await startOf(paragraphs().nth(0)), await startOf(paragraphs().nth(1))];
    // The answer is held until the button's waiting state has been seen.
    let answer!: () => void;
    const answerHeld = new Promise<void>((resolve) => (answer = resolve));
    await page.route(/transcripts\.suggestSegments/, async (route) => {
      await answerHeld;
      await route.continue();
    });
    // Keyboard only: from the text, Shift+Tab reaches 'Suggest segments', just above the editor
    // (the gutter's buttons are not Tab stops).
    await moveCaret("Control+End");
    await page.keyboard.press("Shift+Tab");
    const suggest = page.getByRole("button", { name: "Suggest segments" });
    expect(await suggest.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    const finding = await seen(page.getByRole("button", { name: "Finding segments…" }));
    expect(await finding.isDisabled()).toBe(true);
    answer();
    const dialog = await seen(page.getByRole("dialog", { name: "Suggested segments" }));
    await page.unroute(/transcripts\.suggestSegments/);
    const items = dialog.getByRole("listitem");
    expect(await items.count()).toBe(3);
    await seen(dialog.getByText("3 stretches of speech were found.", { exact: false }));

    // Play the second segment: the player (behind the modal dialog, so out of the accessibility
    // tree meanwhile) jumps to it and plays it.
    const behind = page.locator('.audio-player[aria-label="Original audio"]');
    await dialog.getByRole("button", { name: /^Play segment 2, / }).click();
    await seen(behind.and(page.locator('[data-state="playing"]')));
    expect(Number(await behind.getAttribute("data-time"))).toBeGreaterThanOrEqual(starts[1]! / 1000 - 0.15);
    expect(Number(await behind.getAttribute("data-time"))).toBeLessThan(suggested.segments[1]!.endMs / 1000 + 0.2);
    await page.screenshot({ path: path.join(RESULTS_DIR, "transcript-speakers-03-suggestions.png") });
    expect(await seriousAxeViolations(page, { include: ['[role="dialog"]'] })).toEqual([]);

    // Escape leaves everything as it was.
    await page.keyboard.press("Escape");
    expect(await dialog.count()).toBe(0);
    expect([await startOf(paragraphs().nth(0)), await startOf(paragraphs().nth(1))]).toEqual(before);

    await suggest.focus();
    await page.keyboard.press("Enter");
    await seen(page.getByRole("dialog", { name: "Suggested segments" }));
    for (let i = 0; i < 8; i++) {
      const onApply = await page.evaluate(() => document.activeElement?.textContent === "Apply");
      if (onApply) break;
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
    await expect.poll(() => paragraphs().count()).toBe(3);
    expect([
      await startOf(paragraphs().nth(0)),
      await startOf(paragraphs().nth(1)),
      await startOf(paragraphs().nth(2)),
    ]).toEqual(starts);
    // The third start went to a new, empty paragraph of the participant; speakers are kept.
    await shows(paragraphs().nth(0), "speaker", "INV");
    await shows(paragraphs().nth(2), "speaker", "PAR");
    expect(await paragraphs().nth(2).locator(".speaker-text").textContent()).toBe("");

    // The focus is back in the editor: undo takes the whole Apply back.
    expect(await editor().evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Control+z");
    await expect.poll(() => paragraphs().count()).toBe(2);
    expect([await startOf(paragraphs().nth(0)), await startOf(paragraphs().nth(1))]).toEqual(before);
  });

  step("no speech and an unreadable recording are said as such", async () => {
    page = await suite.newPage("staff");
    await openTranslatedTranscript(page, staff, SILENT);
    await page.getByRole("button", { name: "Write", exact: true }).click();
    await page.getByRole("button", { name: "Suggest segments" }).click();
    await toast(page, "No speech found in this recording.");
    expect(await page.getByRole("dialog").count()).toBe(0);

    const refused = await suite.server.harness
      .caller(staff)
      .transcripts.suggestSegments({ audioId: unreadableId })
      .then(
        () => "",
        (error: Error) => error.message,
      );
    expect(refused).not.toBe("");
    page = await suite.newPage("staff");
    await openTranslatedTranscript(page, staff, UNREADABLE);
    await page.getByRole("button", { name: "Write", exact: true }).click();
    await page.getByRole("button", { name: "Suggest segments" }).click();
    await toast(page, refused);
    expect(await page.getByRole("button", { name: "Suggest segments" }).isEnabled()).toBe(true);
  });
});
