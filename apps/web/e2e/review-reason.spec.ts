// SPEC §2.12, §4: Reject asks for an optional reason. A staff member's saved transcript
// is Pending; the admin's Reject opens a dialog ('Reason (optional)', a counter, at most 1,000
// characters). Cancel and Escape change nothing and return focus to Reject. Rejecting with
// '  Line 2 is missing  ' keeps both dialog buttons disabled while the request runs, then shows
// Rejected; the trimmed reason becomes the admin's comment, which the staff member sees on the
// Feedback screen, and the staff member's notification carries it. Approve stays one click.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import {
  atPath,
  describeBrowser,
  selectAudio,
  screenshot,
  seen,
  signIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const FILENAME = "reason-control";
const TRANSCRIPT_TEXT = "Line one of the translation.";
const REASON = "Line 2 is missing";

function reviewGroup(page: Page): Locator {
  return page.getByRole("group", { name: "Review" });
}

function rejectButton(page: Page): Locator {
  return reviewGroup(page).getByRole("button", { name: "Reject", exact: true });
}

function rejectDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: "Reject the transcript?" });
}

function reasonBox(page: Page): Locator {
  return rejectDialog(page).getByRole("textbox", { name: "Reason (optional)" });
}

/** The transcript's status badge, next to the panel title. */
function statusBadge(page: Page): Locator {
  return page.locator(".transcript-panel .panel-header [data-status]");
}

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement);
}

/** Opens the audio from its task card, then a screen of the audio-management sub-navigation. */
async function openAudioScreen(page: Page, tasksLink: string, screen: string, path: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: tasksLink, exact: true }).click();
  await atPath(page, "/Audios");
  await page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: FILENAME }).click();
  await atPath(page, "/audiomanagement/audiocontrol");
  await page
    .getByRole("navigation", { name: "Audio management" })
    .getByRole("link", { name: screen, exact: true })
    .click();
  await atPath(page, path);
  await seen(page.getByRole("heading", { name: FILENAME, level: 1 }));
}

describeBrowser("review reason", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let audioId: string;
  let secondId: string;
  let adminPage: Page;

  const serverStatus = async () => (await suite.server.harness.caller(admin).transcripts.get({ audioId })).status;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staff = await server.createUser("Staff");
    audioId = await seedAudio(server, admin, { filename: FILENAME, assignTo: staff });
    await server.harness.caller(staff).transcripts.save({ audioId, text: TRANSCRIPT_TEXT });
    secondId = await seedAudio(server, admin, { filename: "twice-reviewed", assignTo: staff });
    await server.harness.caller(staff).transcripts.save({ audioId: secondId, text: TRANSCRIPT_TEXT });
  });

  step("the admin's Reject opens the reason dialog with an empty box and a counter", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await openAudioScreen(adminPage, "All Tasks", "Translated Transcript", "/audiomanagement/trascript");
    await seen(adminPage.getByText(TRANSCRIPT_TEXT, { exact: true }));
    expect(await statusBadge(adminPage).innerText()).toBe("Pending");

    await rejectButton(adminPage).click();
    await seen(rejectDialog(adminPage));
    expect(await isFocused(reasonBox(adminPage))).toBe(true);
    expect(await reasonBox(adminPage).inputValue()).toBe("");
    await seen(rejectDialog(adminPage).getByText("0 / 1,000 characters", { exact: true }));
    await seen(rejectDialog(adminPage).getByRole("button", { name: "Cancel", exact: true }));
    await screenshot(adminPage, "review-reason-01-dialog");
    const violations = await seriousAxeViolations(adminPage, { include: ['[role="dialog"]'] });
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  step("Cancel changes nothing and returns focus to Reject", async () => {
    await reasonBox(adminPage).fill("Not this time");
    await rejectDialog(adminPage).getByRole("button", { name: "Cancel", exact: true }).click();
    await rejectDialog(adminPage).waitFor({ state: "detached" });
    expect(await isFocused(rejectButton(adminPage))).toBe(true);
    expect(await statusBadge(adminPage).innerText()).toBe("Pending");
    expect(await serverStatus()).toBe("Pending");
  });

  step("Escape changes nothing either; the box starts empty again", async () => {
    await rejectButton(adminPage).click();
    expect(await reasonBox(adminPage).inputValue()).toBe("");
    await reasonBox(adminPage).fill("Nor this");
    await adminPage.keyboard.press("Escape");
    await rejectDialog(adminPage).waitFor({ state: "detached" });
    expect(await isFocused(rejectButton(adminPage))).toBe(true);
    expect(await serverStatus()).toBe("Pending");
    expect(await suite.server.harness.caller(admin).comments.list({ audioId })).toEqual([]);
  });

  step("the reason stops at 1,000 characters and the counter says so", async () => {
    await rejectButton(adminPage).click();
    await reasonBox(adminPage).fill("x".repeat(999));
    await reasonBox(adminPage).pressSequentially("yz");
    expect((await reasonBox(adminPage).inputValue()).length).toBe(1000);
    await seen(rejectDialog(adminPage).getByText("1,000 / 1,000 characters", { exact: true }));
    await reasonBox(adminPage).fill("");
  });

  step("rejecting with a reason: buttons disabled while it runs, then the status is Rejected", async () => {
    // Hold the request, to see the dialog while it runs.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sentBody = "";
    await adminPage.route("**/trpc/transcripts.reject**", async (route) => {
      sentBody = route.request().postData() ?? "";
      await held;
      await route.continue();
    });

    await reasonBox(adminPage).fill(`  ${REASON}  `);
    await seen(rejectDialog(adminPage).getByText(`${REASON.length + 4} / 1,000 characters`, { exact: true }));
    await screenshot(adminPage, "review-reason-02-reason-typed");
    const confirm = rejectDialog(adminPage).getByRole("button", { name: "Reject", exact: true });
    await confirm.click();
    await expect.poll(() => confirm.isDisabled()).toBe(true);
    expect(await rejectDialog(adminPage).getByRole("button", { name: "Cancel", exact: true }).isDisabled()).toBe(true);
    await screenshot(adminPage, "review-reason-03-rejecting");
    // Escape does not close it meanwhile.
    await adminPage.keyboard.press("Escape");
    expect(await rejectDialog(adminPage).isVisible()).toBe(true);
    release();

    await rejectDialog(adminPage).waitFor({ state: "detached" });
    await toast(adminPage, /rejected/i);
    await expect.poll(() => statusBadge(adminPage).innerText()).toBe("Rejected");
    expect(await rejectButton(adminPage).isDisabled()).toBe(true);
    // Focus is not lost with the now-disabled Reject button: it is on the Review group.
    expect(await isFocused(reviewGroup(adminPage))).toBe(true);
    await adminPage.unroute("**/trpc/transcripts.reject**");
    // The trimmed reason was sent, and stored as the admin's comment.
    expect(sentBody).toContain(`"reason":"${REASON}"`);
    expect(await serverStatus()).toBe("Rejected");
    const comments = await suite.server.harness.caller(admin).comments.list({ audioId });
    expect(comments.map((c) => [c.text, c.author?.username])).toEqual([[REASON, admin.username]]);
    await toastsGone(adminPage);
    await screenshot(adminPage, "review-reason-04-rejected");
  });

  step("the staff member is notified with the reason and sees it as a comment on Feedback", async () => {
    const { items } = await suite.server.harness.caller(staff).notifications.list({});
    expect(items.map((n) => n.message)).toContain(
      `${admin.username} rejected the transcript for ${FILENAME}: ${REASON}`,
    );
    const staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await openAudioScreen(staffPage, "My Tasks", "Give Feedback", "/audiomanagement/feedback");
    const comment = await seen(
      staffPage
        .getByRole("region", { name: /^Comments/ })
        .getByRole("listitem")
        .filter({ hasText: REASON }),
    );
    await seen(comment.getByText(admin.username, { exact: true }));
    expect(await comment.locator(".comment-text").innerText()).toBe(REASON);
    await screenshot(staffPage, "review-reason-05-staff-feedback");
  });

  step("Approve stays one click: no dialog, the status becomes Approved", async () => {
    await reviewGroup(adminPage).getByRole("button", { name: "Approve", exact: true }).click();
    await expect.poll(() => statusBadge(adminPage).innerText()).toBe("Approved");
    expect(await adminPage.getByRole("dialog").count()).toBe(0);
    expect(await serverStatus()).toBe("Approved");
  });

  step(
    "an Approve made right after a Reject acts on the status the Reject set, before the screen refetched it",
    async () => {
      await selectAudio(adminPage, secondId);
      await adminPage.goto(new URL("/audiomanagement/trascript", adminPage.url()).toString());
      await seen(adminPage.getByRole("heading", { name: "twice-reviewed", level: 1 }));
      await expect.poll(() => statusBadge(adminPage).innerText()).toBe("Pending");
      // The screen's own reads of the transcript answer 3 s late: it still shows Pending after the Reject.
      await adminPage.route("**/trpc/*transcripts.get*", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        await route.continue().catch(() => undefined);
      });
      await rejectButton(adminPage).click();
      await rejectDialog(adminPage).getByRole("button", { name: "Reject", exact: true }).click();
      await toast(adminPage, "Transcript rejected successfully.");
      expect(await statusBadge(adminPage).innerText()).toBe("Pending");
      await reviewGroup(adminPage).getByRole("button", { name: "Approve", exact: true }).click();
      await toast(adminPage, "Transcript approved successfully.");
      await adminPage.unroute("**/trpc/*transcripts.get*");
      expect((await suite.server.harness.caller(admin).transcripts.get({ audioId: secondId })).status).toBe("Approved");
    },
  );
});
