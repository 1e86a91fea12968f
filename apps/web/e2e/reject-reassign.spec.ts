// Decision 025: Reject offers 'Return to {assignee}' (the default) or 'Reassign to…' another staff
// member. staff1 has the task in My Tasks with a saved transcript. The admin opens it, Reject: the
// dialog's radio group starts on 'Return to staff1' with the staff dropdown disabled; by keyboard
// only, the admin picks 'Reassign to…' (the dropdown enables, staff1 left out of it), tries Reject
// with no one chosen ('Please select a staff member to reassign.', focus on the dropdown, nothing
// sent), picks staff2 and rejects. The toast says where the task went, focus returns to the Review
// group. staff2 signs in and sees the task in My Tasks with its transcript; staff1 no longer does.
// Axe on the dialog (both states), screenshots of the dialog.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import { atPath, describeBrowser, screenshot, seen, signIn, toast, useBrowserSuite } from "./support/browser";
import { expectFocusRing, isFocused } from "./support/focus";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const FILENAME = "reassign-control";
const TRANSCRIPT_TEXT = "Habari ya asubuhi, line one.";
const REASON = "Line 2 is missing";
/** Screenshots to look at, outside the repository. */
const SHOTS = "/tmp/h4-reject-reassign";

function reviewGroup(page: Page): Locator {
  return page.getByRole("group", { name: "Review" });
}

function rejectDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: "Reject the transcript?" });
}

function staffDropdown(page: Page): Locator {
  return rejectDialog(page).getByRole("combobox", { name: "Staff member" });
}

/** The task cards of the signed-in user's Tasks page, once it has loaded. */
async function myTaskFilenames(page: Page): Promise<string[]> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My Tasks", exact: true }).click();
  await atPath(page, "/Audios");
  const cards = page.getByRole("list", { name: "Tasks" }).getByRole("listitem");
  await seen(page.getByRole("list", { name: "Tasks" }).or(page.getByText("No tasks", { exact: true })));
  return cards.allInnerTexts();
}

async function axeOnDialog(page: Page): Promise<void> {
  const violations = await seriousAxeViolations(page, { include: ['[role="dialog"]'] });
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

describeBrowser("reject and reassign", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff1: TestUser;
  let staff2: TestUser;
  let audioId: string;
  let adminPage: Page;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staff1 = await server.createUser("Staff", { username: "staff1" });
    staff2 = await server.createUser("Staff", { username: "staff2" });
    audioId = await seedAudio(server, admin, { filename: FILENAME, assignTo: staff1 });
    await server.harness.caller(staff1).transcripts.save({ audioId, text: TRANSCRIPT_TEXT });
  });

  step("staff1 has the task in My Tasks; staff2 has none", async () => {
    const page1 = await suite.newPage("staff1");
    await signIn(page1, staff1);
    expect((await myTaskFilenames(page1)).join("\n")).toContain(FILENAME);
    const page2 = await suite.newPage("staff2");
    await signIn(page2, staff2);
    expect(await myTaskFilenames(page2)).toEqual([]);
  });

  step("the admin's Reject offers 'Return to staff1' (chosen) or 'Reassign to…' (dropdown disabled)", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await adminPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All Tasks" }).click();
    await atPath(adminPage, "/Audios");
    await adminPage.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: FILENAME }).click();
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await adminPage
      .getByRole("navigation", { name: "Audio management" })
      .getByRole("link", { name: "Translated Transcript", exact: true })
      .click();
    await atPath(adminPage, "/audiomanagement/trascript");
    await seen(adminPage.getByText(TRANSCRIPT_TEXT, { exact: true }));

    const reject = reviewGroup(adminPage).getByRole("button", { name: "Reject", exact: true });
    await reject.focus();
    await adminPage.keyboard.press("Enter");
    await seen(rejectDialog(adminPage));
    const group = rejectDialog(adminPage).getByRole("group", { name: "After rejecting" });
    const back = group.getByRole("radio", { name: "Return to staff1" });
    const elsewhere = group.getByRole("radio", { name: "Reassign to…" });
    expect(await back.isChecked()).toBe(true);
    expect(await elsewhere.isChecked()).toBe(false);
    expect(await staffDropdown(adminPage).isDisabled()).toBe(true);
    await screenshot(adminPage, "reject-reassign-01-dialog");
    await axeOnDialog(adminPage);
  });

  step("by keyboard: 'Reassign to…' enables the dropdown; Reject with no one chosen says so", async () => {
    const dialog = rejectDialog(adminPage);
    await adminPage.keyboard.type(`  ${REASON}  `);
    // Tab to the chosen radio, arrow to the other one (a native radio group).
    await adminPage.keyboard.press("Tab");
    expect(await isFocused(dialog.getByRole("radio", { name: "Return to staff1" }))).toBe(true);
    await expectFocusRing(adminPage, "the 'Return to staff1' radio");
    await adminPage.keyboard.press("ArrowDown");
    const elsewhere = dialog.getByRole("radio", { name: "Reassign to…" });
    expect(await elsewhere.isChecked()).toBe(true);
    expect(await isFocused(elsewhere)).toBe(true);
    await expect.poll(() => staffDropdown(adminPage).isDisabled()).toBe(false);
    const options = await staffDropdown(adminPage).locator("option").allInnerTexts();
    expect(options).toContain("staff2");
    expect(options).not.toContain("staff1");

    let sent = 0;
    await adminPage.route("**/trpc/transcripts.reject**", async (route) => {
      sent += 1;
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Reject", exact: true }).click();
    await seen(dialog.getByText("Please select a staff member to reassign.", { exact: true }));
    expect(await isFocused(staffDropdown(adminPage))).toBe(true);
    expect(await staffDropdown(adminPage).getAttribute("aria-invalid")).toBe("true");
    expect(sent).toBe(0);
    await screenshot(adminPage, "reject-reassign-02-no-staff");
    await adminPage.screenshot({ path: `${SHOTS}-no-staff.png` });
    await axeOnDialog(adminPage);
  });

  step("choosing staff2 and rejecting: the toast says where the task went, focus returns", async () => {
    const dialog = rejectDialog(adminPage);
    await staffDropdown(adminPage).focus();
    await staffDropdown(adminPage).selectOption({ label: "staff2" });
    await expect.poll(() => dialog.getByText("Please select a staff member to reassign.").count()).toBe(0);
    await expectFocusRing(adminPage, "the staff dropdown");
    await adminPage.screenshot({ path: `${SHOTS}-chosen.png` });
    await screenshot(adminPage, "reject-reassign-03-staff2");
    let body = "";
    adminPage.on("request", (req) => {
      if (req.url().includes("transcripts.reject")) body = req.postData() ?? "";
    });
    // Tab from the dropdown to Cancel, then to Reject; Enter sends.
    await adminPage.keyboard.press("Tab");
    await adminPage.keyboard.press("Tab");
    expect(await isFocused(dialog.getByRole("button", { name: "Reject", exact: true }))).toBe(true);
    await adminPage.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    await toast(adminPage, "Transcript rejected successfully. The task is now assigned to staff2.");
    expect(await isFocused(reviewGroup(adminPage))).toBe(true);
    expect(body).toContain(`"reassignTo":"${staff2.id}"`);
    expect(body).toContain(`"reason":"${REASON}"`);
    await adminPage.unroute("**/trpc/transcripts.reject**");

    const caller = suite.server.harness.caller(admin);
    expect((await caller.transcripts.get({ audioId })).status).toBe("Rejected");
    expect((await caller.audios.get({ audioId })).task?.assignedTo?.username).toBe("staff2");
    await screenshot(adminPage, "reject-reassign-04-rejected");
  });

  step("staff2 now sees the task in My Tasks and opens its transcript; staff1 no longer has it", async () => {
    const page2 = await suite.newPage("staff2");
    await signIn(page2, staff2);
    expect((await myTaskFilenames(page2)).join("\n")).toContain(FILENAME);
    await page2.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: FILENAME }).click();
    await atPath(page2, "/audiomanagement/audiocontrol");
    await page2
      .getByRole("navigation", { name: "Audio management" })
      .getByRole("link", { name: "Translated Transcript", exact: true })
      .click();
    await seen(page2.getByText(TRANSCRIPT_TEXT, { exact: true }));
    await page2.screenshot({ path: `${SHOTS}-staff2.png`, fullPage: true });

    const { items } = await suite.server.harness.caller(staff2).notifications.list({});
    expect(items.map((n) => n.message)).toContain(
      `${admin.username} rejected the transcript for ${FILENAME} and assigned it to you: ${REASON}`,
    );

    const page1 = await suite.newPage("staff1");
    await signIn(page1, staff1);
    expect(await myTaskFilenames(page1)).toEqual([]);
    await seen(page1.getByText("No tasks", { exact: true }));
    const old = await suite.server.harness.caller(staff1).notifications.list({});
    expect(old.items.map((n) => n.message)).toContain(
      `${admin.username} rejected the transcript for ${FILENAME} and reassigned it to staff2: ${REASON}`,
    );
  });
});
