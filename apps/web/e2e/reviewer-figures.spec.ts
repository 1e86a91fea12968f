// Decision 025: the Dashboard's Reviews section in a real browser. With no reviews it says so; an
// admin then reviews two submissions elsewhere (one approved, one rejected) and the section shows
// them under that admin, with the median wait, and on today's row of the reviews per day, without
// a reload. The period selector of the Team Engagement Report drives it too. axe, keyboard and
// a 375 px wide viewport; screenshots under /tmp.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { atPath, describeBrowser, markWindow, notReloaded, seen, signIn, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const GRACE = "rev_grace";
const HAMID = "rev_hamid";
const SHOTS = "/tmp/h5-reviewer-figures";
/** The median wait cell of reviews made moments after the save: shown '< 1 min', spoken 'less than a minute'. */
const WAIT_UNDER_A_MINUTE = "< 1 min less than a minute";

/** The Reviews section. */
function reviews(page: Page): Locator {
  return page.getByRole("region", { name: "Reviews", exact: true });
}

/** The data cells of `username`'s row in the Reviews table, white space collapsed (the wait's visible then spoken text). */
async function reviewerCells(page: Page, username: string): Promise<string[]> {
  const row = reviews(page)
    .getByRole("table", { name: /^Reviews/ })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: username, exact: true }) });
  if ((await row.count()) === 0) return [];
  return (await row.getByRole("cell").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

/** A dashboard-wide axe check of the Reviews section. */
async function expectNoSeriousViolations(page: Page): Promise<void> {
  const violations = await seriousAxeViolations(page, { include: ['section[aria-labelledby="dash-reviews-title"]'] });
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

describeBrowser("dashboard: the Reviews section (decision 025)", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let grace: TestUser;
  let hamid: TestUser;
  let page: Page;
  let audios: string[];

  beforeAll(async () => {
    const { server } = suite;
    grace = await server.createUser("Admin", { username: GRACE });
    hamid = await server.createUser("Admin", { username: HAMID });
    const staff = await server.createUser("Staff", { username: "rev_staff" });
    audios = [];
    for (const filename of ["rev-1", "rev-2"]) {
      const audioId = await seedAudio(server, grace, { filename, assignTo: staff });
      await server.harness.caller(staff).transcripts.save({ audioId, text: `Words of ${filename}.` });
      audios.push(audioId);
    }
  });

  step("before any review the section says 'No reviews in this period.'", async () => {
    page = await suite.newPage("admin");
    await signIn(page, grace);
    await atPath(page, "/");
    await seen(reviews(page).getByText("No reviews in this period."));
    await expectNoSeriousViolations(page);
  });

  step("an admin reviews two submissions elsewhere: the section shows them under that admin, live", async () => {
    await markWindow(page);
    const asHamid = suite.server.harness.caller(hamid);
    await asHamid.transcripts.approve({ audioId: audios[0]! });
    await asHamid.transcripts.reject({ audioId: audios[1]!, reason: "Names are missing." });
    // Reviews, Approved, Rejected, Median wait (saved moments before).
    await expect
      .poll(() => reviewerCells(page, HAMID), { timeout: 15_000 })
      .toEqual(["2", "1", "1", WAIT_UNDER_A_MINUTE]);
    // No median without reviews: a dash, 'none' for screen readers.
    expect(await reviewerCells(page, GRACE)).toEqual(["0", "0", "0", "— none"]);
    expect(await notReloaded(page)).toBe(true);
    const chart = reviews(page).getByTestId("reviews-per-day-chart");
    await seen(chart.locator(".recharts-bar-rectangle"));
    await page.screenshot({ path: `${SHOTS}-1-live.png`, fullPage: true });
  });

  step("the reviews per day open as a table by keyboard: today's row counts the admin's two", async () => {
    const summary = reviews(page).getByText("Reviews per day as a table");
    await summary.focus();
    await page.keyboard.press("Enter");
    const table = reviews(page).getByRole("table", { name: /^Reviews per day/ });
    await seen(table);
    expect(await table.getByRole("columnheader").allInnerTexts()).toEqual(["Day", HAMID, "All admins"]);
    const rows = table.getByRole("row").filter({ has: page.getByRole("rowheader") });
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getByRole("cell").allInnerTexts()).toEqual(["2", "2"]);
    await expectNoSeriousViolations(page);
  });

  step("the Team Engagement Report's period drives the section: last month has no reviews", async () => {
    const period = page.getByLabel("Period", { exact: true });
    await period.selectOption({ label: "Last month" });
    await seen(reviews(page).getByText("No reviews in this period."));
    await period.selectOption({ label: "This month" });
    await expect.poll(() => reviewerCells(page, HAMID)).toEqual(["2", "1", "1", WAIT_UNDER_A_MINUTE]);
  });

  step("at 375 px wide the page does not scroll sideways and the section reads top to bottom", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await reviews(page).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await reviews(page).screenshot({ path: `${SHOTS}-2-375px.png` });
    await expectNoSeriousViolations(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await reviews(page).screenshot({ path: `${SHOTS}-3-section.png` });
  });
});
