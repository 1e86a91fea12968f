// SPEC §2.11: the player is driven from the keyboard while the transcript editor has focus.
// A staff member opens the Translated Transcript of an assigned audio, shows the original audio
// and types in the editor; Ctrl+↓ slows the player down to 0.25x, Ctrl+Space plays and pauses it,
// Ctrl+→ and Ctrl+← move it 3 s (kept within the 1.3 s audio), Ctrl+↑ speeds it up again; the
// editor keeps its text and its focus all along. Dragging across the waveform selects a part that
// keeps playing in a loop; 'Loop' clears it; 'Zoom' widens the waveform. The 'Shortcuts' popover
// lists the keys, closes on Escape and gives focus back to its button.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { describeBrowser, screenshot, seen, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

const AUDIO = "shortcut-lake";
const TYPED = "Ziwa ni kubwa";
/** Longer than the audio, in seconds of it (Ctrl+→ finds its end under 1.4 s). */
const LONGER_THAN_AUDIO_SECONDS = 1.4;

describeBrowser("the player's keyboard shortcuts work while the transcript editor has focus", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let page: Page;
  let player: Locator;
  let editor: Locator;

  /** The player's value of `data-<name>` once it equals `value`. */
  const playerShows = (name: string, value: string) => seen(player.and(page.locator(`[data-${name}="${value}"]`)));

  beforeAll(async () => {
    const admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    await seedAudio(suite.server, admin, { filename: AUDIO, assignTo: staff });
  });

  step("the staff member writes in the editor with the original audio shown", async () => {
    page = await suite.newPage("staff");
    await openTranslatedTranscript(page, staff, AUDIO);
    await page.getByRole("button", { name: "Show original Audio" }).click();
    player = page.getByRole("group", { name: "Original audio", exact: true });
    await playerShows("status", "ready");
    await page.getByRole("button", { name: "Write", exact: true }).click();
    editor = await seen(page.getByRole("textbox", { name: "Translated transcript editor" }));
    await editor.click();
    await editor.pressSequentially(TYPED);
  });

  step("Ctrl+↓ slows down to 0.25x, Ctrl+Space plays and pauses; the editor keeps its text and focus", async () => {
    for (const rate of ["0.75", "0.5", "0.25"]) {
      await page.keyboard.press("Control+ArrowDown");
      await playerShows("rate", rate);
    }
    // At the slowest speed already: one more step down stays there.
    await page.keyboard.press("Control+ArrowDown");
    await playerShows("rate", "0.25");
    await page.keyboard.press("Control+Space");
    await playerShows("state", "playing");
    await page.keyboard.press("Control+Space");
    await playerShows("state", "paused");
    expect(await editor.innerText()).toBe(TYPED);
    expect(await editor.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  });

  step("Ctrl+→ and Ctrl+← move 3 s within the audio, Ctrl+↑ speeds up; typing goes on where it was", async () => {
    await page.keyboard.press("Control+ArrowRight");
    const duration = Number(await player.getAttribute("data-time"));
    expect(duration).toBeGreaterThan(1.2);
    expect(duration).toBeLessThan(1.4);
    await page.keyboard.press("Control+ArrowLeft");
    await playerShows("time", "0");
    await page.keyboard.press("Control+ArrowUp");
    await playerShows("rate", "0.5");
    // Ctrl+arrows were the player's: the caret did not move, so new text goes at the end.
    await page.keyboard.type(" sana");
    expect(await editor.innerText()).toBe(`${TYPED} sana`);
  });

  step("a seek made before the previous one has finished is not lost", async () => {
    // Both keys in one task: the second arrives while the media element is still seeking to the end.
    // Answers where the media element is once it has stopped seeking: its 'seeked' comes after
    // every event of the first seek, which the player hears too (then given two frames to show it).
    const seekedAt = await editor.evaluate(async (el) => {
      const property = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, "currentTime")!;
      const moved = new Set<HTMLMediaElement>();
      Object.defineProperty(HTMLMediaElement.prototype, "currentTime", {
        ...property,
        set(this: HTMLMediaElement, seconds: number) {
          moved.add(this);
          property.set!.call(this, seconds);
        },
      });
      try {
        for (const key of ["ArrowRight", "ArrowLeft"]) {
          el.dispatchEvent(new KeyboardEvent("keydown", { key, code: key, ctrlKey: true, bubbles: true }));
        }
      } finally {
        Object.defineProperty(HTMLMediaElement.prototype, "currentTime", property);
      }
      const [seeking, ...others] = moved;
      if (!seeking || others.length > 0) throw new Error(`The keys moved ${moved.size} media elements, not one.`);
      while (seeking.seeking)
        await new Promise((resolve) => seeking.addEventListener("seeked", resolve, { once: true }));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return seeking.currentTime;
    });
    expect(seekedAt).toBe(0);
    await playerShows("time", "0");
    // The first seek's events came after the second key; now that they have, the player is still at 0.
    expect(await player.getAttribute("data-time")).toBe("0");
  });

  step("dragging across the waveform selects a part that 'Loop' repeats; 'Zoom' widens the waveform", async () => {
    const waveform = player.locator(".audio-player-wave");
    await waveform.scrollIntoViewIfNeeded();
    const box = (await waveform.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.35, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 });
    await page.mouse.up();
    await playerShows("loop", "on");
    const start = Number(await player.getAttribute("data-loop-start"));
    const end = Number(await player.getAttribute("data-loop-end"));
    expect(start).toBeGreaterThan(0.1);
    expect(end).toBeLessThan(1.0);
    expect(end - start).toBeGreaterThan(0.2);
    expect(await player.getByRole("button", { name: "Loop" }).getAttribute("aria-pressed")).toBe("true");

    // From the start at 0.5x, the 1.3 s audio would have ended after 2.6 s; the loop keeps it
    // playing within the selected part.
    await editor.click();
    await page.keyboard.press("Control+ArrowLeft");
    await playerShows("time", "0");
    await page.keyboard.press("Control+Space");
    await playerShows("state", "playing");
    // Played for longer than the whole audio (each pass of the loop counted), or stopped.
    await player.evaluate((el) => {
      let last = Number(el.getAttribute("data-time"));
      const played = { seconds: 0 };
      Object.assign(window, { tafsiriPlayed: played });
      new MutationObserver(() => {
        const now = Number(el.getAttribute("data-time"));
        // A step back is the loop starting again.
        if (now > last) played.seconds += now - last;
        last = now;
      }).observe(el, { attributes: true, attributeFilter: ["data-time"] });
    });
    await page.waitForFunction(
      ({ el, longerThanAudio }) =>
        (window as unknown as { tafsiriPlayed: { seconds: number } }).tafsiriPlayed.seconds > longerThanAudio ||
        el.getAttribute("data-state") !== "playing",
      { el: await player.elementHandle(), longerThanAudio: LONGER_THAN_AUDIO_SECONDS },
    );
    expect(await player.getAttribute("data-state")).toBe("playing");
    const inLoop = Number(await player.getAttribute("data-time"));
    expect(inLoop).toBeGreaterThanOrEqual(start - 0.1);
    expect(inLoop).toBeLessThanOrEqual(end + 0.15);
    await page.keyboard.press("Control+Space");
    await playerShows("state", "paused");

    // 'Loop' again stops looping and clears the part; without a part it loops from the position.
    await player.getByRole("button", { name: "Loop" }).click();
    await playerShows("loop", "off");
    await page.keyboard.press("Control+ArrowLeft");
    await player.getByRole("button", { name: "Loop" }).click();
    await playerShows("loop-start", "0");
    expect(Number(await player.getAttribute("data-loop-end"))).toBeGreaterThan(1.2);
    await player.getByRole("button", { name: "Loop" }).click();
    await playerShows("loop", "off");

    const zoom = player.getByRole("slider", { name: "Zoom" });
    await zoom.focus();
    await page.keyboard.press("End");
    await playerShows("zoom", "200");
    await playerShows("status", "ready");
  });

  step("'Shortcuts' lists the keys, closes on Escape and returns focus to its button", async () => {
    const button = player.getByRole("button", { name: "Shortcuts" });
    await button.click();
    const list = await seen(page.getByRole("region", { name: "Keyboard shortcuts" }));
    for (const keys of ["Ctrl+Space", "Ctrl+←", "Ctrl+→", "Ctrl+↑", "Ctrl+↓"]) {
      await seen(list.getByText(keys, { exact: true }));
    }
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    await screenshot(page, "player-shortcuts-01-popover");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    expect(await list.count()).toBe(0);
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
