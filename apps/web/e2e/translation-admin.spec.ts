// Decision 035, Management → Translation in a real browser: a staff member has no entry and is
// refused the page. The admin opens it from the management menu; the languages form shows the
// programme's defaults, refuses a code that is not ISO 639-3 by its field (the browser's check)
// and shows the server's message for six source languages in a toast, then saves eng → swa with
// CHAT markers not kept (still so after a reload). In the glossary of eng → swa the admin adds a
// term (empty terms refused by their fields first), imports a CSV glossary (a term already there
// in another case updated, not doubled), removes a term after a confirmation (Cancel returns the
// focus to its button; after the removal the focus is on the next term's button), exports CSV
// (the file's content checked) and TBX, looks at another pair and back, imports a TMX memory (a
// file that is not TMX refused with the server's message) and exports it (its count shown). axe
// finds nothing serious on the page, the confirmation and the narrow page; screenshots at 1440
// and 375 px.
import { readFileSync } from "node:fs";
import { beforeAll, expect } from "vitest";
import type { Download, Locator, Page } from "playwright-core";
import { GLOSSARY_TERM_EMPTY } from "@tafsiri/domain";
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
import { focusArrives, isFocused, tabTo } from "./support/focus";
import { untiedFieldErrors } from "./support/forms";
import type { TestUser } from "./support/server";
import { createSteps } from "./support/steps";

/** A glossary in Tafsiri's CSV form: two new terms, and 'Memory' (already there as 'memory') with a note. */
const GLOSSARY_CSV = [
  "source,target,note",
  "doctor,daktari,",
  'hospital,hospitali,"Also ""zahanati"", for a clinic"',
  "Memory,kumbukumbu,The faculty of remembering",
].join("\r\n");

/** What 'Export CSV' downloads after the import and the removal of 'doctor': the server's CSV, unchanged. */
const EXPORTED_CSV =
  "source,target,note\r\n" +
  'hospital,hospitali,"Also ""zahanati"", for a clinic"\r\n' +
  "memory,kumbukumbu,The faculty of remembering\r\n";

/** A TMX 1.4b file as other tools write it (two-letter codes): two English–Swahili units, one English–French. */
const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="OmegaT" adminlang="en" srclang="en" datatype="plaintext"/>
  <body>
    <tu><tuv xml:lang="en"><seg>How are you today?</seg></tuv><tuv xml:lang="sw"><seg>Habari za leo?</seg></tuv></tu>
    <tu><tuv xml:lang="en-GB"><seg>Tell me about your family.</seg></tuv><tuv xml:lang="sw"><seg>Niambie kuhusu familia yako.</seg></tuv></tu>
    <tu><tuv xml:lang="en"><seg>Thank you.</seg></tuv><tuv xml:lang="fr"><seg>Merci.</seg></tuv></tu>
  </body>
</tmx>
`;

/** The glossary table. */
const glossaryTable = (page: Page): Locator => page.getByRole("table", { name: /^Glossary / });
/** The source terms the glossary table lists, in order. */
async function listedTerms(page: Page): Promise<string[]> {
  await loadingDone(page);
  return (await glossaryTable(page).getByRole("rowheader").allInnerTexts()).map((t) => t.trim());
}
/** Waits until the glossary table lists exactly `terms`. */
async function listsExactly(page: Page, terms: string[]): Promise<void> {
  await expect.poll(() => listedTerms(page), { timeout: 10_000 }).toEqual(terms);
}
/** The glossary table's row of `sourceTerm`. */
const termRow = (page: Page, sourceTerm: string): Locator =>
  glossaryTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: sourceTerm, exact: true }) });

/** Clicks `button` and answers the download it starts. */
async function downloadOf(page: Page, button: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  return download;
}
/** The text of a download. */
async function textOf(download: Download): Promise<string> {
  return readFileSync((await download.path())!, "utf8");
}

describeBrowser("translation admin: languages, glossary, memory (decision 035)", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let page: Page;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin", { username: "admin-tr" });
    staff = await suite.server.createUser("Staff", { username: "staff-tr" });
  });

  step("a staff member sees no 'Translation' entry and is refused the page", async () => {
    const staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await atPath(staffPage, "/Audios");
    await seen(staffPage.getByRole("navigation", { name: "Main" }));
    expect(await staffPage.getByRole("link", { name: "Translation", exact: true }).count()).toBe(0);
    await staffPage.goto("/management/translation");
    await atPath(staffPage, "/utility/404");
    await staffPage.context().close();
  });

  step("the admin opens Management → Translation from the menu: the defaults and an empty glossary", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.goto("/management/upload");
    await page.getByRole("navigation", { name: "Management" }).getByRole("link", { name: "Translation" }).click();
    await atPath(page, "/management/translation");
    await seen(page.getByRole("heading", { name: "Translation", level: 1 }));
    expect(await page.getByLabel("Source languages").inputValue()).toBe("eng");
    expect(await page.getByLabel("Target language").inputValue()).toBe("swa");
    expect(await page.getByLabel("Staff write the source text where no transcript was uploaded").isChecked()).toBe(
      true,
    );
    expect(await page.getByLabel("Translations keep CHAT markers (&-uh, [/], (.), xxx)").isChecked()).toBe(true);
    await seen(page.getByRole("heading", { name: "Glossary: eng → swa", level: 2 }));
    await seen(page.getByText("No terms for eng → swa yet. Add one or import a glossary.", { exact: true }));
    await seen(page.getByRole("heading", { name: "Translation memory: eng → swa", level: 2 }));
    expect(await page.getByLabel("Language pair").inputValue()).toBe("eng-swa");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("the languages: a bad code refused by its field, too many by the server, then eng → swa saved", async () => {
    const sources = page.getByLabel("Source languages");
    await sources.fill("eng, en");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await seen(page.getByText('"en" is not an ISO 639-3 code: write three lower-case letters, such as eng or swa.'));
    expect(await isFocused(sources)).toBe(true);
    expect(await sources.getAttribute("aria-invalid")).toBe("true");
    expect(await untiedFieldErrors(page)).toEqual([]);

    await sources.fill("eng, lug, kin, nyn, ach, teo");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await toast(page, "Give between one and five source languages.");
    await toastsGone(page);

    await sources.fill("eng");
    await page.getByLabel("Target language").fill("swa");
    await page.getByLabel("Translations keep CHAT markers (&-uh, [/], (.), xxx)").uncheck();
    // Every stop of the form shows its focus ring (the checkboxes too).
    await sources.focus();
    await tabTo(page, page.getByRole("button", { name: "Save", exact: true }));
    await page.keyboard.press("Enter");
    await toast(page, "Translation settings saved.");
    await toastsGone(page);

    await page.reload();
    await seen(page.getByRole("heading", { name: "Translation", level: 1 }));
    expect(await page.getByLabel("Source languages").inputValue()).toBe("eng");
    expect(await page.getByLabel("Target language").inputValue()).toBe("swa");
    expect(await page.getByLabel("Translations keep CHAT markers (&-uh, [/], (.), xxx)").isChecked()).toBe(false);
    expect(await page.getByLabel("Staff write the source text where no transcript was uploaded").isChecked()).toBe(
      true,
    );
  });

  step("adds a glossary term: empty terms refused by their fields, then added", async () => {
    const source = page.getByLabel("Source term (eng)");
    await page.getByRole("button", { name: "Add term", exact: true }).click();
    expect(await page.getByText(GLOSSARY_TERM_EMPTY, { exact: true }).count()).toBe(2);
    expect(await isFocused(source)).toBe(true);
    expect(await untiedFieldErrors(page)).toEqual([]);

    await source.fill("memory");
    await page.getByLabel("Target term (swa)").fill("kumbukumbu");
    await page.getByLabel("Note", { exact: true }).fill("Not a souvenir.");
    await page.getByRole("button", { name: "Add term", exact: true }).click();
    await toast(page, '"memory" added to the glossary.');
    await listsExactly(page, ["memory"]);
    await seen(termRow(page, "memory").getByRole("cell", { name: "Not a souvenir.", exact: true }));
    expect(await source.inputValue()).toBe("");
    await focusArrives(page, source);
    await toastsGone(page);
  });

  step("imports a CSV glossary: two terms added, the one already there updated", async () => {
    await page
      .getByLabel("Glossary file")
      .setInputFiles({ name: "glossary.csv", mimeType: "text/csv", buffer: Buffer.from(GLOSSARY_CSV) });
    await page.getByRole("button", { name: "Import glossary", exact: true }).click();
    await toast(page, "2 glossary terms added, 1 updated.");
    await listsExactly(page, ["doctor", "hospital", "memory"]);
    await seen(page.getByText("3 terms", { exact: true }));
    await seen(termRow(page, "hospital").getByRole("cell", { name: 'Also "zahanati", for a clinic', exact: true }));
    await seen(termRow(page, "memory").getByRole("cell", { name: "The faculty of remembering", exact: true }));
    expect(await page.getByLabel("Glossary file").inputValue()).toBe("");
    await toastsGone(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "translation-admin-01-glossary-1440");
  });

  step("removes a term after a confirmation; Cancel keeps it and returns the focus", async () => {
    const remove = termRow(page, "doctor").getByRole("button", { name: "Remove doctor" });
    await remove.click();
    const dialog = await seen(page.getByRole("alertdialog", { name: 'Remove "doctor" from the glossary?' }));
    await seen(dialog.getByText(/"doctor" → "daktari" leaves the glossary of eng → swa/));
    expect(await seriousAxeViolations(page, { include: ['[role="alertdialog"]'] })).toEqual([]);
    await screenshot(page, "translation-admin-02-confirm-removal");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await focusArrives(page, remove);
    await listsExactly(page, ["doctor", "hospital", "memory"]);

    await page.keyboard.press("Enter");
    const again = await seen(page.getByRole("alertdialog", { name: 'Remove "doctor" from the glossary?' }));
    await again.getByRole("button", { name: "Remove", exact: true }).click();
    await toast(page, '"doctor" removed from the glossary.');
    await listsExactly(page, ["hospital", "memory"]);
    // The removed row's button is gone: the focus is on the button now in its place.
    await focusArrives(page, termRow(page, "hospital").getByRole("button", { name: "Remove hospital" }));
    await toastsGone(page);
  });

  step("'Export CSV' and 'Export TBX' download the glossary as the server wrote it", async () => {
    const csv = await downloadOf(page, page.getByRole("button", { name: "Export CSV", exact: true }));
    expect(csv.suggestedFilename()).toBe("tafsiri-glossary-eng-swa.csv");
    expect(await textOf(csv)).toBe(EXPORTED_CSV);

    const tbx = await downloadOf(page, page.getByRole("button", { name: "Export TBX", exact: true }));
    expect(tbx.suggestedFilename()).toBe("tafsiri-glossary-eng-swa.tbx");
    const xml = await textOf(tbx);
    expect(xml).toContain("<tbx");
    expect(xml).toContain("hospitali");
    expect(xml).not.toContain("daktari");
  });

  step("another pair: its codes checked, its own (empty) glossary, then back to eng → swa", async () => {
    await page.getByLabel("Language pair").selectOption("other");
    await page.getByLabel("Source", { exact: true }).fill("lu");
    await page.getByLabel("Target", { exact: true }).fill("swa");
    await page.getByRole("button", { name: "Show pair" }).click();
    await seen(page.getByText('"lu" is not an ISO 639-3 code: write three lower-case letters, such as eng or swa.'));
    expect(await untiedFieldErrors(page)).toEqual([]);
    await page.getByLabel("Source", { exact: true }).fill("lug");
    await page.getByRole("button", { name: "Show pair" }).click();
    await seen(page.getByRole("heading", { name: "Glossary: lug → swa", level: 2 }));
    await seen(page.getByText("No terms for lug → swa yet. Add one or import a glossary.", { exact: true }));
    await seen(page.getByRole("heading", { name: "Translation memory: lug → swa", level: 2 }));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "translation-admin-03-other-pair");

    await page.getByLabel("Language pair").selectOption("eng-swa");
    await seen(page.getByRole("heading", { name: "Glossary: eng → swa", level: 2 }));
    await listsExactly(page, ["hospital", "memory"]);
  });

  step("imports a TMX memory (a file that is not TMX refused with the server's message), exports it", async () => {
    const file = page.getByLabel("TMX file");
    const importButton = page.getByRole("button", { name: "Import TMX", exact: true });
    await importButton.click();
    await seen(page.getByText("Choose a file to import.", { exact: true }));

    await file.setInputFiles({ name: "memory.tmx", mimeType: "application/xml", buffer: Buffer.from("<xliff/>") });
    await importButton.click();
    await toast(page, "This is not a TMX file: no <tmx> element.");
    await toastsGone(page);

    await file.setInputFiles({ name: "memory.tmx", mimeType: "application/xml", buffer: Buffer.from(TMX) });
    await importButton.click();
    await toast(page, "2 translation memory entries imported.");
    expect(await file.inputValue()).toBe("");
    await toastsGone(page);

    const tmx = await downloadOf(page, page.getByRole("button", { name: "Export TMX", exact: true }));
    expect(tmx.suggestedFilename()).toBe("tafsiri-memory-eng-swa.tmx");
    const xml = await textOf(tmx);
    expect(xml).toContain("<seg>Habari za leo?</seg>");
    expect(xml).toContain("<seg>Niambie kuhusu familia yako.</seg>");
    expect(xml).not.toContain("Merci.");
    await seen(page.getByText("Exported 2 entries to tafsiri-memory-eng-swa.tmx.", { exact: true }));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "translation-admin-04-memory-1440");
  });

  step("on a 375 px screen the page does not widen and axe finds nothing serious", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForFunction(() => {
      const sidebar = document.querySelector(".shell-sidebar");
      return !sidebar || sidebar.getBoundingClientRect().right <= 1;
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "translation-admin-05-375");
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
