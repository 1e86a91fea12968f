// Decision 035, an audio's own languages in a real browser: the admin uploads an audio with its own
// pair (lug → eng; a code that is not ISO 639-3 refused in the browser first, nothing sent), sees
// the pair in Manage Audios, changes it in the row's 'Languages' dialog from the keyboard (the
// target left empty, so the programme's swa), and the staff member sees each audio's pair on the
// task cards (the programme's eng → swa for an audio without its own). axe finds nothing serious on
// the upload form, Manage Audios, the dialog and the Tasks page; a screenshot of the dialog.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  atPath,
  describeBrowser,
  loadingDone,
  screenshot,
  seen,
  signIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { focusArrives, tabTo } from "./support/focus";
import type { TestUser } from "./support/server";
import { seedAudio } from "./support/seed";
import { createSteps, fixture } from "./support/steps";

/** The uploaded audio: the fixture single-control.wav, named after it. */
const AUDIO = "single-control";
/** An audio without languages of its own, assigned to the staff member beforehand. */
const PLAIN_AUDIO = "lang-programme";
const BAD_CODE = "A language is an ISO 639-3 code of three lower-case letters, such as eng or swa.";

/** The row of Manage Audios whose name cell starts with `filename`. */
const audioRow = (page: Page, filename: string): Locator =>
  page.getByRole("row").filter({ has: page.locator("td.audio-name", { hasText: filename }) });

/** The pair a Manage Audios row shows under the audio's name ('lug → eng', after words only screen readers read). */
const shownPair = (row: Locator, pair: string): Locator =>
  row.locator(".audio-pair").filter({ hasText: new RegExp(`^, languages ${pair}$`) });

/** The staff member's task card of `filename`. */
const taskCard = (page: Page, filename: string): Locator =>
  page.getByTestId("task-card").filter({ has: page.getByText(filename, { exact: true }) });

/** Selects the whole value of the focused input and types `text` over it (nothing when empty). */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Backspace");
  if (text) await page.keyboard.type(text);
}

describeBrowser("audio languages: upload, Manage Audios dialog, task card", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let page: Page;

  const languagesOf = (filename: string) =>
    suite.server.harness.deps.db
      .selectFrom("audios")
      .select(["id", "sourceLanguage", "targetLanguage"])
      .where("filename", "=", filename)
      .executeTakeFirst();

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin", { username: "admin-lang" });
    staff = await suite.server.createUser("Staff", { username: "staff-lang" });
    await seedAudio(suite.server, admin, { filename: PLAIN_AUDIO, category: "Control", assignTo: staff });
  });

  step("the upload form names the programme's pair, refuses a bad code in the browser, stores lug → eng", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.goto("/management/upload");
    const single = page.getByRole("region", { name: "Single upload" });
    await seen(single.getByText("Leave empty for the programme's languages (eng → swa).", { exact: true }));
    await single.getByLabel("Category").selectOption("Control");
    await single.getByLabel("Audio file").setInputFiles(fixture("single-control.wav"));
    await single.getByLabel("Source language").fill("lu");
    await single.getByLabel("Target language").fill("eng");
    await single.getByRole("button", { name: "Upload", exact: true }).click();
    const problem = await seen(single.getByRole("alert").filter({ hasText: BAD_CODE }));
    await expect.poll(() => single.getByLabel("Source language").getAttribute("aria-invalid")).toBe("true");
    expect(await problem.getAttribute("id")).toBe(
      (await single.getByLabel("Source language").getAttribute("aria-describedby"))?.split(" ").at(-1),
    );
    expect(await languagesOf(AUDIO)).toBeUndefined();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "audio-languages-00-upload-refused");

    await single.getByLabel("Source language").fill("LUG");
    await single.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(page, `${AUDIO} has been uploaded successfully.`);
    await toastsGone(page);
    expect(await languagesOf(AUDIO)).toMatchObject({ sourceLanguage: "lug", targetLanguage: "eng" });
    // The form is empty again for the next upload.
    expect(await single.getByLabel("Source language").inputValue()).toBe("");
  });

  step("Manage Audios shows the audio's own pair; an audio without one shows none", async () => {
    await page.goto("/management/manageaudios");
    await loadingDone(page);
    await seen(shownPair(audioRow(page, AUDIO), "lug → eng"));
    await expect.poll(() => audioRow(page, PLAIN_AUDIO).locator(".audio-pair").count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("the row's 'Languages' dialog changes the pair from the keyboard, the answer toasted", async () => {
    const row = audioRow(page, AUDIO);
    await row.getByRole("button", { name: /^Participant/ }).focus();
    const opener = row.getByRole("button", { name: `Languages of ${AUDIO}` });
    await tabTo(page, opener, { max: 1 });
    await page.keyboard.press("Enter");
    const dialog = await seen(page.getByRole("dialog", { name: "Languages of this audio" }));
    await seen(dialog.getByText(`${AUDIO} has languages of its own: lug → eng.`, { exact: true }));
    const source = dialog.getByLabel("Source language");
    const target = dialog.getByLabel("Target language");
    expect(await source.inputValue()).toBe("lug");
    expect(await target.inputValue()).toBe("eng");

    await focusArrives(page, source);
    await retype(page, "ny1");
    await tabTo(page, target, { max: 1 });
    await retype(page, "");
    await page.keyboard.press("Enter");
    await seen(dialog.getByRole("alert").filter({ hasText: BAD_CODE }));
    expect((await languagesOf(AUDIO))?.sourceLanguage).toBe("lug");

    await tabTo(page, source, { backward: true, max: 1 });
    await retype(page, "nyn");
    await seen(dialog.getByText("Leave empty for the programme's languages (eng → swa).", { exact: true }));
    expect(await seriousAxeViolations(page, { include: ['[role="dialog"]'] })).toEqual([]);
    await screenshot(page, "audio-languages-01-dialog");
    await tabTo(page, dialog.getByRole("button", { name: "Save", exact: true }), { max: 3 });
    await page.keyboard.press("Enter");
    await toast(page, `Languages of ${AUDIO}: nyn → swa.`);
    await dialog.waitFor({ state: "detached" });
    await focusArrives(page, opener);
    await seen(shownPair(row, "nyn → swa"));
    expect(await languagesOf(AUDIO)).toMatchObject({ sourceLanguage: "nyn", targetLanguage: null });
    await screenshot(page, "audio-languages-02-manage-audios");
    await toastsGone(page);
  });

  step("the staff member's task cards show each audio's pair, the programme's when it has none", async () => {
    const audio = await languagesOf(AUDIO);
    await suite.server.harness.caller(admin).tasks.assign({ audioId: audio!.id, staffId: staff.id });
    const staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await atPath(staffPage, "/Audios");
    await seen(taskCard(staffPage, AUDIO).getByText("Languages: nyn → swa", { exact: true }));
    await seen(taskCard(staffPage, PLAIN_AUDIO).getByText("Languages: eng → swa", { exact: true }));
    expect(await seriousAxeViolations(staffPage)).toEqual([]);
    await screenshot(staffPage, "audio-languages-03-task-cards");
  });
});
