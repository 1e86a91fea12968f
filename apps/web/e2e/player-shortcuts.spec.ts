// Issue 12 Build 4: the player is driven from the keyboard while the transcript editor has focus.
// A staff member opens the Translated Transcript of an assigned audio, shows the original audio
// and types in the editor; Ctrl+↓ slows the player down to 0.25x, Ctrl+Space plays and pauses it,
// Ctrl+→ and Ctrl+← move it 3 s (kept within the 1.3 s audio), Ctrl+↑ speeds it up again; the
// editor keeps its text and its focus all along. The 'Shortcuts' popover lists the keys, closes on
// Escape and gives focus back to its button.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { atPath, describeBrowser, screenshot, seen, signIn, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const AUDIO = "shortcut-lake";
const TYPED = "Ziwa ni kubwa";

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
    await signIn(page, staff);
    await atPath(page, "/Audios");
    await page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: AUDIO }).click();
    await atPath(page, "/audiomanagement/audiocontrol");
    await page
      .getByRole("navigation", { name: "Audio management" })
      .getByRole("link", { name: "Translated Transcript", exact: true })
      .click();
    await atPath(page, "/audiomanagement/trascript");
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
