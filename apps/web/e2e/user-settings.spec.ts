// The app respects the user's settings. With `prefers-reduced-motion: reduce`
// the sidebar does not slide and toasts do not animate (and without it they do, so the test can
// tell). At 320 CSS px wide (WCAG 1.4.10; the same as 1280 px zoomed to 400 %) and at 640 px (200 %)
// the Tasks, Submissions and Translated Transcript screens reflow without horizontal scrolling,
// and toasts still show top-center on narrow screens (SPEC §2.1).
import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  describeBrowser,
  loadingDone,
  screenshot,
  seen,
  selectAudio,
  signIn,
  toast,
  useBrowserSuite,
} from "./support/browser";
import { finishTask } from "./support/finished-tasks";
import { seedAudio } from "./support/seed";
import type { TestUser } from "./support/server";

const LONG_NAME = "a-rather-long-recording-name-from-the-field-2026-11-24-control";

/** The page's widest content beyond the viewport, in CSS px (0: no horizontal scrolling). */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The elements reaching past the right edge of the viewport and not clipped by a scroll box. */
async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // Inside a scroll box, unless positioned out of it (an absolute element whose containing
    // block is outside the box is not clipped by it).
    const clipped = (el: Element): boolean => {
      let absolute = getComputedStyle(el).position === "absolute" || getComputedStyle(el).position === "fixed";
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX !== "visible" && !absolute) return true;
        if (absolute && style.position !== "static")
          absolute = style.position === "absolute" || style.position === "fixed";
      }
      return false;
    };
    return Array.from(document.querySelectorAll("body *"))
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el))
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(" ").join(".")}`);
  });
}

/** The longest transition and animation duration (s) on `selector`'s first element. */
async function motionSeconds(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      const seconds = (list: string) =>
        Math.max(...list.split(",").map((v) => parseFloat(v) * (v.trim().endsWith("ms") ? 0.001 : 1)));
      return Math.max(seconds(style.transitionDuration), seconds(style.animationDuration));
    });
}

describeBrowser("user settings: reduced motion, zoom and reflow", () => {
  const suite = useBrowserSuite();
  let staff: TestUser;
  let audioId: string;
  let page: Page;

  beforeAll(async () => {
    const admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff", { username: "Samuel Staff" });
    audioId = await seedAudio(suite.server, admin, { filename: LONG_NAME, category: "Control", assignTo: staff });
    await suite.server.harness.caller(staff).transcripts.save({
      audioId,
      text: "Habari ya asubuhi, hii ni sentensi ndefu kidogo ya kujaribu jinsi maandishi yanavyojipanga.",
    });
    await finishTask(suite.server, admin, staff, {
      filename: "finished-dementia",
      category: "Dementia",
      transcript: "Nilikwenda sokoni jana.",
    });
    page = await suite.newPage("staff");
    await signIn(page, staff);
  });

  /** Opens the sidebar on a narrow screen and answers its slide's duration (s). */
  async function sidebarSlide(): Promise<number> {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/Audios");
    await seen(page.getByRole("heading", { name: "Tasks" }));
    return motionSeconds(page, ".shell-sidebar");
  }

  /** Saves the transcript, which shows a toast, and answers the toast's animation duration (s). */
  async function toastMotion(): Promise<number> {
    await selectAudio(page, audioId);
    await page.goto("/audiomanagement/trascript");
    await page.getByRole("button", { name: "Write", exact: true }).click();
    await seen(page.getByRole("textbox", { name: "Translated transcript editor" }));
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Transcript saved");
    return motionSeconds(page, "[data-sonner-toast]");
  }

  it("by default the sidebar slides and toasts animate", async () => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await sidebarSlide()).toBeGreaterThan(0.05);
    expect(await toastMotion()).toBeGreaterThan(0.05);
  });

  it("with reduced motion the sidebar does not slide and toasts do not animate", async () => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    try {
      expect(await sidebarSlide()).toBeLessThanOrEqual(0.001);
      expect(await toastMotion()).toBeLessThanOrEqual(0.001);
    } finally {
      await page.emulateMedia({ reducedMotion: "no-preference" });
    }
  });

  const screens: [string, string, string][] = [
    ["tasks", "/Audios", "Tasks"],
    ["submissions", "/submission/general", "Submissions"],
    ["translated transcript", "/audiomanagement/trascript", LONG_NAME],
  ];
  for (const width of [320, 640]) {
    for (const [name, path, heading] of screens) {
      it(`${name} reflows at ${width} CSS px without horizontal scrolling`, async () => {
        await page.setViewportSize({ width, height: 720 });
        await selectAudio(page, audioId);
        await page.goto(path);
        await seen(page.getByRole("heading", { name: heading, exact: true }));
        await loadingDone(page);
        await screenshot(page, `user-settings-${name}-${width}px`);
        const overflow = await horizontalOverflow(page);
        expect(overflow, `overflowing: ${(await overflowingElements(page)).join(", ")}`).toBeLessThanOrEqual(0);
      });
    }
  }

  it("stacked at 320 px, the Submissions table is still a table to assistive technology", async () => {
    await page.setViewportSize({ width: 320, height: 720 });
    await page.goto("/submission/general");
    await seen(page.getByText(LONG_NAME, { exact: true }));
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
      nodes: { role?: { value?: string }; name?: { value?: string } }[];
    };
    const roles = nodes.map((n) => n.role?.value);
    expect(roles).toContain("table");
    // SPEC §2.7's nine columns and the audio's Duration.
    expect(roles.filter((r) => r === "columnheader")).toHaveLength(10);
    const cells = nodes.filter((n) => n.role?.value === "cell").map((n) => n.name?.value ?? "");
    expect(cells.some((name) => name.includes(LONG_NAME))).toBe(true);
    // The visible column label beside each value is not read as part of the cell.
    expect(cells.some((name) => name.startsWith("Audio Name"))).toBe(false);
    await cdp.detach();
  });

  it("toasts show top-center on a narrow screen", async () => {
    await page.setViewportSize({ width: 320, height: 720 });
    await page.goto("/audiomanagement/trascript");
    await page.getByRole("button", { name: "Write", exact: true }).click();
    await seen(page.getByRole("textbox", { name: "Translated transcript editor" }));
    await page.getByRole("button", { name: "Save Changes" }).click();
    const shown = await toast(page, "Transcript saved");
    const box = (await shown.boundingBox())!;
    expect(box.y).toBeLessThan(200);
    expect(box.x + box.width / 2).toBeGreaterThan(120);
    expect(box.x + box.width / 2).toBeLessThan(200);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });
});
