// Decisions 004 and 005: live notifications and live views in a real browser, two contexts
// (admin, staff) on one server. The staff member saves a transcript: the admin's bell badge rises
// within 2 s without a reload and the entry reads '{username} uploaded a new transcript for
// {filename}'; the admin approves: the staff member's task card turns Approved without a reload;
// the admin opens the entry: it becomes Read and the browser is on its link. After the staff
// member signs out, their page's WebSocket is closed and no further event reaches it.
import { beforeAll, expect } from "vitest";
import type { Locator, Page, WebSocket } from "playwright-core";
import {
  atPath,
  describeBrowser,
  markWindow,
  notReloaded,
  screenshot,
  seen,
  signIn,
  toast,
  useBrowserSuite,
} from "./support/browser";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const FILENAME = "live-control";
const TRANSCRIPT_TEXT = "Habari za asubuhi.";
/** The badge rises within 2 s of the save. */
const LIVE_WITHIN_MS = 2_000;
/**
 * How long the signed-out page is watched for a frame or a new socket after the event reached the
 * admin: as long as a live page may take to hear it. Kept as a wait: the page has no socket left,
 * so nothing on it can show sooner that nothing will come (a closed socket that reconnected would
 * do so on its first retry, 0.5 s after the close).
 */
const SIGNED_OUT_WATCH_MS = LIVE_WITHIN_MS;

/** The bell in the header. */
function bell(page: Page): Locator {
  return page.getByRole("banner").getByRole("button", { name: "Notifications", exact: true });
}

/** The unread-count badge on the bell. */
function badge(page: Page): Locator {
  return page.getByRole("banner").getByTestId("notification-badge");
}

/** Opens the bell's menu and returns it. */
async function openBell(page: Page): Promise<Locator> {
  await bell(page).click();
  return seen(page.getByRole("menu", { name: "Notifications" }));
}

/** The entry of the open bell menu whose message is `message`. */
function entry(menu: Locator, message: string): Locator {
  return menu.getByRole("menuitem").filter({ hasText: message });
}

/** The task card of `filename` on the Tasks page. */
function taskCard(page: Page, filename: string): Locator {
  return page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename });
}

/** Every WebSocket a page opens, with the frames it receives after `since` (ms since the epoch). */
function watchSockets(page: Page): { sockets: WebSocket[]; framesSince(since: number): number } {
  const sockets: WebSocket[] = [];
  const received: number[] = [];
  page.on("websocket", (ws) => {
    sockets.push(ws);
    ws.on("framereceived", () => received.push(Date.now()));
  });
  return { sockets, framesSince: (since) => received.filter((t) => t >= since).length };
}

/** Goes to a sidebar entry without reloading the page. */
async function sidebarLink(page: Page, name: string, pathname: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();
  await atPath(page, pathname);
}

/** Opens a screen of the audio-management sub-navigation. */
async function openAudioScreen(page: Page, name: "Translated Transcript", pathname: string): Promise<void> {
  await page.getByRole("navigation", { name: "Audio management" }).getByRole("link", { name, exact: true }).click();
  await atPath(page, pathname);
}

describeBrowser("live notifications and live views", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let audioId: string;
  let adminPage: Page;
  let staffPage: Page;
  let staffSockets: ReturnType<typeof watchSockets>;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staff = await server.createUser("Staff");
    // An uploaded audio assigned to the staff member, through the services the REST upload uses.
    audioId = await seedAudio(server, admin, { filename: FILENAME, assignTo: staff });
  });

  step("both sign in; the admin's bell is empty", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await atPath(adminPage, "/");
    await seen(bell(adminPage));
    expect(await badge(adminPage).count()).toBe(0);
    const menu = await openBell(adminPage);
    await seen(menu.getByText("No notifications found.", { exact: true }));
    await screenshot(adminPage, "live-01-bell-empty");
    await adminPage.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });

    staffPage = await suite.newPage("staff");
    staffSockets = watchSockets(staffPage);
    await signIn(staffPage, staff);
    await atPath(staffPage, "/Audios");
    const card = await seen(taskCard(staffPage, FILENAME));
    await seen(card.getByText("No Transcript", { exact: true }));
  });

  step("the staff member saves a transcript: the admin's badge rises within 2 s, without a reload", async () => {
    await markWindow(adminPage);
    await taskCard(staffPage, FILENAME).click();
    await atPath(staffPage, "/audiomanagement/audiocontrol");
    await openAudioScreen(staffPage, "Translated Transcript", "/audiomanagement/trascript");
    await staffPage.getByRole("button", { name: "Write", exact: true }).click();
    const editor = await seen(staffPage.getByRole("textbox", { name: "Translated transcript editor" }));
    await editor.pressSequentially(TRANSCRIPT_TEXT);

    const savedAt = Date.now();
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    await adminPage.waitForFunction(
      () => document.querySelector('[data-testid="notification-badge"]')?.textContent === "1",
      undefined,
      { timeout: LIVE_WITHIN_MS },
    );
    const elapsed = Date.now() - savedAt;
    console.info(`the admin's badge rose ${elapsed} ms after the staff member pressed Save Changes`);
    expect(elapsed).toBeLessThan(LIVE_WITHIN_MS);
    expect(await notReloaded(adminPage)).toBe(true);
    await toast(staffPage, "Transcript saved and uploaded successfully.");

    const menu = await openBell(adminPage);
    const item = await seen(entry(menu, `${staff.username} uploaded a new transcript for ${FILENAME}`));
    await seen(item.getByText("Unread", { exact: true }));
    await seen(item.getByText(/seconds? ago|a minute ago/));
    await screenshot(adminPage, "live-02-bell-open-unread");
    await adminPage.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
  });

  step("the admin approves: the staff member's task card turns Approved without a reload", async () => {
    await sidebarLink(staffPage, "My Tasks", "/Audios");
    const card = await seen(taskCard(staffPage, FILENAME));
    await seen(card.getByText("Pending", { exact: true }));
    await markWindow(staffPage);

    await sidebarLink(adminPage, "All Tasks", "/Audios");
    await taskCard(adminPage, FILENAME).click();
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await openAudioScreen(adminPage, "Translated Transcript", "/audiomanagement/trascript");
    await seen(adminPage.getByText(TRANSCRIPT_TEXT, { exact: true }));
    const approvedAt = Date.now();
    await adminPage.getByRole("group", { name: "Review" }).getByRole("button", { name: "Approve" }).click();

    await seen(card.getByText("Approved", { exact: true }));
    console.info(
      `the staff member's card turned Approved ${Date.now() - approvedAt} ms after the admin pressed Approve`,
    );
    expect(await card.getByText("Pending", { exact: true }).count()).toBe(0);
    expect(await notReloaded(staffPage)).toBe(true);
    await screenshot(staffPage, "live-03-staff-card-approved");
  });

  step("the admin opens the entry: it becomes Read and the browser is on its link", async () => {
    await sidebarLink(adminPage, "All Tasks", "/Audios");
    // The approval itself notified the admins too: two unread now.
    await seen(badge(adminPage).getByText("2", { exact: true }));
    const menu = await openBell(adminPage);
    await seen(entry(menu, `${admin.username} approved the transcript for ${FILENAME}`));
    await entry(menu, `${staff.username} uploaded a new transcript for ${FILENAME}`).click();
    await atPath(adminPage, "/audiomanagement/trascript");
    await seen(adminPage.getByRole("heading", { name: FILENAME, level: 1 }));
    await seen(badge(adminPage).getByText("1", { exact: true }));

    const reopened = await openBell(adminPage);
    const item = await seen(entry(reopened, `${staff.username} uploaded a new transcript for ${FILENAME}`));
    await seen(item.getByText("Read", { exact: true }));
    await seen(
      entry(reopened, `${admin.username} approved the transcript for ${FILENAME}`).getByText("Unread", { exact: true }),
    );
    await screenshot(adminPage, "live-04-entry-read");
    await adminPage.keyboard.press("Escape");
  });

  step("after the staff member signs out, their page's WebSocket is closed and receives nothing more", async () => {
    expect(staffSockets.sockets.length).toBeGreaterThan(0);
    await staffPage.getByRole("button", { name: "User menu" }).click();
    await staffPage.getByRole("menuitem", { name: "Sign Out" }).click();
    await atPath(staffPage, "/signin");
    await expect.poll(() => staffSockets.sockets.every((ws) => ws.isClosed()), { timeout: 2_000 }).toBe(true);
    const socketsAtSignOut = staffSockets.sockets.length;
    const signedOutAt = Date.now();

    // A change to the staff member's audio: the admin still hears of it, the signed-out page does not.
    await suite.server.harness.caller(admin).transcripts.reject({ audioId, expectedStatus: "Approved" });
    await seen(badge(adminPage).getByText("2", { exact: true }));
    await staffPage.waitForTimeout(SIGNED_OUT_WATCH_MS);
    expect(staffSockets.framesSince(signedOutAt)).toBe(0);
    expect(staffSockets.sockets.length).toBe(socketsAtSignOut);
  });
});
