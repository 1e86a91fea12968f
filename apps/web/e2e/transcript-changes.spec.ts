// Decision 025, "what changed since the last review": an admin rejects a staff member's transcript
// on the Translated Transcript screen; the staff member changes two words in the editor and saves;
// the admin's screen, without a reload (live events), shows 'Changes since the version <admin>
// rejected on …' with exactly those two words struck through (<del>) and their replacements
// underlined (<ins>), each also said in words, '2 changes'; 'Show plain text' / 'Show changes'
// switch views (aria-pressed); the 'Version history' disclosure lists both versions with who saved
// them and the rejection with its reason. The staff member sees none of it. Axe finds nothing
// serious; screenshots under /tmp.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import { atPath, describeBrowser, seen, signIn, toast, toastsGone, useBrowserSuite } from "./support/browser";
import { isFocused, tabTo } from "./support/focus";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

const FILENAME = "changes-market";
const FIRST = "Nilienda sokoni jana asubuhi na mama yangu. Tulinunua ndizi, nyanya na vitunguu.";
const SECOND = "Nilienda dukani jana jioni na mama yangu. Tulinunua ndizi, nyanya na vitunguu.";
const REASON = "Check the place and the time of day.";
const SHOTS = "/tmp/h2-transcript-changes";

/** A screenshot under /tmp (never under docs/): what the window shows, or the whole page. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: `${SHOTS}-${name}.png`, fullPage });
}

/** The text of every element `locator` matches, in order. */
async function texts(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((els) => els.map((el) => el.textContent ?? ""));
}

/** Double-clicks the word `word` in the editor (selecting it, as a person would) and types `replacement`. */
async function replaceWord(page: Page, editor: Locator, word: string, replacement: string): Promise<void> {
  const box = await editor.evaluate((root, target) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(target) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + target.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    }
    return null;
  }, word);
  if (!box) throw new Error(`'${word}' is not in the editor`);
  await page.mouse.dblclick(box.x, box.y);
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString().trim())).toBe(word);
  await page.keyboard.type(replacement);
}

describeBrowser("what changed since the last review", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let audioId: string;
  let adminPage: Page;
  let staffPage: Page;

  const changes = (page: Page) => page.getByRole("region", { name: /^Changes since the version / });
  const diffView = (page: Page) => changes(page).getByTestId("transcript-diff");
  const history = (page: Page) => page.locator("details.version-history");

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    audioId = await seedAudio(suite.server, admin, { filename: FILENAME, assignTo: staff });
    await suite.server.harness.caller(staff).transcripts.save({ audioId, text: FIRST });
  });

  step("the admin rejects the transcript with a reason; nothing has changed since, so no diff", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await adminPage
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "All Tasks", exact: true })
      .click();
    await atPath(adminPage, "/Audios");
    await adminPage.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: FILENAME }).click();
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await adminPage
      .getByRole("navigation", { name: "Audio management" })
      .getByRole("link", { name: "Translated Transcript", exact: true })
      .click();
    await atPath(adminPage, "/audiomanagement/trascript");
    await seen(adminPage.getByTestId("transcript-text").getByText(FIRST, { exact: true }));

    await adminPage.getByRole("group", { name: "Review" }).getByRole("button", { name: "Reject", exact: true }).click();
    const dialog = adminPage.getByRole("dialog", { name: "Reject the transcript?" });
    await dialog.getByRole("textbox", { name: "Reason (optional)" }).fill(REASON);
    await dialog.getByRole("button", { name: "Reject", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await seen(adminPage.locator(".transcript-panel .panel-header [data-status='Rejected']"));
    // Reviewed and not saved again: nothing to compare.
    await expect
      .poll(async () => (await suite.server.harness.caller(admin).transcripts.history({ audioId })).versions.length)
      .toBe(1);
    expect(await changes(adminPage).count()).toBe(0);
  });

  step("the staff member changes two words in the editor and saves; they see no diff or history", async () => {
    staffPage = await suite.newPage("staff");
    const historyCalls: string[] = [];
    staffPage.on("request", (request) => {
      if (request.url().includes("transcripts.history")) historyCalls.push(request.url());
    });
    await openTranslatedTranscript(staffPage, staff, FILENAME);
    await seen(staffPage.getByTestId("transcript-text").getByText(FIRST, { exact: true }));
    await staffPage.getByRole("button", { name: "Write", exact: true }).click();
    const editor = await seen(staffPage.getByRole("textbox", { name: "Translated transcript editor" }));
    await replaceWord(staffPage, editor, "sokoni", "dukani");
    await replaceWord(staffPage, editor, "asubuhi", "jioni");
    expect(await editor.innerText()).toBe(SECOND);
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    await toast(staffPage, "Transcript saved and uploaded successfully.");
    await seen(staffPage.getByTestId("transcript-text").getByText(SECOND, { exact: true }));
    await toastsGone(staffPage);
    expect((await suite.server.harness.caller(admin).transcripts.get({ audioId })).text).toBe(SECOND);
    // Staff see nothing new, and never ask for the history.
    expect(await changes(staffPage).count()).toBe(0);
    expect(await history(staffPage).count()).toBe(0);
    expect(historyCalls).toEqual([]);
  });

  step("the admin's screen shows exactly the two changes, live, struck through and underlined", async () => {
    const region = await seen(changes(adminPage));
    const title = await region.getByRole("heading").innerText();
    expect(title).toMatch(
      new RegExp(
        `^Changes since the version ${admin.username} rejected on \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2}$`,
      ),
    );
    await seen(region.getByText(`Reason given: ${REASON}`, { exact: true }));
    expect(await region.getByTestId("change-count").innerText()).toBe("2 changes (2 words removed, 2 added)");
    expect(await texts(diffView(adminPage).locator("del"))).toEqual(["sokoni", "asubuhi"]);
    expect(await texts(diffView(adminPage).locator("ins"))).toEqual(["dukani", "jioni"]);
    // Read aloud, each change says what it is; the words themselves stay in reading order.
    expect(await diffView(adminPage).evaluate((el) => el.textContent)).toBe(
      "Nilienda removed: sokoniadded: dukani jana removed: asubuhiadded: jioni na mama yangu. Tulinunua ndizi, nyanya na vitunguu.",
    );
    // Not by colour alone: removed words are struck through, added ones underlined.
    const decoration = (selector: string) =>
      diffView(adminPage)
        .locator(selector)
        .first()
        .evaluate((el) => getComputedStyle(el).textDecorationLine);
    expect(await decoration("del")).toContain("line-through");
    expect(await decoration("ins")).toContain("underline");
    expect(await adminPage.getByRole("button", { name: "Show changes" }).getAttribute("aria-pressed")).toBe("true");
    expect(await adminPage.getByRole("button", { name: "Show plain text" }).getAttribute("aria-pressed")).toBe("false");
    await shot(adminPage, "01-diff");
    const violations = await seriousAxeViolations(adminPage);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  step("'Show plain text' shows the current text alone; 'Show changes' brings the diff back (keyboard)", async () => {
    const plainButton = adminPage.getByRole("button", { name: "Show plain text" });
    await adminPage.getByRole("button", { name: "Show changes" }).focus();
    await tabTo(adminPage, plainButton, { max: 1 });
    await adminPage.keyboard.press("Enter");
    expect(await plainButton.getAttribute("aria-pressed")).toBe("true");
    expect(await isFocused(plainButton)).toBe(true);
    const plain = await seen(changes(adminPage).getByTestId("reviewed-transcript-text"));
    expect(await plain.innerText()).toBe(SECOND);
    expect(await changes(adminPage).locator("del, ins").count()).toBe(0);
    await shot(adminPage, "02-plain");

    const changesButton = adminPage.getByRole("button", { name: "Show changes" });
    await changesButton.click();
    expect(await changesButton.getAttribute("aria-pressed")).toBe("true");
    expect(await texts(diffView(adminPage).locator("del"))).toEqual(["sokoni", "asubuhi"]);
  });

  step("the version history lists both versions, who saved them, and the rejection with its reason", async () => {
    const details = history(adminPage);
    const summary = details.locator("summary");
    expect(await summary.innerText()).toBe("Version history (2 versions)");
    expect(await details.getAttribute("open")).toBeNull();
    await adminPage.getByRole("button", { name: "Show plain text" }).focus();
    await tabTo(adminPage, summary, { max: 1 });
    await adminPage.keyboard.press("Enter");
    const versions = details.getByTestId("transcript-version");
    await seen(versions.first());
    expect(await versions.count()).toBe(2);
    const [newer, older] = [versions.nth(0), versions.nth(1)];
    await seen(newer.getByText("Current version", { exact: true }));
    await seen(newer.getByText("Not reviewed yet", { exact: true }));
    expect(await newer.innerText()).toContain(`Saved by ${staff.username} on `);
    expect(await newer.innerText()).toMatch(new RegExp(`^${FILENAME}_TRANSLATEDTRANSCRIPT_.*\\.cha`));
    await seen(older.getByText("Compared above", { exact: true }));
    expect(await older.getByText("Current version").count()).toBe(0);
    const review = await older.locator(".version-reviews li").innerText();
    expect(review).toMatch(new RegExp(`^Rejected by ${admin.username} on .+: ${REASON.replace(/\./g, "\\.")}$`));
    await shot(adminPage, "03-history");
    await older.scrollIntoViewIfNeeded();
    await shot(adminPage, "03-history-window", false);
    const violations = await seriousAxeViolations(adminPage);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  step("at 375 px the diff and the history fit the width", async () => {
    await adminPage.setViewportSize({ width: 375, height: 800 });
    await seen(diffView(adminPage));
    const widens = await adminPage.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(widens).toBe(false);
    await shot(adminPage, "04-narrow");
    await adminPage.setViewportSize({ width: 1440, height: 900 });
  });

  step("review mode shows the same two changes for the same submission", async () => {
    await adminPage.goto("/submission/review?status=needsReview");
    await atPath(adminPage, "/submission/review");
    const transcript = adminPage.getByRole("region", { name: "Transcript", exact: true });
    const region = await seen(transcript.getByRole("region", { name: /^Changes since the version / }));
    expect(await region.getByRole("heading").innerText()).toMatch(
      new RegExp(`^Changes since the version ${admin.username} rejected on `),
    );
    expect(await region.getByTestId("change-count").innerText()).toBe("2 changes (2 words removed, 2 added)");
    const diff = region.getByTestId("transcript-diff");
    expect(await texts(diff.locator("del"))).toEqual(["sokoni", "asubuhi"]);
    expect(await texts(diff.locator("ins"))).toEqual(["dukani", "jioni"]);
    await seen(transcript.locator("details.version-history summary").getByText("Version history (2 versions)"));
    await shot(adminPage, "05-review-mode");
    const violations = await seriousAxeViolations(adminPage, { include: ['[aria-label="Transcript"]'] });
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  step("when the history cannot be loaded the admin is told, and Retry brings the changes", async () => {
    const failing = "**/trpc/**";
    await adminPage.route(failing, async (route) => {
      if (route.request().url().includes("transcripts.history")) await route.fulfill({ status: 500, body: "Down" });
      else await route.continue();
    });
    await adminPage.goto("/audiomanagement/trascript");
    const alert = await seen(
      adminPage.getByRole("alert").filter({ hasText: "Could not load the changes since the last review." }),
    );
    expect(await changes(adminPage).count()).toBe(0);
    await shot(adminPage, "06-error", false);
    await adminPage.unroute(failing);
    await alert.getByRole("button", { name: "Retry" }).click();
    await seen(changes(adminPage));
    expect(await texts(diffView(adminPage).locator("ins"))).toEqual(["dukani", "jioni"]);
  });
});
