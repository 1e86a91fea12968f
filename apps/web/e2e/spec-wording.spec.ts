// SPEC §1, §8, §9 as a user meets them, in a real browser:
// - the Dashboard's welcome banner carries the programme's name (PROGRAMME_NAME), passes axe and
//   fits a 375 px wide screen;
// - a sign-in whose request fails (no answer; a proxy's 502 page) toasts 'An error occurred:
//   {message}', a refusal by the server still 'Login Failed';
// - the Submissions 'Last updated' column shows en-US long dates with the time ('November 23, 2026
//   at 4:54 PM'), and a failed load says 'Failed to load submissions.' with the error's message;
// - 'View Transcript' of an audio whose transcript file is gone says 'Transcript file not found'.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import {
  atPath,
  describeBrowser,
  screenshot,
  seen,
  submitSignIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { uploadInitialTranscript } from "./support/finished-tasks";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const PROGRAMME = "Memory Voices Study";
const AUDIO = "wording-river";

/** The Submissions row of `filename`. */
function submissionRow(page: Page, filename: string): Locator {
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name: filename, exact: true }) });
}

describeBrowser("SPEC wording: welcome banner, sign-in failures, Submissions dates and messages", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let page: Page;

  beforeAll(async () => {
    const { server } = suite;
    // PROGRAMME_NAME reaches procedures through the server's deps (apps/server/src/bootstrap.ts).
    server.harness.deps.programmeName = PROGRAMME;
    admin = await server.createUser("Admin", { username: "amina" });
    staff = await server.createUser("Staff");
    const audioId = await seedAudio(server, admin, { filename: AUDIO, assignTo: staff });
    await server.harness.caller(staff).transcripts.save({ audioId, text: "Habari ya asubuhi." });
    await uploadInitialTranscript(server, admin, audioId, "Good morning.");
  });

  step("sign-in without an answer toasts 'An error occurred: {message}'", async () => {
    page = await suite.newPage("admin");
    await page.goto("/signin");
    await page.route("**/trpc/accounts.login**", (route) => route.abort("internetdisconnected"));
    await submitSignIn(page, admin.email, admin.password);
    await toast(page, "An error occurred: Cannot connect to the server. Please try again later.");
    expect(await page.locator("[data-sonner-toast]").filter({ hasText: "Login Failed" }).count()).toBe(0);
    await screenshot(page, "spec-wording-01-sign-in-no-answer");
    await page.unroute("**/trpc/accounts.login**");
    await toastsGone(page);
  });

  step("a proxy's 502 page toasts 'An error occurred: Request failed with status code 502'", async () => {
    await page.route("**/trpc/accounts.login**", (route) =>
      route.fulfill({ status: 502, contentType: "text/html", body: "<html><body>502 Bad Gateway</body></html>" }),
    );
    await page.getByRole("button", { name: /^sign in$/i }).click();
    await toast(page, "An error occurred: Request failed with status code 502");
    await page.unroute("**/trpc/accounts.login**");
    await toastsGone(page);
  });

  step("a wrong password is still 'Login Failed' with the server's message", async () => {
    await submitSignIn(page, admin.email, "Wrong-password-1");
    await toast(page, "Login Failed");
    await toastsGone(page);
  });

  step(
    "a toast closes by itself after 4 s (SPEC §9), its text passes axe, and its close button closes it at once",
    async () => {
      await page.mouse.move(0, 0);
      // When each toast is added and removed, by the page's own clock (no hover: hovering pauses it).
      await page.evaluate(() => {
        const times = new Map<Element, { added: number; removed?: number }>();
        new MutationObserver(() => {
          const now = performance.now();
          for (const toast of document.querySelectorAll("[data-sonner-toast]")) {
            if (!times.has(toast)) times.set(toast, { added: now });
          }
          for (const [toast, entry] of times) {
            if (entry.removed === undefined && !toast.isConnected) entry.removed = now;
          }
        }).observe(document.body, { childList: true, subtree: true });
        Object.assign(window, { tafsiriToastTimes: times });
      });
      const toastLifetimes = () =>
        page.evaluate(() =>
          [
            ...(
              window as unknown as { tafsiriToastTimes: Map<Element, { added: number; removed?: number }> }
            ).tafsiriToastTimes.values(),
          ].map((t) => (t.removed === undefined ? null : t.removed - t.added)),
        );
      await submitSignIn(page, admin.email, "Wrong-password-1");
      const shown = await toast(page, "Login Failed");
      await shown.waitFor({ state: "detached", timeout: 10_000 });
      const [lifetime] = await toastLifetimes();
      // 4,000 ms shown, then sonner's 200 ms exit before the element goes.
      expect(lifetime).toBeGreaterThanOrEqual(4_000);
      expect(lifetime).toBeLessThan(8_000);

      await submitSignIn(page, admin.email, "Wrong-password-1");
      // Held open by the pointer, the error toast's text meets WCAG AA contrast on its background.
      await (await toast(page, "Login Failed")).hover();
      expect(await seriousAxeViolations(page, { include: ["[data-sonner-toaster]"] })).toEqual([]);
      await toastsGone(page);
      const [, closedByHand] = await toastLifetimes();
      expect(closedByHand).toBeLessThan(4_000);
    },
  );

  step("the Dashboard's welcome banner carries the programme's name", async () => {
    await submitSignIn(page, admin.email, admin.password);
    await atPath(page, "/");
    await seen(page.getByRole("heading", { level: 1, name: /^Good (morning|afternoon|evening), amina$/ }));
    await seen(page.getByText(`Welcome to ${PROGRAMME}`, { exact: true }));
    await seen(page.getByRole("heading", { name: "Overview" }).or(page.locator(".dash-card").first()));
    // The whole page, its tables too: each table's scroll box is a focusable region (scrollable-region-focusable).
    expect(await seriousAxeViolations(page, { include: ["main"] })).toEqual([]);
    await screenshot(page, "spec-wording-02-welcome-banner");
  });

  step("the banner fits a 375 px wide screen", async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    // On a small screen the sidebar is a drawer, closed until asked for: the banner is what the admin
    // sees first. (No click: the page takes a moment to notice the new width, and a click before
    // that would collapse the wide sidebar, one after it open the drawer.)
    const toggle = page.getByRole("button", { name: "Toggle sidebar" });
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    // The drawer slides away before the screenshot.
    await expect
      .poll(async () => {
        const drawer = await page.locator("#app-sidebar").boundingBox();
        return drawer === null || drawer.x + drawer.width <= 0;
      })
      .toBe(true);
    const banner = await seen(page.locator(".welcome-banner"));
    const box = (await banner.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, "spec-wording-03-welcome-banner-375px");
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  step("Submissions 'Last updated' reads like 'November 23, 2026 at 4:54 PM'", async () => {
    await page.goto("/submission/general");
    const row = await seen(submissionRow(page, AUDIO));
    // Cells by their column's heading: admins have a selection column first (bulk review).
    const headings = await page.getByRole("columnheader").allInnerTexts();
    const cells = await row.getByRole("cell").allInnerTexts();
    const updated = cells[headings.findIndex((h) => h.trim() === "Last updated")]!.trim();
    // The cell shows its time in SPEC §9's form, which src/lib/dates.test.ts checks.
    const iso = await row.locator("time").getAttribute("datetime");
    const expected = await page.evaluate(
      (at) =>
        new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short" })
          .format(new Date(at))
          .replace(/\u202f/g, " "),
      iso!,
    );
    expect(updated).toBe(expected);
    await screenshot(page, "spec-wording-04-submissions-dates");
  });

  step("a failed load says 'Failed to load submissions.' with the error's message", async () => {
    await page.route(/\/trpc\/[^?]*submissions\.list/, (route) =>
      route.fulfill({ status: 500, contentType: "text/plain", body: "upstream exploded" }),
    );
    await page.reload();
    const alert = await seen(
      page.getByRole("alert").filter({ hasText: "Failed to load submissions. Request failed with status code 500" }),
    );
    await seen(alert.getByRole("button", { name: "Retry" }));
    // The page, not the toasts of the other calls in the same failed batch (still fading in).
    expect(await seriousAxeViolations(page, { include: ["main"] })).toEqual([]);
    await screenshot(page, "spec-wording-05-submissions-failed");
    await page.unroute(/\/trpc\/[^?]*submissions\.list/);
    await toastsGone(page).catch(() => undefined);
  });

  step("'View Transcript' of a transcript whose file is gone says 'Transcript file not found'", async () => {
    const { harness } = suite.server;
    const { transcriptKey } = await harness.deps.db
      .selectFrom("audios")
      .select("transcriptKey")
      .where("filename", "=", AUDIO)
      .executeTakeFirstOrThrow();
    await harness.deps.storage.delete(transcriptKey!);
    await page.goto("/management/manageaudios");
    const row = await seen(page.getByRole("row").filter({ hasText: AUDIO }));
    await row.getByRole("button", { name: "View Transcript" }).click();
    const dialog = await seen(page.getByRole("dialog", { name: "Transcript", exact: true }));
    await seen(dialog.getByRole("alert").filter({ hasText: "Transcript file not found" }));
    expect(await dialog.getByText("Failed to load transcript.").count()).toBe(0);
    expect(await seriousAxeViolations(page, { include: ['[role="dialog"]'] })).toEqual([]);
    await screenshot(page, "spec-wording-06-transcript-not-found");
  });
});
