// The transcript being written is kept in the browser, so closing the tab loses
// nothing. A staff member types without saving and reloads the page: the panel offers the draft;
// 'Restore draft' brings the text back into the editor and saving it clears the draft. A second
// draft is offered again after a reload and 'Discard' drops it, leaving the saved text.
import { beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import { describeBrowser, screenshot, seen, toast, toastsGone, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

const AUDIO = "draft-forest";
const FIRST = "Msitu una miti mingi";
const SECOND = "Maneno ambayo hayatahifadhiwa";

describeBrowser("an unsaved transcript survives a reload and is offered back", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let page: Page;

  const editor = () => page.getByRole("textbox", { name: "Translated transcript editor" });
  const notice = () => page.getByRole("region", { name: "Unsaved draft" });

  beforeAll(async () => {
    const admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    await seedAudio(suite.server, admin, { filename: AUDIO, assignTo: staff });
  });

  step("the staff member types a transcript and reloads without saving", async () => {
    page = await suite.newPage("staff");
    await openTranslatedTranscript(page, staff, AUDIO);
    expect(await notice().count()).toBe(0);
    await page.getByRole("button", { name: "Write", exact: true }).click();
    await (await seen(editor())).pressSequentially(FIRST);
    await page.reload();
    await seen(notice().getByText(/^You have an unsaved draft from /));
    await seen(page.getByText("No Transcript", { exact: true }));
    await screenshot(page, "transcript-draft-01-offered");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("'Restore draft' puts the text back in the editor; saving it clears the draft", async () => {
    await notice().getByRole("button", { name: "Restore draft" }).click();
    expect(await (await seen(editor())).innerText()).toBe(FIRST);
    expect(await notice().count()).toBe(0);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Transcript saved and uploaded successfully.");
    await seen(page.getByTestId("transcript-text").getByText(FIRST, { exact: true }));
    await toastsGone(page);
    await page.reload();
    await seen(page.getByTestId("transcript-text").getByText(FIRST, { exact: true }));
    expect(await notice().count()).toBe(0);
  });

  step("another unsaved draft is offered after a reload; 'Discard' drops it", async () => {
    await page.getByRole("button", { name: "Write", exact: true }).click();
    const typing = await seen(editor());
    await typing.press("Control+A");
    await typing.pressSequentially(SECOND);
    await page.reload();
    await notice().getByRole("button", { name: "Discard" }).click();
    expect(await notice().count()).toBe(0);
    await seen(page.getByTestId("transcript-text").getByText(FIRST, { exact: true }));
    await page.reload();
    await seen(page.getByTestId("transcript-text").getByText(FIRST, { exact: true }));
    expect(await notice().count()).toBe(0);
  });
});
