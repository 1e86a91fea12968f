// SPEC §2.3 bell, in a real browser: a staff member with 45 notifications sees the newest 20 and
// 'Show older' at the end of the list; with the keyboard alone (End, Enter) 'Show older' loads the
// next 20 and focus moves to the first of them, then the last 5, after which 'No older
// notifications.' ends the list. 'Mark all as read' turns every entry Read and the badge goes, on
// the server too, while an admin's notifications stay unread. The open menu has no serious or
// critical axe violation, shows a focus ring, and fits a 375 px wide screen.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import { describeBrowser, screenshot, seen, signIn, useBrowserSuite } from "./support/browser";
import { expectFocusRing } from "./support/focus";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const TOTAL = 45;
const ADMIN_UNREAD = 2;

function bell(page: Page): Locator {
  return page.getByRole("banner").getByRole("button", { name: "Notifications", exact: true });
}

function menu(page: Page): Locator {
  return page.getByRole("menu", { name: "Notifications" });
}

function entries(page: Page): Locator {
  return menu(page).getByTestId("notification-entry");
}

/** The text of the focused element. */
async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? "");
}

describeBrowser("older notifications", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let page: Page;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staff = await server.createUser("Staff");
    const asAdmin = server.harness.caller(admin);
    for (let i = 0; i < TOTAL; i += 1) {
      await asAdmin.notifications.create({
        senderId: admin.id,
        message: `Older note ${i}`,
        link: "/Audios",
        recipientId: staff.id,
      });
    }
    for (let i = 0; i < ADMIN_UNREAD; i += 1) {
      await asAdmin.notifications.create({ senderId: admin.id, message: `For admins ${i}`, link: "/", toAdmins: true });
    }
  });

  step("the bell lists the newest 20 with 'Show older' at the end", async () => {
    page = await suite.newPage("staff");
    await signIn(page, staff);
    await seen(page.getByRole("banner").getByTestId("notification-badge").getByText(String(TOTAL)));
    // A keyboard user's pointer rests away from the menu. Left where 'Sign In' was clicked, it sat
    // at the menu's bottom edge, and a pointerleave on an item as the list grows under it makes
    // Radix move focus to the menu's first item ('Mark all as read'), as the PostgreSQL pass once saw.
    await page.mouse.move(1, 1);
    await bell(page).focus();
    await page.keyboard.press("Enter");
    await seen(menu(page));
    await seen(entries(page).first());
    expect(await entries(page).count()).toBe(20);
    expect(await entries(page).first().innerText()).toContain(`Older note ${TOTAL - 1}`);
    await seen(menu(page).getByRole("menuitem", { name: "Show older" }));
    await seen(menu(page).getByRole("menuitem", { name: "Mark all as read" }));
    expect(await focusedText(page)).toBe("Mark all as read");
    await expectFocusRing(page, "Mark all as read");
    await screenshot(page, "older-notifications-00-open");
  });

  step("with the keyboard, 'Show older' loads the next 20 and focus moves to the first of them", async () => {
    await page.keyboard.press("End");
    expect(await focusedText(page)).toBe("Show older");
    await expectFocusRing(page, "Show older");
    await screenshot(page, "older-notifications-01-show-older-focused");
    await page.keyboard.press("Enter");
    await expect.poll(() => entries(page).count()).toBe(40);
    await expect.poll(() => focusedText(page)).toContain(`Older note ${TOTAL - 21}`);
    await expectFocusRing(page, "the first older entry");
    expect(await menu(page).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page, { include: ['[role="menu"]'] })).toEqual([]);
  });

  step("the last page ends the list with 'No older notifications.'", async () => {
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await expect.poll(() => entries(page).count()).toBe(TOTAL);
    await seen(menu(page).getByText("No older notifications.", { exact: true }));
    expect(await menu(page).getByRole("menuitem", { name: "Show older" }).count()).toBe(0);
    // 'Show older' had focus and is gone: focus moves on to the first of the last entries.
    await expect.poll(() => focusedText(page)).toMatch(new RegExp(`Older note ${TOTAL - 41}(?!\\d)`));
    const messages = await entries(page).allInnerTexts();
    const numbers = messages.map((text) => Number(/Older note (\d+)/.exec(text)![1]));
    expect(numbers).toEqual(Array.from({ length: TOTAL }, (_, i) => TOTAL - 1 - i));
    await screenshot(page, "older-notifications-02-end-of-list");
  });

  step("'Mark all as read' turns every entry Read and the badge goes; an admin's stay unread", async () => {
    await page.keyboard.press("Home");
    expect(await focusedText(page)).toBe("Mark all as read");
    await page.keyboard.press("Enter");
    await page.getByRole("banner").getByTestId("notification-badge").waitFor({ state: "detached" });
    await expect.poll(() => menu(page).getByText("Unread", { exact: true }).count()).toBe(0);
    expect(await menu(page).getByText("Read", { exact: true }).count()).toBe(TOTAL);
    expect(await menu(page).getByRole("menuitem", { name: "Mark all as read" }).count()).toBe(0);
    expect(await menu(page).isVisible()).toBe(true);
    // The item is gone; focus moved on to the newest entry.
    await expect.poll(() => focusedText(page)).toContain(`Older note ${TOTAL - 1}`);
    await expectFocusRing(page, "the newest entry after 'Mark all as read'");
    await screenshot(page, "older-notifications-03-all-read");
    const { harness } = suite.server;
    expect((await harness.caller(staff).notifications.list({})).unreadCount).toBe(0);
    expect((await harness.caller(admin).notifications.list({})).unreadCount).toBe(ADMIN_UNREAD);
    await page.keyboard.press("Escape");
    await menu(page).waitFor({ state: "detached" });
  });

  step("at 375 px wide the open list fits the screen", async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    // A fresh load shows the newest page again, ending with 'Show older'.
    await page.reload();
    await bell(page).click();
    await seen(entries(page).first());
    const box = (await menu(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await seen(menu(page).getByRole("menuitem", { name: "Show older" }));
    await screenshot(page, "older-notifications-04-375px");
  });
});
