// Decision 021, "Offline-aware": staff on a flaky mobile link. With the browser offline (DevTools
// network emulation) the banner says 'Cannot connect to the server. Please try again later.' (SPEC
// §7.3) and is announced once; a transcript saved meanwhile is held ('Waiting for connection…') and
// nothing reaches the server; back online it is saved exactly once, its success toast shows once,
// 'Connected again.' shows and then the banner goes. A comment and an admin's approval are held and
// sent once the same way. With the browser online but the server unreachable (its /trpc and /healthz
// aborted), a save that got no answer is shown as not saved and keeps its text, and the next one is
// held until the server answers. The banner shows on the signed-out sign-in page too.
import path from "node:path";
import { beforeAll, expect } from "vitest";
import type { CDPSession, Page, Route } from "playwright-core";
import {
  atPath,
  describeBrowser,
  RESULTS_DIR,
  screenshot,
  seen,
  selectAudio,
  signIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

const AUDIO = "offline-river";
const UNREACHABLE_AUDIO = "offline-mountain";
const TEXT = "Mto unatiririka polepole";
const UNREACHABLE_TEXT = "Mlima mrefu wenye theluji";
const COMMENT = "Sent from the bus, no signal";

const CONNECTION_ERROR = "Cannot connect to the server. Please try again later.";
const RECONNECTED = "Connected again.";
const SAVED = "Transcript saved and uploaded successfully.";
const SAVE_HELD = "Transcript will be saved when the connection returns.";
const WAITING = "Waiting for connection…";

/**
 * Starts counting, in the page, every toast that appears (each sonner toast element once), so a
 * test can tell a toast showed exactly once even after it closed.
 */
async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log: string[] = [];
    const counted = new WeakSet<Element>();
    const scan = () => {
      for (const el of Array.from(document.querySelectorAll("[data-sonner-toast]"))) {
        if (counted.has(el)) continue;
        counted.add(el);
        log.push(el.textContent ?? "");
      }
    };
    new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
    Object.assign(window, { tafsiriToastLog: log });
  });
}

/** How many toasts containing `text` appeared since recordToasts. */
async function toastCount(page: Page, text: string): Promise<number> {
  return page.evaluate(
    (wanted) =>
      (window as unknown as { tafsiriToastLog: string[] }).tafsiriToastLog.filter((t) => t.includes(wanted)).length,
    text,
  );
}

/** The announcements now in the app's live regions (each stays 10 s) that equal `text`. */
async function announcements(page: Page, text: string): Promise<number> {
  return page.locator("[data-testid=live-announcer] [data-announcement]").filter({ hasText: text }).count();
}

/**
 * Resolves once the page's next check of the server has failed: while the connection is lost the app
 * asks GET /healthz 1 s, 2 s, 4 s … at most 10 s apart, and what it holds is sent only once a check
 * (or another call) is answered. Ask for it once the thing is held: after that check it still is.
 */
function nextServerCheckFailed(page: Page): Promise<unknown> {
  return page.waitForEvent("requestfailed", { predicate: (request) => new URL(request.url()).pathname === "/healthz" });
}

/** Switches the page's network off or on through the DevTools protocol (fetches then really fail). */
async function setNetwork(cdp: CDPSession, online: boolean): Promise<void> {
  await cdp.send("Network.emulateNetworkConditions", {
    offline: !online,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
}

describeBrowser("offline-aware: a banner, and saves held until the connection returns", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let audioId: string;
  let unreachableAudioId: string;
  let page: Page;
  let cdp: CDPSession;
  /** Every transcripts.save request the staff page made, as the browser saw them (held ones are never made). */
  const saveRequests: string[] = [];

  const banner = (on: Page = page) => on.getByTestId("connection-banner");
  const editor = (on: Page = page) => on.getByRole("textbox", { name: "Translated transcript editor" });

  /** The transcript versions saved for `audio` (rows of transcript_versions), oldest first. */
  const versions = (audio: string) =>
    suite.server.harness.deps.db
      .selectFrom("transcriptVersions")
      .innerJoin("submissions", "submissions.id", "transcriptVersions.submissionId")
      .innerJoin("tasks", "tasks.id", "submissions.taskId")
      .select(["transcriptVersions.text"])
      .where("tasks.audioId", "=", audio)
      .orderBy("transcriptVersions.createdAt")
      .execute();

  /** The comments posted on `audio`. */
  const comments = (audio: string) =>
    suite.server.harness.deps.db
      .selectFrom("comments")
      .innerJoin("submissions", "submissions.id", "comments.submissionId")
      .innerJoin("tasks", "tasks.id", "submissions.taskId")
      .select(["comments.text"])
      .where("tasks.audioId", "=", audio)
      .execute();

  /** The transcript's approval status of `audio`. */
  const transcriptStatus = async (audio: string) =>
    (
      await suite.server.harness.deps.db
        .selectFrom("submissions")
        .innerJoin("tasks", "tasks.id", "submissions.taskId")
        .select(["submissions.translationScriptApprovalStatus"])
        .where("tasks.audioId", "=", audio)
        .executeTakeFirstOrThrow()
    ).translationScriptApprovalStatus;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    audioId = await seedAudio(suite.server, admin, { filename: AUDIO, assignTo: staff });
    unreachableAudioId = await seedAudio(suite.server, admin, { filename: UNREACHABLE_AUDIO, assignTo: staff });
  });

  step("offline: the banner shows and is announced once; Save is held and nothing reaches the server", async () => {
    page = await suite.newPage("staff");
    page.on("request", (request) => {
      if (request.url().includes("/trpc/transcripts.save")) saveRequests.push(request.url());
    });
    await openTranslatedTranscript(page, staff, AUDIO);
    await recordToasts(page);
    await page.getByRole("button", { name: "Write", exact: true }).click();
    await (await seen(editor())).pressSequentially(TEXT);
    expect(await banner().count()).toBe(0);

    cdp = await page.context().newCDPSession(page);
    await setNetwork(cdp, false);
    expect(await (await seen(banner())).innerText()).toBe(CONNECTION_ERROR);
    expect(await banner().getAttribute("role")).toBe("status");
    expect(await announcements(page, CONNECTION_ERROR)).toBe(1);

    await page.getByRole("button", { name: "Save Changes" }).click();
    const waiting = await seen(page.getByRole("button", { name: WAITING }));
    expect(await waiting.isDisabled()).toBe(true);
    await toast(page, SAVE_HELD);
    // After the app's next check of the server still nothing was sent, and the text is still in the editor.
    await nextServerCheckFailed(page);
    expect(saveRequests).toEqual([]);
    expect(await versions(audioId)).toEqual([]);
    expect(await editor().innerText()).toBe(TEXT);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The viewport, not the full page: a full-page capture stretches the window, and the sticky banner, header
    // and footer with it. This one is docs/screenshots/offline-banner.png.
    await toastsGone(page);
    await page.screenshot({ path: path.join(RESULTS_DIR, "offline-01-held-save.png") });
  });

  step("the banner reflows at 320 CSS px without sideways scrolling", async () => {
    await page.setViewportSize({ width: 320, height: 640 });
    await seen(banner());
    // Below 1024 px the sidebar slides away (0.22 s): wait until it has left the screen.
    await expect
      .poll(async () => {
        const box = await page.locator(".shell-sidebar").boundingBox();
        return box ? box.x + box.width : 0;
      })
      .toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const box = await banner().boundingBox();
    expect(box?.width).toBeLessThanOrEqual(320);
    await screenshot(page, "offline-02-banner-320px");
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  step("online again: the held save is sent once, its toast shows once, then the banner goes", async () => {
    await setNetwork(cdp, true);
    await toast(page, SAVED);
    await expect.poll(() => banner().innerText(), { timeout: 10_000 }).toBe(RECONNECTED);
    await seen(page.getByTestId("transcript-text").getByText(TEXT, { exact: true }));
    await banner().waitFor({ state: "detached" });
    expect(await versions(audioId)).toEqual([{ text: TEXT }]);
    expect(saveRequests).toHaveLength(1);
    expect(await toastCount(page, SAVED)).toBe(1);
    expect(await announcements(page, RECONNECTED)).toBe(1);
    // Saved: the draft kept in the browser is gone, and Save is back.
    const draft = await page.evaluate(
      (key) => localStorage.getItem(key),
      `tafsiri-transcript-draft:${staff.id}:${audioId}`,
    );
    expect(draft).toBeNull();
    await seen(page.getByRole("button", { name: "Save Changes" }));
    await toastsGone(page);
  });

  step("a comment sent offline stays in the box, is held, and is posted once when back", async () => {
    const nav = page.getByRole("navigation", { name: "Audio management" });
    await nav.getByRole("link", { name: "Give Feedback", exact: true }).click();
    await atPath(page, "/audiomanagement/feedback");
    await (await seen(page.getByRole("textbox", { name: "Comment", exact: true }))).fill(COMMENT);
    await setNetwork(cdp, false);
    await seen(banner());
    await page.getByRole("button", { name: "Send", exact: true }).click();
    expect(await (await seen(page.getByRole("button", { name: WAITING }))).isDisabled()).toBe(true);
    await toast(page, "Comment will be sent when the connection returns.");
    expect(await page.getByRole("textbox", { name: "Comment", exact: true }).inputValue()).toBe(COMMENT);
    await nextServerCheckFailed(page);
    expect(await comments(audioId)).toEqual([]);

    await setNetwork(cdp, true);
    await toast(page, "Comment sent.");
    await seen(page.getByRole("region", { name: /^Comments/ }).getByText(COMMENT));
    expect(await page.getByRole("textbox", { name: "Comment", exact: true }).inputValue()).toBe("");
    expect(await comments(audioId)).toEqual([{ text: COMMENT }]);
    expect(await toastCount(page, "Comment sent.")).toBe(1);
  });

  step("an admin's approval made offline is held and sent once when back", async () => {
    const adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await selectAudio(adminPage, audioId);
    await adminPage.goto("/audiomanagement/trascript");
    await seen(adminPage.getByTestId("transcript-text").getByText(TEXT, { exact: true }));
    await recordToasts(adminPage);
    const adminCdp = await adminPage.context().newCDPSession(adminPage);
    await setNetwork(adminCdp, false);
    await seen(banner(adminPage));
    const review = adminPage.getByRole("group", { name: "Review" });
    await review.getByRole("button", { name: "Approve", exact: true }).click();
    expect(await (await seen(review.getByRole("button", { name: WAITING }))).isDisabled()).toBe(true);
    await toast(adminPage, "Approval will be sent when the connection returns.");
    await nextServerCheckFailed(adminPage);
    expect(await transcriptStatus(audioId)).toBe("Pending");

    await setNetwork(adminCdp, true);
    await toast(adminPage, "Transcript approved successfully.");
    await seen(adminPage.getByText("Approved", { exact: true }));
    expect(await transcriptStatus(audioId)).toBe("Approved");
    expect(await toastCount(adminPage, "Transcript approved successfully.")).toBe(1);
    await adminPage.context().close();
  });

  step(
    "server unreachable while online: a save without an answer is shown as not saved, the next one held",
    async () => {
      const other = await suite.newPage("staff-unreachable");
      await openTranslatedTranscript(other, staff, UNREACHABLE_AUDIO);
      await recordToasts(other);
      await other.getByRole("button", { name: "Write", exact: true }).click();
      await (await seen(editor(other))).pressSequentially(UNREACHABLE_TEXT);

      // The browser stays online; the server's API and health check get no answer (the live WebSocket stays open).
      const cut = (route: Route) => route.abort("connectionrefused");
      const api = (url: URL) => url.pathname.startsWith("/trpc") || url.pathname === "/healthz";
      await other.route(api, cut);
      await other.getByRole("button", { name: "Save Changes" }).click();
      await toast(other, `Error uploading transcript, server error: ${CONNECTION_ERROR}`);
      expect(await (await seen(banner(other))).innerText()).toBe(CONNECTION_ERROR);
      // Not lost: the text is still in the editor, and kept in the browser.
      expect(await editor(other).innerText()).toBe(UNREACHABLE_TEXT);
      await toastsGone(other);

      await other.getByRole("button", { name: "Save Changes" }).click();
      expect(await (await seen(other.getByRole("button", { name: WAITING }))).isDisabled()).toBe(true);
      await toast(other, SAVE_HELD);
      await nextServerCheckFailed(other);
      expect(await versions(unreachableAudioId)).toEqual([]);

      // The server answers again: the next check of it (at most 10 s away) finds it and the save is sent.
      await other.unroute(api, cut);
      await toast(other, SAVED);
      await expect.poll(() => banner(other).innerText(), { timeout: 10_000 }).toBe(RECONNECTED);
      await banner(other).waitFor({ state: "detached" });
      expect(await versions(unreachableAudioId)).toEqual([{ text: UNREACHABLE_TEXT }]);
      expect(await toastCount(other, SAVED)).toBe(1);
      await other.context().close();
    },
  );

  step("signed out: the sign-in page shows the banner too, and drops it when back", async () => {
    const signedOut = await suite.newPage("signed-out");
    await signedOut.goto("/signin");
    await seen(signedOut.getByRole("button", { name: /^sign in$/i }));
    // The email field's passkey offer asks the server for a challenge as the page opens (decision 038);
    // an answer arriving after the cut would count as the connection coming back.
    await signedOut.waitForLoadState("networkidle");
    await signedOut.context().setOffline(true);
    expect(await (await seen(banner(signedOut))).innerText()).toBe(CONNECTION_ERROR);
    expect(await seriousAxeViolations(signedOut)).toEqual([]);
    await screenshot(signedOut, "offline-03-signin-banner");
    await signedOut.context().setOffline(false);
    await expect.poll(() => banner(signedOut).innerText(), { timeout: 10_000 }).toBe(RECONNECTED);
    await banner(signedOut).waitFor({ state: "detached" });
    await signedOut.context().close();
  });
});
