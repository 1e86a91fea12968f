// SPEC §2.3, §5 header search, in a real browser: two staff members (A, B) each with an assigned
// audio whose names share 'river' in different cases, plus an unassigned one with 'river' inside
// its name. Staff A finds only A's audio; the admin finds all three (case-insensitive, any part of
// the name), each with its category as text. A blank keyword shows nothing and sends no request;
// typing is debounced into one request; a nonsense keyword shows 'No results found'. The results
// are a listbox driven from the search box (arrows, Enter) or by mouse; choosing one opens the audio
// control page of that audio. Escape closes the dialog and returns focus to the Search button.
// No serious or critical axe violation with the dialog open.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import { atPath, describeBrowser, screenshot, seen, signIn, useBrowserSuite } from "./support/browser";
import { seedAudio } from "./support/seed";
import { isFocused } from "./support/focus";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const AUDIO_A = "river-alpha";
const AUDIO_B = "RIVER-beta";
const UNASSIGNED = "delta-riverside";
/**
 * Longer than the debounce (250 ms) plus a round trip: a request would have been sent by then. Only
 * where the keyword is blank: then the app has nothing to send and no later event to wait for.
 */
const QUIET_MS = 800;

function searchButton(page: Page): Locator {
  return page.getByRole("banner").getByRole("button", { name: "Search", exact: true });
}

function searchDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: "Search audios" });
}

function searchBox(page: Page): Locator {
  return searchDialog(page).getByRole("combobox", { name: "Search audios" });
}

function options(page: Page): Locator {
  return searchDialog(page).getByRole("listbox", { name: "Search Results" }).getByRole("option");
}

/** The filenames listed (the first line of each option). */
async function listedNames(page: Page): Promise<string[]> {
  return (await options(page).allInnerTexts()).map((text) => text.split("\n")[0]!.trim());
}

/** Counts the requests to the search procedure made by `page` (batched or not), with the keywords sent. */
function countSearchRequests(page: Page): { readonly count: number; readonly keywords: string[] } {
  const counter = { count: 0, keywords: [] as string[] };
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!url.pathname.includes("search.audios")) return;
    counter.count += 1;
    counter.keywords.push(
      ...Array.from((url.searchParams.get("input") ?? "").matchAll(/"q":"([^"]*)"/g), (m) => m[1]!),
    );
  });
  return counter;
}

describeBrowser("search", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staffA: TestUser;
  let staffB: TestUser;
  let audioB: string;
  let pageA: Page;
  let requestsA: { readonly count: number; readonly keywords: string[] };
  let adminPage: Page;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staffA = await server.createUser("Staff");
    staffB = await server.createUser("Staff");
    await seedAudio(server, admin, { filename: AUDIO_A, category: "Control", assignTo: staffA });
    audioB = await seedAudio(server, admin, { filename: AUDIO_B, category: "Dementia", assignTo: staffB });
    await seedAudio(server, admin, { filename: UNASSIGNED, category: "Control" });
  });

  step("staff A reaches the Search button with the keyboard; it opens the dialog", async () => {
    pageA = await suite.newPage("staff-a");
    requestsA = countSearchRequests(pageA);
    await signIn(pageA, staffA);
    await seen(searchButton(pageA));
    await pageA.getByRole("button", { name: "Toggle sidebar" }).focus();
    await pageA.keyboard.press("Tab");
    expect(await isFocused(searchButton(pageA))).toBe(true);
    await pageA.keyboard.press("Enter");
    await seen(searchDialog(pageA));
    await seen(searchDialog(pageA).getByRole("heading", { name: "Search Results" }));
    // The keyword box has the focus.
    expect(await isFocused(searchBox(pageA))).toBe(true);
    expect(await searchBox(pageA).getAttribute("aria-expanded")).toBe("false");
    await screenshot(pageA, "search-01-staff-a-open");
  });

  step("a blank keyword shows no result and sends no request", async () => {
    await searchBox(pageA).fill("   ");
    await pageA.waitForTimeout(QUIET_MS);
    expect(requestsA.count).toBe(0);
    expect(await options(pageA).count()).toBe(0);
    expect(await searchDialog(pageA).getByText("No results found", { exact: true }).count()).toBe(0);
    expect(await searchDialog(pageA).getByRole("status").innerText()).toBe("");
  });

  step("staff A's 'river', typed key by key, is one request and finds only A's audio", async () => {
    await searchBox(pageA).fill("");
    await searchBox(pageA).pressSequentially("river", { delay: 40 });
    await expect.poll(() => listedNames(pageA)).toEqual([AUDIO_A]);
    await seen(searchDialog(pageA).getByRole("status").getByText("1 result", { exact: true }));
    // The answer for 'river' is shown: a request for a part of it would have been sent before.
    expect(requestsA.count).toBe(1);
    expect(requestsA.keywords).toEqual(["river"]);
    const option = options(pageA).first();
    await seen(option.getByText("Control", { exact: true }));
    await seen(option.getByText(`Assigned to ${staffA.username}`, { exact: true }));
    expect(await searchBox(pageA).getAttribute("aria-expanded")).toBe("true");
    await screenshot(pageA, "search-02-staff-a-river");
  });

  step("clearing the keyword clears the results at once, without a request", async () => {
    const before = requestsA.count;
    await searchBox(pageA).fill(" ");
    expect(await options(pageA).count()).toBe(0);
    await pageA.waitForTimeout(QUIET_MS);
    expect(requestsA.count).toBe(before);
    // Nor was 'river' asked again after its answer showed.
    expect(requestsA.keywords).toEqual(["river"]);
    expect(await options(pageA).count()).toBe(0);
  });

  step("a nonsense keyword shows 'No results found'", async () => {
    await searchBox(pageA).fill("zzqx-nothing");
    await seen(searchDialog(pageA).getByRole("status").getByText("No results found", { exact: true }));
    expect(await options(pageA).count()).toBe(0);
    await screenshot(pageA, "search-03-no-results");
  });

  step("staff A does not find B's audio by its exact name", async () => {
    await searchBox(pageA).fill(AUDIO_B);
    await seen(searchDialog(pageA).getByText("No results found", { exact: true }));
  });

  step("Escape closes the dialog and returns focus to the Search button", async () => {
    await pageA.keyboard.press("Escape");
    await searchDialog(pageA).waitFor({ state: "detached" });
    expect(await isFocused(searchButton(pageA))).toBe(true);
  });

  step("a click outside closes it too; reopened, it starts blank", async () => {
    await searchButton(pageA).click();
    await seen(searchDialog(pageA));
    await searchBox(pageA).fill("alpha");
    await seen(options(pageA).first());
    await pageA.mouse.click(20, 880);
    await searchDialog(pageA).waitFor({ state: "detached" });
    await searchButton(pageA).click();
    expect(await searchBox(pageA).inputValue()).toBe("");
    expect(await options(pageA).count()).toBe(0);
  });

  step("staff A clicks a result: the audio control page shows that audio", async () => {
    await searchBox(pageA).fill("ALPHA");
    await (await seen(options(pageA).filter({ hasText: AUDIO_A }))).click();
    await searchDialog(pageA).waitFor({ state: "detached" });
    await atPath(pageA, "/audiomanagement/audiocontrol");
    await seen(pageA.getByRole("heading", { name: AUDIO_A, level: 1 }));
  });

  step("the admin (Ctrl+K) finds all three 'river' audios in any case and part of the name", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await seen(searchButton(adminPage));
    // The header with its Search button, the bell and the user menu passes axe.
    const headerViolations = await seriousAxeViolations(adminPage, { include: ["header"] });
    expect(headerViolations, JSON.stringify(headerViolations, null, 2)).toEqual([]);
    await adminPage.keyboard.press("Control+k");
    await seen(searchDialog(adminPage));
    await searchBox(adminPage).fill("RiVeR");
    await expect.poll(async () => (await listedNames(adminPage)).sort()).toEqual([AUDIO_A, AUDIO_B, UNASSIGNED].sort());
    const beta = options(adminPage).filter({ hasText: AUDIO_B });
    await seen(beta.getByText("Dementia", { exact: true }));
    await seen(beta.getByText(`Assigned to ${staffB.username}`, { exact: true }));
    await seen(options(adminPage).filter({ hasText: UNASSIGNED }).getByText("Not assigned", { exact: true }));
    await screenshot(adminPage, "search-04-admin-river");
  });

  step("with the dialog open and a result highlighted, axe finds no serious or critical violation", async () => {
    await searchBox(adminPage).press("ArrowDown");
    const violations = await seriousAxeViolations(adminPage, { include: ['[role="dialog"]'] });
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  step("arrows move the highlight (wrapping); Enter opens the highlighted audio", async () => {
    const box = searchBox(adminPage);
    const names = await listedNames(adminPage);
    const active = async () => {
      const id = await box.getAttribute("aria-activedescendant");
      if (!id) return null;
      const option = searchDialog(adminPage).locator(`[id="${id}"]`);
      expect(await option.getAttribute("aria-selected")).toBe("true");
      return (await option.innerText()).split("\n")[0]!.trim();
    };
    // The previous step highlighted the first option.
    expect(await active()).toBe(names[0]);
    await box.press("ArrowDown");
    expect(await active()).toBe(names[1]);
    await box.press("ArrowUp");
    await box.press("ArrowUp");
    expect(await active()).toBe(names[2]);
    expect(await searchDialog(adminPage).locator('[role="option"][aria-selected="true"]').count()).toBe(1);
    await screenshot(adminPage, "search-05-admin-highlight");

    // Move to B's audio and open it.
    const target = names.indexOf(AUDIO_B);
    while ((await active()) !== AUDIO_B) await box.press("ArrowDown");
    expect(target).toBeGreaterThanOrEqual(0);
    await box.press("Enter");
    await searchDialog(adminPage).waitFor({ state: "detached" });
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await seen(adminPage.getByRole("heading", { name: AUDIO_B, level: 1 }));
    // An Admin's opening is recorded (SPEC §4).
    await expect
      .poll(async () => (await suite.server.harness.caller(admin).audios.get({ audioId: audioB })).lastOpened?.username)
      .toBe(admin.username);
    await screenshot(adminPage, "search-06-admin-opened-beta");
  });

  step("on a small screen the Search button keeps its name (icon only) and '/' opens the dialog", async () => {
    await pageA.setViewportSize({ width: 390, height: 844 });
    await seen(searchButton(pageA));
    await screenshot(pageA, "search-07-small-screen");
    await pageA.locator("body").press("/");
    await seen(searchDialog(pageA));
    await searchBox(pageA).fill("river");
    await expect.poll(() => listedNames(pageA)).toEqual([AUDIO_A]);
    await screenshot(pageA, "search-08-small-screen-open");
    await pageA.keyboard.press("Escape");
    await searchDialog(pageA).waitFor({ state: "detached" });
  });
});
