// SPEC §2.14 Feedback, in a real browser with two contexts (admin, staff) on one server and one
// assigned audio: the staff member's comment shows with their name and reaches the admin's open
// screen without a reload; the admin's reply (sent with Ctrl+Enter) reaches the staff member the
// same way; a whitespace-only comment leaves Send disabled; text shows as plain text.
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
  useBrowserSuite,
} from "./support/browser";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const FILENAME = "feedback-control";
/** Two lines and markup that must show as typed, never as HTML. */
const STAFF_COMMENT = "Line one of my note.\nLine two: <b>not bold</b>";
const ADMIN_REPLY = "Thanks, noted.";

/** The task card of `filename` on the Tasks page. */
function taskCard(page: Page, filename: string): Locator {
  return page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename });
}

function commentBox(page: Page): Locator {
  return page.getByRole("textbox", { name: "Comment", exact: true });
}

function sendButton(page: Page): Locator {
  return page.getByRole("button", { name: "Send", exact: true });
}

/** The comments on screen, oldest first (the sub-navigation's 'Comments' list is another one). */
function comments(page: Page): Locator {
  return page
    .getByRole("region", { name: /^Comments/ })
    .getByRole("list")
    .getByRole("listitem");
}

/** The comment whose text contains `text`. */
function comment(page: Page, text: string): Locator {
  return comments(page).filter({ hasText: text });
}

/** Opens the audio from its task card, then 'Give Feedback' in the sub-navigation. */
async function openFeedback(page: Page, tasksLink: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: tasksLink, exact: true }).click();
  await atPath(page, "/Audios");
  await taskCard(page, FILENAME).click();
  await atPath(page, "/audiomanagement/audiocontrol");
  const nav = page.getByRole("navigation", { name: "Audio management" });
  await nav.getByRole("link", { name: "Give Feedback", exact: true }).click();
  await atPath(page, "/audiomanagement/feedback");
  await seen(page.getByRole("heading", { name: FILENAME, level: 1 }));
  await seen(page.getByRole("heading", { name: "Feedback", level: 2 }));
  expect(await nav.getByRole("link", { name: "Give Feedback", exact: true }).getAttribute("aria-current")).toBe("page");
}

describeBrowser("feedback", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let adminPage: Page;
  let staffPage: Page;
  /** The staff page's calls of comments.add, from the whitespace-only comment on. */
  const staffSends: string[] = [];

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staff = await server.createUser("Staff");
    // An uploaded audio assigned to the staff member, through the services the REST upload uses.
    await seedAudio(server, admin, { filename: FILENAME, assignTo: staff });
  });

  step("both open the audio's Feedback screen: no comments yet", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await openFeedback(adminPage, "All Tasks");
    await seen(adminPage.getByText("No comments yet.", { exact: true }));

    staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await openFeedback(staffPage, "My Tasks");
    await seen(staffPage.getByText("No comments yet.", { exact: true }));
    await seen(commentBox(staffPage));
    expect(await commentBox(staffPage).getAttribute("placeholder")).toBe("Write a comment...");
    expect(await sendButton(staffPage).isDisabled()).toBe(true);
    await screenshot(staffPage, "feedback-01-empty");
  });

  step("a whitespace-only comment leaves Send disabled", async () => {
    staffPage.on("request", (request) => {
      if (new URL(request.url()).pathname.includes("comments.add")) staffSends.push(request.url());
    });
    await commentBox(staffPage).fill("   \n\t  ");
    expect(await sendButton(staffPage).isDisabled()).toBe(true);
    await commentBox(staffPage).press("Control+Enter");
    // Nothing was sent: the next step's comment is the page's first call of comments.add.
    expect(await comments(staffPage).count()).toBe(0);
    await seen(staffPage.getByText("No comments yet.", { exact: true }));
    await screenshot(staffPage, "feedback-02-whitespace-disabled");
    await commentBox(staffPage).fill("");
  });

  step("the staff member comments: it shows with their name, and reaches the admin without a reload", async () => {
    await markWindow(adminPage);
    await commentBox(staffPage).fill(STAFF_COMMENT);
    expect(await sendButton(staffPage).isDisabled()).toBe(false);
    const sentAt = Date.now();
    await sendButton(staffPage).click();

    const mine = await seen(comment(staffPage, "Line one of my note."));
    // The first comment sent from the page, and the only one on it: the whitespace-only one never went.
    expect(staffSends).toHaveLength(1);
    expect(await comments(staffPage).count()).toBe(1);
    await seen(mine.getByText(staff.username, { exact: true }));
    await expect.poll(() => commentBox(staffPage).inputValue()).toBe("");
    // Plain text: the markup is shown as typed, the line break kept.
    expect(await mine.locator("b").count()).toBe(0);
    expect(await mine.locator(".comment-text").innerText()).toBe(STAFF_COMMENT);
    await screenshot(staffPage, "feedback-03-staff-commented");

    const theirs = await seen(comment(adminPage, "Line one of my note."));
    console.info(`the admin saw the comment ${Date.now() - sentAt} ms after the staff member pressed Send`);
    await seen(theirs.getByText(staff.username, { exact: true }));
    expect(await notReloaded(adminPage)).toBe(true);
    await screenshot(adminPage, "feedback-04-admin-sees-comment-live");
  });

  step("the admin replies with Ctrl+Enter: the staff member sees it without a reload", async () => {
    await markWindow(staffPage);
    await commentBox(adminPage).fill(ADMIN_REPLY);
    await commentBox(adminPage).press("Control+Enter");
    await seen(comment(adminPage, ADMIN_REPLY));
    await expect.poll(() => commentBox(adminPage).inputValue()).toBe("");

    const reply = await seen(comment(staffPage, ADMIN_REPLY));
    await seen(reply.getByText(admin.username, { exact: true }));
    expect(await notReloaded(staffPage)).toBe(true);
    // Oldest first.
    expect(await comments(staffPage).count()).toBe(2);
    expect(await comments(staffPage).nth(0).innerText()).toContain("Line one of my note.");
    expect(await comments(staffPage).nth(1).innerText()).toContain(ADMIN_REPLY);
    await screenshot(staffPage, "feedback-05-staff-sees-reply-live");
  });
});
