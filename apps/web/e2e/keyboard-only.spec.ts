// The main job by keyboard alone (docs/accessibility.md): the core workflow of core-flow.spec.ts done
// with the keyboard only (Tab, Shift+Tab, Enter, Escape and typed text; the operating system's file
// dialog is the one part that is not, its files are set on the file chooser). The admin signs in,
// uploads an audio and assigns it; the staff member signs in, opens the task, writes and saves a
// transcript and uploads a recording; the admin approves both. Moving between pages goes through
// the sidebar and menu links. Every element Tab lands on must show a focus ring (2 px or wider,
// 3:1 against the background behind it). The signed-out pages and the signed-in shell lead with a
// 'Skip to content' link into the main content, and a dialog opened by keyboard holds focus inside
// until Escape gives it back to its opener.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { atPath, describeBrowser, screenshot, seen, toast, useBrowserSuite } from "./support/browser";
import { expectFocusRing, focusArrives, focusInside, isFocused, tabTo } from "./support/focus";
import { createSteps, fixture } from "./support/steps";
import type { TestUser } from "./support/server";

const AUDIO = "single-control";
const TRANSCRIPT_TEXT = "Moja, mbili, tatu.";
/** Tab presses made inside the open dialog, each way: more than it has controls, so focus must wrap. */
const DIALOG_PRESSES = 6;

/** The task card of `filename` on the Tasks page (/Audios). */
function taskCard(page: Page, filename: string): Locator {
  return page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename });
}

/** A link of the sidebar's main navigation. */
function sidebarLink(page: Page, name: string): Locator {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

/** A link of the audio-management sub-navigation. */
function audioScreenLink(page: Page, name: "Translated Transcript" | "Translated Audio"): Locator {
  return page.getByRole("navigation", { name: "Audio management" }).getByRole("link", { name, exact: true });
}

/** A link of the management side menu. */
function managementLink(page: Page, name: string): Locator {
  return page.getByRole("navigation", { name: "Management" }).getByRole("link", { name, exact: true });
}

/** The text of the selected option of the `<select>` `select`. */
async function selectedText(select: Locator): Promise<string> {
  return select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? "");
}

/**
 * Tabs to the closed `<select>` `select` and types `option`, the way a keyboard user picks an
 * option (type-ahead selects the first option starting with what was typed); checks it was chosen.
 */
async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  await tabTo(page, select);
  await page.keyboard.type(option);
  expect(await selectedText(select), `option chosen by typing '${option}'`).toBe(option);
}

/**
 * Tabs to the drop zone `zone` and presses Enter, which opens the file dialog; answers its files
 * with `file` (the dialog itself is the operating system's, the one part a test cannot type into).
 */
async function chooseFile(page: Page, zone: Locator, file: string): Promise<void> {
  // Listened for before tabbing: Playwright turns the file chooser's interception on asynchronously,
  // and an Enter pressed right after asking for the event can open the dialog before it is.
  const chooser = page.waitForEvent("filechooser");
  await tabTo(page, zone);
  await page.keyboard.press("Enter");
  await (await chooser).setFiles(fixture(file));
}

/** Tabs to `link` (backwards when `backward`), presses Enter and waits for `path`. */
async function follow(page: Page, link: Locator, path: string, backward = false): Promise<void> {
  await tabTo(page, link, { backward });
  await page.keyboard.press("Enter");
  await atPath(page, path);
}

/**
 * Checks the first Tab on the page as it is focuses a visible 'Skip to content' link with a focus
 * ring (saved as the screenshot `shot` when given), that Enter on it moves focus to #main-content,
 * and that the next Tab focuses `first`, inside the main content.
 */
async function skipToContent(page: Page, first: Locator, shot?: string): Promise<void> {
  const skip = page.getByRole("link", { name: "Skip to content" });
  await page.keyboard.press("Tab");
  expect(await isFocused(skip), "the first Tab focuses 'Skip to content'").toBe(true);
  await expectFocusRing(page, "'Skip to content'");
  const box = await skip.boundingBox();
  expect(box, "'Skip to content' is laid out").not.toBeNull();
  expect(box!.y, "'Skip to content' is on screen once focused").toBeGreaterThanOrEqual(0);
  expect(box!.height).toBeGreaterThan(0);
  if (shot) await screenshot(page, shot);

  await page.keyboard.press("Enter");
  const main = page.locator("#main-content");
  await focusArrives(page, main);
  await page.keyboard.press("Tab");
  expect(await focusInside(main), "the next Tab stays in main").toBe(true);
  expect(await isFocused(first), `the next Tab focuses ${first}`).toBe(true);
  await expectFocusRing(page, "first control of the main content");
}

/**
 * Tabs to the Review group's Approve and presses Enter; checks the status shown becomes 'Approved'
 * and that focus, which the button loses once disabled, stays in the Review group, with its ring.
 */
async function approve(page: Page): Promise<void> {
  const review = page.getByRole("group", { name: "Review" });
  await tabTo(page, review.getByRole("button", { name: "Approve" }));
  await page.keyboard.press("Enter");
  await seen(page.getByText("Approved", { exact: true }));
  await focusArrives(page, review);
  await expectFocusRing(page, "the Review group after Approve");
}

/** Fills the sign-in form on screen from the keyboard: Tab to each field, type, Enter. */
async function signInByKeyboard(page: Page, user: TestUser): Promise<void> {
  await tabTo(page, page.getByLabel("Email", { exact: true }), { max: 5 });
  await page.keyboard.type(user.email);
  await tabTo(page, page.getByLabel("Password", { exact: true }), { max: 1 });
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname.toLowerCase() !== "/signin");
}

describeBrowser("the core workflow by keyboard alone", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let adminPage: Page;
  let staffPage: Page;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
  });

  step("/signin leads with 'Skip to content', which moves focus to the form", async () => {
    adminPage = await suite.newPage("admin");
    await adminPage.goto("/signin");
    await seen(adminPage.getByRole("heading", { name: "Sign in" }));
    await skipToContent(adminPage, adminPage.getByLabel("Email", { exact: true }), "keyboard-only-01-skip-link-ring");
  });

  step("the admin signs in from the keyboard", async () => {
    await adminPage.keyboard.type(admin.email);
    await tabTo(adminPage, adminPage.getByLabel("Password", { exact: true }), { max: 1 });
    await adminPage.keyboard.type(admin.password);
    await adminPage.keyboard.press("Enter");
    await atPath(adminPage, "/");
    await seen(adminPage.getByRole("heading", { level: 1 }));
  });

  step("the admin reaches Upload through the sidebar's Management link", async () => {
    await follow(adminPage, sidebarLink(adminPage, "Management"), "/management/upload");
    await seen(adminPage.getByRole("heading", { name: "Upload", exact: true }));
  });

  step("single upload: category typed, file chosen from the drop zone, Upload pressed", async () => {
    const single = adminPage.getByRole("region", { name: "Single upload" });
    await chooseOption(adminPage, single.getByLabel("Category"), "Control");
    await chooseFile(adminPage, single.getByRole("button", { name: /Drop an audio file here/ }), `${AUDIO}.wav`);
    await seen(single.getByText(`${AUDIO}.wav`, { exact: true }));
    await tabTo(adminPage, single.getByRole("button", { name: "Upload", exact: true }));
    await screenshot(adminPage, "keyboard-only-02-button-ring");
    await adminPage.keyboard.press("Enter");
    await toast(adminPage, `${AUDIO} has been uploaded successfully.`);
  });

  step("Assign Tasks: the staff member is typed into the row's list and Assign pressed", async () => {
    await follow(adminPage, managementLink(adminPage, "Create Tasks"), "/management/createtasks", true);
    await seen(adminPage.getByRole("heading", { name: "Assign Tasks", exact: true }));
    const table = adminPage.getByRole("table");
    const row = table.getByRole("row").filter({ has: adminPage.getByRole("cell", { name: AUDIO, exact: true }) });
    await chooseOption(adminPage, row.getByLabel(`Staff for ${AUDIO}`), staff.username);
    await tabTo(adminPage, row.getByRole("button", { name: "Assign", exact: true }), { max: 1 });
    await adminPage.keyboard.press("Enter");
    await toast(adminPage, "Audio assigned successfully!");
    await table.getByRole("cell", { name: AUDIO, exact: true }).waitFor({ state: "detached" });
  });

  step("the staff member signs in from the keyboard", async () => {
    staffPage = await suite.newPage("staff");
    await staffPage.goto("/signin");
    await seen(staffPage.getByRole("heading", { name: "Sign in" }));
    await signInByKeyboard(staffPage, staff);
    await atPath(staffPage, "/Audios");
  });

  step("/Audios leads with 'Skip to content'; past it the task card opens with Enter", async () => {
    const card = await seen(taskCard(staffPage, AUDIO));
    await skipToContent(staffPage, card);
    await staffPage.keyboard.press("Enter");
    await atPath(staffPage, "/audiomanagement/audiocontrol");
    await seen(staffPage.getByRole("heading", { name: AUDIO, level: 1 }));
  });

  step("Translated Transcript: Write, type in the editor, Save Changes", async () => {
    await follow(staffPage, audioScreenLink(staffPage, "Translated Transcript"), "/audiomanagement/trascript");
    await seen(staffPage.getByText("No Transcript", { exact: true }));
    await tabTo(staffPage, staffPage.getByRole("button", { name: "Write", exact: true }));
    await staffPage.keyboard.press("Enter");
    const editor = await seen(staffPage.getByRole("textbox", { name: "Translated transcript editor" }));
    await focusArrives(staffPage, editor);
    await staffPage.keyboard.type(TRANSCRIPT_TEXT);
    await tabTo(staffPage, staffPage.getByRole("button", { name: "Save Changes" }), { max: 2 });
    await staffPage.keyboard.press("Enter");
    await toast(staffPage, "Transcript saved and uploaded successfully.");
    await seen(staffPage.getByText("Pending", { exact: true }));
    await seen(staffPage.getByText(TRANSCRIPT_TEXT, { exact: true }));
  });

  step("Translated Audio: file from the drop zone, recorder typed, Upload Audio", async () => {
    await follow(staffPage, audioScreenLink(staffPage, "Translated Audio"), "/audiomanagement/translatedaudio", true);
    await seen(staffPage.getByText("No submission yet", { exact: true }));
    await chooseFile(
      staffPage,
      staffPage.getByRole("button", { name: /Drag and drop the translated audio here/ }),
      "translated-recording.mp3",
    );
    await seen(staffPage.getByText("translated-recording.mp3", { exact: true }));
    await chooseOption(staffPage, staffPage.getByLabel("Select Recorder"), `${staff.username} (You)`);
    await tabTo(staffPage, staffPage.getByRole("button", { name: "Upload Audio" }));
    await staffPage.keyboard.press("Enter");
    await toast(staffPage, "Translation Audio file uploaded successfully.");
    await seen(staffPage.getByText("Pending", { exact: true }));
    await seen(staffPage.getByText(`Recorded by ${staff.username}`, { exact: true }));
  });

  step("the admin opens the task from All Tasks and approves the transcript", async () => {
    // The screenshot is taken on Assign Tasks, which fits the window: a full-page screenshot of a
    // longer page resizes the window for a moment, which lays the shell out again and can take the
    // sidebar link's focus away.
    const allTasks = sidebarLink(adminPage, "All Tasks");
    await tabTo(adminPage, allTasks);
    await screenshot(adminPage, "keyboard-only-03-sidebar-link-ring");
    expect(await isFocused(allTasks), "All Tasks still focused after the screenshot").toBe(true);
    await adminPage.keyboard.press("Enter");
    await atPath(adminPage, "/Audios");
    const card = await seen(taskCard(adminPage, AUDIO));
    await seen(card.getByText(`Assigned to ${staff.username}`, { exact: true }));
    await tabTo(adminPage, card);
    await adminPage.keyboard.press("Enter");
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await follow(adminPage, audioScreenLink(adminPage, "Translated Transcript"), "/audiomanagement/trascript");
    await seen(adminPage.getByText(TRANSCRIPT_TEXT, { exact: true }));
    await seen(adminPage.getByText("Pending", { exact: true }));
    await approve(adminPage);
    await adminPage.getByRole("button", { name: "Save Changes" }).waitFor({ state: "detached" });
  });

  step("the admin approves the translated recording", async () => {
    await follow(adminPage, audioScreenLink(adminPage, "Translated Audio"), "/audiomanagement/translatedaudio", true);
    await seen(adminPage.getByText("Pending", { exact: true }));
    await approve(adminPage);
    await toast(adminPage, "Translation Audio file approved successfully.");
  });

  step("a dialog opened by keyboard keeps focus inside; Escape gives it back to its opener", async () => {
    await follow(adminPage, sidebarLink(adminPage, "Management"), "/management/upload", true);
    await follow(adminPage, managementLink(adminPage, "Manage Audios"), "/management/manageaudios");
    const row = await seen(adminPage.getByRole("row").filter({ hasText: AUDIO }));
    const opener = row.getByRole("button", { name: "Delete" });
    await tabTo(adminPage, opener);
    await adminPage.keyboard.press("Enter");
    const dialog = await seen(
      adminPage.getByRole("alertdialog", { name: "Are you sure you want to delete this audio?" }),
    );
    expect(await focusInside(dialog), "focus moves into the dialog").toBe(true);
    await expectFocusRing(adminPage, "the dialog's first control");
    await screenshot(adminPage, "keyboard-only-04-dialog-focus");
    const controls = await dialog.getByRole("button").count();
    for (const key of ["Tab", "Shift+Tab"]) {
      const visited = new Set<string>();
      for (let press = 1; press <= DIALOG_PRESSES; press++) {
        await adminPage.keyboard.press(key);
        expect(await focusInside(dialog), `focus still in the dialog after ${key} ${press}`).toBe(true);
        visited.add((await expectFocusRing(adminPage, `${key} ${press} in the dialog`)).element);
      }
      expect(visited.size, `${key} goes round every control of the dialog`).toBe(controls);
    }
    await adminPage.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await focusArrives(adminPage, opener);
    await seen(row);
  });
});
