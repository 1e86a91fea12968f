// SPEC §2.18: Manage Audios attaches an initial transcript, and replaces it only after a
// confirmation (the server refuses to overwrite one otherwise: 409 'This audio already has a
// transcript.'). An admin uploads a transcript to an audio without one; 'View Transcript' shows
// it; 'Replace transcript' with another file asks first; Cancel keeps the old text, confirming
// replaces it and the modal shows the new text. The Logs page says 'replaced the initial transcript'.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { describeBrowser, screenshot, seen, signIn, toast, toastsGone, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const AUDIO = "transcript-river";
const FIRST_TEXT = "Habari ya kwanza: the first transcript.";
const SECOND_TEXT = "Habari ya pili: the replacement.";

/** A .txt file for the drop zone's input. */
const textFile = (name: string, text: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

/** The Manage Audios row of the audio. */
function audioRow(page: Page): Locator {
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name: AUDIO, exact: true }) });
}

describeBrowser("manage audios: upload an initial transcript, replace it after a confirmation", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let page: Page;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    await seedAudio(suite.server, admin, { filename: AUDIO });
  });

  step("the admin uploads a transcript to an audio that has none", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.goto("/management/manageaudios");
    const row = await seen(audioRow(page));
    await row.getByRole("button", { name: "Upload Transcript" }).click();
    const dialog = await seen(page.getByRole("dialog", { name: "Upload Transcript" }));
    await dialog.getByLabel("Transcript file").setInputFiles(textFile("first.txt", FIRST_TEXT));
    await seen(dialog.getByText("first.txt", { exact: true }));
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(page, "Transcript uploaded successfully!");
    await seen(row.getByRole("button", { name: "View Transcript" }));
    expect(await row.getByRole("button", { name: "Upload Transcript" }).count()).toBe(0);
    await toastsGone(page);
  });

  step("'Replace transcript' asks first; Cancel keeps the transcript", async () => {
    await audioRow(page).getByRole("button", { name: "View Transcript" }).click();
    const view = await seen(page.getByRole("dialog", { name: "Transcript", exact: true }));
    await seen(view.getByText(FIRST_TEXT));
    await view.getByRole("button", { name: "Replace transcript" }).click();
    const picker = await seen(page.getByRole("dialog", { name: "Replace Transcript" }));
    // Without a file there is nothing to confirm.
    await picker.getByRole("button", { name: "Replace", exact: true }).click();
    await toast(page, "Please select a file to upload.");
    await picker.getByLabel("Transcript file").setInputFiles(textFile("second.txt", SECOND_TEXT));
    await seen(picker.getByText("second.txt", { exact: true }));
    await picker.getByRole("button", { name: "Replace", exact: true }).click();
    const confirm = await seen(page.getByRole("alertdialog", { name: "Replace the transcript?" }));
    await seen(confirm.getByText(/will be replaced by the chosen file/));
    await screenshot(page, "initial-transcript-01-confirm-replace");
    expect(await seriousAxeViolations(page, { include: ['[role="alertdialog"]'] })).toEqual([]);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    // Still the picker, with the file chosen; nothing was sent.
    await seen(picker.getByText("second.txt", { exact: true }));
    await picker.getByRole("button", { name: "Cancel" }).click();
    await picker.waitFor({ state: "detached" });
    await seen(view.getByText(FIRST_TEXT));
    await toastsGone(page);
  });

  step("confirming replaces it: the modal shows the new text and the log says so", async () => {
    const view = await seen(page.getByRole("dialog", { name: "Transcript", exact: true }));
    await view.getByRole("button", { name: "Replace transcript" }).click();
    const picker = await seen(page.getByRole("dialog", { name: "Replace Transcript" }));
    await picker.getByLabel("Transcript file").setInputFiles(textFile("second.txt", SECOND_TEXT));
    await picker.getByRole("button", { name: "Replace", exact: true }).click();
    const confirm = await seen(page.getByRole("alertdialog", { name: "Replace the transcript?" }));
    await confirm.getByRole("button", { name: "Replace transcript" }).click();
    await toast(page, "Transcript replaced successfully!");
    await confirm.waitFor({ state: "detached" });
    await picker.waitFor({ state: "detached" });
    await seen(view.getByText(SECOND_TEXT));
    await screenshot(page, "initial-transcript-02-replaced");
    await view.getByRole("button", { name: "Close" }).click();

    await page.goto("/log/log-listing");
    await seen(page.getByRole("cell", { name: `replaced the initial transcript of ${AUDIO}`, exact: true }));
    await seen(page.getByRole("cell", { name: `attached the initial transcript of ${AUDIO}`, exact: true }));
  });
});
