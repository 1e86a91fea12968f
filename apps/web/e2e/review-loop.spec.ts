// SPEC §2.7, §4: the review loop in a real browser with three contexts (admin, staff A,
// staff B) on one server. A saves a transcript: the row appears on the admin's Submissions page
// under 'Needs review' without a reload. The admin goes to the task from the row and rejects with
// a reason: A's bell shows it, A's Feedback screen shows it as a comment; A replies and the admin
// sees the reply live in the row's comments. A fixes and saves, the admin approves. A recommends
// the audio to B: B's notification opens /Recordings, the card opens the audio, B uploads a
// recording. Search: A finds A's audio and not B's, the admin both, Escape closes the dialog.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  atPath,
  describeBrowser,
  markWindow,
  notReloaded,
  screenshot,
  seen,
  signIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps, fixture } from "./support/steps";
import type { TestUser } from "./support/server";

const AUDIO_A = "loop-river-alpha";
const AUDIO_B = "loop-river-beta";
const FIRST_TRANSCRIPT = "Line one.";
const FIXED_TRANSCRIPT = "Line two.";
const REASON = "Line 2 is missing";
const REPLY = "Added line 2, please look again.";

/** The row of `filename` in the Submissions table. */
function submissionRow(page: Page, filename: string): Locator {
  return page
    .getByRole("table", { name: "All Submissions" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: filename, exact: true }) });
}

/** The status filter button whose label starts with `label` (its count follows). */
function filterButton(page: Page, label: string): Locator {
  return page
    .getByRole("group", { name: "Show submissions" })
    .getByRole("button", { name: new RegExp(`^${label.replace(/[()]/g, "\\$&")}`) });
}

/** The bell in the header. */
function bell(page: Page): Locator {
  return page.getByRole("banner").getByRole("button", { name: "Notifications", exact: true });
}

/** Opens the bell's menu and returns the entry containing `message`. */
async function notification(page: Page, message: string): Promise<Locator> {
  await bell(page).click();
  const menu = await seen(page.getByRole("menu", { name: "Notifications" }));
  return seen(menu.getByRole("menuitem").filter({ hasText: message }));
}

/** The task card of `filename` on the Tasks page. */
function taskCard(page: Page, filename: string): Locator {
  return page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename });
}

/** Opens a screen of the audio-management sub-navigation. */
async function openAudioScreen(page: Page, name: string, path: string): Promise<void> {
  await page.getByRole("navigation", { name: "Audio management" }).getByRole("link", { name, exact: true }).click();
  await atPath(page, path);
}

/** Writes `text` as the transcript (replacing what is there) and saves it. */
async function saveTranscript(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "Write", exact: true }).click();
  const editor = await seen(page.getByRole("textbox", { name: "Translated transcript editor" }));
  await editor.press("ControlOrMeta+a");
  await editor.press("Backspace");
  await editor.pressSequentially(text);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await toast(page, "Transcript saved and uploaded successfully.");
  await toastsGone(page);
}

/** The header's search dialog, opened, with `keyword` typed; returns the dialog. */
async function search(page: Page, keyword: string): Promise<Locator> {
  await page.getByRole("banner").getByRole("button", { name: "Search", exact: true }).click();
  const dialog = await seen(page.getByRole("dialog"));
  await dialog.getByRole("combobox").fill(keyword);
  return dialog;
}

/** The filenames the search dialog lists once its search settled. */
async function results(dialog: Locator): Promise<string[]> {
  const list = dialog.getByRole("listbox");
  await seen(list.or(dialog.getByText("No results found", { exact: true })));
  return (await list.getByRole("option").allInnerTexts()).map((text) => text.split("\n")[0]!.trim());
}

describeBrowser("review loop: submissions, reject with a reason, feedback, recommend, search", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staffA: TestUser;
  let staffB: TestUser;
  let adminPage: Page;
  let pageA: Page;
  let pageB: Page;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staffA = await server.createUser("Staff");
    staffB = await server.createUser("Staff");
    await seedAudio(server, admin, { filename: AUDIO_A, assignTo: staffA });
    await seedAudio(server, admin, { filename: AUDIO_B, category: "Dementia", assignTo: staffB });
  });

  step("all three sign in; the admin's Submissions page shows 'No submissions yet'", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await adminPage.goto("/submission/general");
    await seen(adminPage.getByRole("heading", { name: "Submissions", level: 1 }));
    await seen(adminPage.getByText("All submissions", { exact: true }));
    await filterButton(adminPage, "Needs review").click();
    await seen(adminPage.getByText("No submissions yet", { exact: true }));
    await screenshot(adminPage, "review-loop-01-admin-no-submissions");

    pageA = await suite.newPage("staff-a");
    await signIn(pageA, staffA);
    pageB = await suite.newPage("staff-b");
    await signIn(pageB, staffB);
  });

  step(
    "A saves a transcript: the row appears under 'Needs review' without a reload, Script Status Pending",
    async () => {
      await markWindow(adminPage);
      await seen(taskCard(pageA, AUDIO_A));
      await taskCard(pageA, AUDIO_A).click();
      await atPath(pageA, "/audiomanagement/audiocontrol");
      await openAudioScreen(pageA, "Translated Transcript", "/audiomanagement/trascript");
      await saveTranscript(pageA, FIRST_TRANSCRIPT);

      const row = await seen(submissionRow(adminPage, AUDIO_A));
      expect(await notReloaded(adminPage)).toBe(true);
      expect(await filterButton(adminPage, "Needs review").getAttribute("aria-pressed")).toBe("true");
      // Cells by their column's heading: admins have a selection column first (bulk review).
      const headings = await adminPage.getByRole("columnheader").allInnerTexts();
      const cells = await row.getByRole("cell").allInnerTexts();
      const cell = (heading: string) => cells[headings.findIndex((h) => h.trim() === heading)];
      expect(cell("Staff")).toBe(staffA.username);
      expect(cell("Audio Name")).toBe(AUDIO_A);
      // The Duration column shows '—' until the server has decoded the audio.
      expect(cell("Script Status")).toBe("Pending");
      expect(cell("Audio Status")).toBe("No Recording");
      await seen(row.getByText("Transcript present", { exact: true }));
      await seen(filterButton(adminPage, "Needs review (1)"));
      await screenshot(adminPage, "review-loop-02-admin-needs-review");
    },
  );

  step("the admin goes to the task and rejects the transcript with a reason", async () => {
    await submissionRow(adminPage, AUDIO_A)
      .getByRole("button", { name: `Go to task ${AUDIO_A}` })
      .click();
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await seen(adminPage.getByRole("heading", { name: AUDIO_A, level: 1 }));
    await openAudioScreen(adminPage, "Translated Transcript", "/audiomanagement/trascript");
    await seen(adminPage.getByText(FIRST_TRANSCRIPT, { exact: true }));
    const review = adminPage.getByRole("group", { name: "Review" });
    await review.getByRole("button", { name: "Reject" }).click();
    const dialog = await seen(adminPage.getByRole("dialog"));
    await dialog.getByRole("textbox", { name: /Reason/ }).fill(REASON);
    await screenshot(adminPage, "review-loop-03-reject-with-reason");
    await dialog.getByRole("button", { name: "Reject", exact: true }).click();
    await seen(adminPage.getByText("Rejected", { exact: true }));
    await toastsGone(adminPage);
  });

  step("A's bell shows the rejection with the reason; A's Feedback screen shows the reason as a comment", async () => {
    const entry = await notification(pageA, `${admin.username} rejected the transcript for ${AUDIO_A}: ${REASON}`);
    await screenshot(pageA, "review-loop-04-staff-a-bell");
    await entry.click();
    await atPath(pageA, "/audiomanagement/trascript");
    await openAudioScreen(pageA, "Give Feedback", "/audiomanagement/feedback");
    const comment = await seen(
      pageA
        .getByRole("region", { name: /^Comments/ })
        .getByRole("listitem")
        .filter({ hasText: REASON }),
    );
    await seen(comment.getByText(admin.username, { exact: true }));
    await screenshot(pageA, "review-loop-05-staff-a-feedback");
  });

  step("A replies: the admin sees the reply live in the row's comments", async () => {
    await adminPage.goto("/submission/general");
    const row = await seen(submissionRow(adminPage, AUDIO_A));
    await seen(row.getByText("Rejected", { exact: true }));
    const toggle = row.getByRole("button", { name: `1 comment on ${AUDIO_A}` });
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const comments = adminPage.getByRole("list", { name: "Comments" });
    await seen(comments.getByText(REASON, { exact: true }));
    await markWindow(adminPage);

    await pageA.getByRole("textbox", { name: "Comment", exact: true }).fill(REPLY);
    await pageA.getByRole("button", { name: "Send", exact: true }).click();
    const reply = await seen(comments.getByRole("listitem").filter({ hasText: REPLY }));
    await seen(reply.getByText(staffA.username, { exact: true }));
    await seen(row.getByRole("button", { name: `2 comments on ${AUDIO_A}` }));
    expect(await notReloaded(adminPage)).toBe(true);
    await screenshot(adminPage, "review-loop-06-admin-sees-reply");
    const violations = await seriousAxeViolations(adminPage);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  step("A fixes and saves: the row is back under 'Needs review'; the admin approves", async () => {
    await openAudioScreen(pageA, "Translated Transcript", "/audiomanagement/trascript");
    await saveTranscript(pageA, FIXED_TRANSCRIPT);
    await filterButton(adminPage, "Needs review").click();
    const row = await seen(submissionRow(adminPage, AUDIO_A));
    await seen(row.getByText("Pending", { exact: true }));

    await row.getByRole("button", { name: `Go to task ${AUDIO_A}` }).click();
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await openAudioScreen(adminPage, "Translated Transcript", "/audiomanagement/trascript");
    await seen(adminPage.getByText(FIXED_TRANSCRIPT, { exact: true }));
    await adminPage.getByRole("group", { name: "Review" }).getByRole("button", { name: "Approve" }).click();
    await seen(adminPage.getByText("Approved", { exact: true }));
    await notification(pageA, `${admin.username} approved the transcript for ${AUDIO_A}`);
    await pageA.keyboard.press("Escape");
  });

  step("A recommends the audio to B: B's notification opens /Recordings, the card opens the audio", async () => {
    await openAudioScreen(pageA, "Recommend Audio", "/audiomanagement/recommend");
    await pageA.getByLabel("Select staff").selectOption({ label: staffB.username });
    await pageA.getByRole("button", { name: "Submit Recommendation" }).click();
    await toast(pageA, "Recommendation sent successfully!.");

    const entry = await notification(pageB, `${staffA.username} recommended an audio for recording.`);
    await entry.click();
    // The spec's notification link is '/Recordings/' (SPEC §4); the router matches it to /Recordings.
    await atPath(pageB, "/Recordings/");
    await seen(pageB.getByRole("heading", { name: "Recommended Recordings", level: 1 }));
    const card = await seen(
      pageB.getByRole("list", { name: "Recommended recordings" }).getByRole("button").filter({ hasText: AUDIO_A }),
    );
    await screenshot(pageB, "review-loop-07-staff-b-recordings");
    await card.click();
    await atPath(pageB, "/audiomanagement/audiocontrol");
    await seen(pageB.getByRole("heading", { name: AUDIO_A, level: 1 }));
  });

  step("B uploads a recording of A's audio", async () => {
    await openAudioScreen(pageB, "Translated Audio", "/audiomanagement/translatedaudio");
    await pageB.getByLabel("Translated audio file").setInputFiles(fixture("translated-recording.mp3"));
    await pageB.getByLabel("Select Recorder").selectOption({ label: `${staffB.username} (You)` });
    await pageB.getByRole("button", { name: "Upload Audio" }).click();
    await toast(pageB, "Translation Audio file uploaded successfully.");
    await seen(pageB.getByText(`Recorded by ${staffB.username}`, { exact: true }));

    await adminPage.goto("/submission/general?status=needsReview");
    const row = await seen(submissionRow(adminPage, AUDIO_A));
    await seen(row.getByText("Recording present", { exact: true }));
    await screenshot(adminPage, "review-loop-08-admin-recording-pending");
  });

  step("search: A finds A's audio and not B's; the admin finds both; Escape closes the dialog", async () => {
    const dialogA = await search(pageA, "RIVER");
    await expect.poll(() => results(dialogA)).toEqual([AUDIO_A]);
    await screenshot(pageA, "review-loop-09-staff-a-search");
    await pageA.keyboard.press("Escape");
    await dialogA.waitFor({ state: "detached" });

    const dialogAdmin = await search(adminPage, "river");
    await expect.poll(async () => (await results(dialogAdmin)).sort()).toEqual([AUDIO_A, AUDIO_B].sort());
    await screenshot(adminPage, "review-loop-10-admin-search");
    await adminPage.keyboard.press("Escape");
    await dialogAdmin.waitFor({ state: "detached" });
  });

  step("staff see 'My submissions': A only A's row, B none of A's", async () => {
    await pageA.goto("/submission/general");
    await seen(pageA.getByText("My submissions", { exact: true }));
    await seen(submissionRow(pageA, AUDIO_A));
    expect(await pageA.getByRole("table", { name: "All Submissions" }).getByRole("row").count()).toBe(2);
    await screenshot(pageA, "review-loop-11-staff-a-my-submissions");

    await pageB.goto("/submission/general");
    await seen(pageB.getByText("My submissions", { exact: true }));
    await seen(pageB.getByText("No submissions yet", { exact: true }));
    expect(await submissionRow(pageB, AUDIO_A).count()).toBe(0);
  });
});
