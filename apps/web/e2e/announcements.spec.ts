// What a screen-reader user hears. Every toast is read once through the app's
// live regions, errors in the assertive one and the rest in the polite one (sonner's own region is
// silenced so nothing is read twice); a new notification is announced once; a submission that
// arrives live on the Submissions page is announced once, and refetches that change nothing say
// nothing; a bulk upload says 'Uploading n files' once, not every step of its count.
import { beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import {
  atPath,
  describeBrowser,
  seen,
  selectAudio,
  signIn,
  submitSignIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seedAudio } from "./support/seed";
import { createSteps, fixture } from "./support/steps";
import type { TestUser } from "./support/server";

interface Heard {
  politeness: string;
  text: string;
}

/** Starts recording every line added to the app's live regions (they are removed after a while). */
async function listen(page: Page): Promise<void> {
  await page.getByTestId("live-announcer").waitFor({ state: "attached" });
  await page.evaluate(() => {
    const heard: { politeness: string; text: string }[] = [];
    Object.assign(window, { tafsiriHeard: heard });
    const root = document.querySelector('[data-testid="live-announcer"]');
    if (!root) throw new Error("No live announcer on the page.");
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          if (!(node instanceof HTMLElement) || !node.matches("[data-announcement]")) continue;
          const region = node.closest("[data-politeness]");
          heard.push({ politeness: region?.getAttribute("data-politeness") ?? "?", text: node.textContent ?? "" });
        }
      }
    }).observe(root, { childList: true, subtree: true });
  });
}

/** Everything announced since listen(). */
async function heard(page: Page): Promise<Heard[]> {
  return page.evaluate(() => (window as unknown as { tafsiriHeard: Heard[] }).tafsiriHeard);
}

/** Waits until an announcement containing `text` was heard. */
async function heardOf(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (wanted) => (window as unknown as { tafsiriHeard: Heard[] }).tafsiriHeard.some((h) => h.text.includes(wanted)),
    text,
  );
}

/**
 * Waits until an announcement containing `text` was heard, then for `over`, what ends the time in
 * which it could be said again (the toast that said it closed; a later event heard), and answers
 * every one that matches.
 */
async function heardOnce(page: Page, text: string, over: () => Promise<void>): Promise<Heard[]> {
  await heardOf(page, text);
  await over();
  return (await heard(page)).filter((h) => h.text.includes(text));
}

/**
 * Resolves once the page's live subscription has started (tRPC's 'started' message over its
 * WebSocket): events sent from then on reach it. Call before the page loads.
 */
function liveStarted(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on("websocket", (ws) =>
      ws.on("framereceived", (frame) => {
        if (String(frame.payload).includes('"started"')) resolve();
      }),
    );
  });
}

describeBrowser("screen-reader announcements", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let staffPage: Page;
  let adminPage: Page;
  let audioId: string;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin", { username: "Amina Admin" });
    staff = await suite.server.createUser("Staff", { username: "Samuel Staff" });
    audioId = await seedAudio(suite.server, admin, { filename: "announce-me", assignTo: staff });
  });

  step("an error toast is read once, assertively, and sonner's own region is silent", async () => {
    staffPage = await suite.newPage("staff");
    await staffPage.goto("/signin");
    await listen(staffPage);
    await submitSignIn(staffPage, staff.email, "Wrong-password-1!");
    await toast(staffPage, "Login Failed");
    // Once the toast has closed it is not read again (its dismissal was the last chance).
    const said = await heardOnce(staffPage, "Login Failed", () => toastsGone(staffPage));
    expect(said).toHaveLength(1);
    expect(said[0]!.politeness).toBe("assertive");
    const sonnerLive = await staffPage.locator("section[aria-live]").first().getAttribute("aria-live");
    expect(sonnerLive).toBe("off");
  });

  step("a success toast is read once, politely", async () => {
    await signIn(staffPage, staff);
    await selectAudio(staffPage, audioId);
    await staffPage.goto("/audiomanagement/trascript");
    await listen(staffPage);
    await staffPage.getByRole("button", { name: "Write", exact: true }).click();
    const editor = await seen(staffPage.getByRole("textbox", { name: "Translated transcript editor" }));
    await editor.pressSequentially("Habari ya asubuhi.");
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    await toast(staffPage, "Transcript saved");
    const said = await heardOnce(staffPage, "Transcript saved", () => toastsGone(staffPage));
    expect(said).toEqual([{ politeness: "polite", text: "Transcript saved and uploaded successfully." }]);
  });

  step("a new notification is announced once", async () => {
    const started = liveStarted(staffPage);
    await staffPage.goto("/Audios");
    await seen(staffPage.getByRole("heading", { name: "Tasks" }));
    await started;
    await listen(staffPage);
    // A recommendation notifies its recipient (SPEC §2.15).
    const other = await suite.server.createUser("Staff", { username: "Olivia Other" });
    const second = await seedAudio(suite.server, admin, { filename: "second-audio", assignTo: other });
    await suite.server.harness.caller(other).transcripts.save({ audioId: second, text: "Mbili." });
    await suite.server.harness.caller(admin).recommendations.create({ audioId: second, staffId: staff.id });
    // A later event (an audio assigned to the staff member, which notifies nobody) shows on the page
    // once its refetch is answered: a second reading of the notification would have come before it.
    const said = await heardOnce(staffPage, "New notification:", async () => {
      await seedAudio(suite.server, admin, { filename: "later-audio", assignTo: staff });
      await seen(staffPage.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: "later-audio" }));
    });
    expect(said).toHaveLength(1);
    expect(said[0]!.politeness).toBe("polite");
    expect(said[0]!.text).toBe("New notification: Amina Admin recommended an audio for recording.");
  });

  step("a submission arriving on the Submissions page is announced once; a refetch says nothing", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    const started = liveStarted(adminPage);
    await adminPage.goto("/submission/general");
    await seen(adminPage.getByRole("cell", { name: "announce-me" }));
    await started;
    await listen(adminPage);
    const third = await seedAudio(suite.server, admin, { filename: "third-audio", assignTo: staff });
    await suite.server.harness.caller(staff).transcripts.save({ audioId: third, text: "Tatu." });
    const said = await heardOnce(adminPage, "New submission: third-audio", async () => {
      // A change to a row already on the page refetches the list but brings no new row.
      await suite.server.harness.caller(admin).transcripts.approve({ audioId: third });
      await seen(adminPage.getByRole("row").filter({ hasText: "third-audio" }).getByText("Approved", { exact: true }));
      // A later arrival is announced after anything that refetch, or a second reading, would have said.
      const fourth = await seedAudio(suite.server, admin, { filename: "fourth-audio", assignTo: staff });
      await suite.server.harness.caller(staff).transcripts.save({ audioId: fourth, text: "Nne." });
      await heardOf(adminPage, "New submission: fourth-audio");
    });
    expect(said).toEqual([{ politeness: "polite", text: "New submission: third-audio by Samuel Staff" }]);
    expect((await heard(adminPage)).filter((h) => h.text.includes("submission"))).toEqual([
      ...said,
      { politeness: "polite", text: "New submission: fourth-audio by Samuel Staff" },
    ]);
  });

  step("a bulk upload says 'Uploading n files' once, not every step", async () => {
    await adminPage.goto("/management/upload");
    await atPath(adminPage, "/management/upload");
    await listen(adminPage);
    const bulk = adminPage.getByRole("region", { name: "Bulk upload" });
    await bulk.getByLabel("Category").selectOption("Dementia");
    await bulk.getByLabel("Zip file").setInputFiles(fixture("bulk-dementia.zip"));
    await bulk.getByRole("button", { name: "Upload Bulk" }).click();
    await toast(adminPage, "All files uploaded successfully!");
    // The upload is over once its toast has closed.
    await toastsGone(adminPage);
    const said = (await heard(adminPage)).map((h) => h.text);
    expect(said.filter((text) => text.startsWith("Uploading"))).toEqual(["Uploading 3 files"]);
    expect(said.filter((text) => text.includes("All files uploaded successfully!"))).toHaveLength(1);
  });
});
