// Decision 025, bulk review on the Submissions page. Twelve staff transcripts are Pending. The admin
// ticks 'Select all on this page' from the keyboard (12 selected), clears it, then ticks one row
// and Shift+clicks the tenth (10 selected, 'Select all' mixed). Another admin approves one of the
// ten over REST a moment before; the row shows Approved live and stays selected. 'Approve
// transcripts' asks 'Approve the transcripts of 10 submissions?'; while the request runs every
// button is disabled; the summary says '9 transcripts approved. 1 skipped: {file} — The transcript
// is already Approved.', takes the focus, the nine rows leave the selection (1 selected) and show
// Approved; nine assignee notifications are in the database. 'Reject…' asks which outputs and one
// reason for all, naming the count; the rejection stores the reason per output. Keyboard only for
// the actions, axe on the page, both dialogs and the summary, screenshots at 1440 and 375 px.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import { atPath, describeBrowser, screenshot, seen, signIn, useBrowserSuite } from "./support/browser";
import { expectFocusRing, focusArrives, tabTo } from "./support/focus";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const ROWS = 12;
const filenameOf = (i: number) => `bulk-${String(i).padStart(2, "0")}`;
const REASON = "Please check the speaker names.";

function table(page: Page): Locator {
  return page.getByRole("table", { name: "All Submissions" });
}

/** The row of `filename` in the Submissions table. */
function row(page: Page, filename: string): Locator {
  return table(page)
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: filename, exact: true }) });
}

function rowBox(page: Page, filename: string): Locator {
  return page.getByRole("checkbox", { name: `Select ${filename}`, exact: true });
}

function selectAll(page: Page): Locator {
  return page.getByRole("checkbox", { name: "Select all on this page", exact: true });
}

function bar(page: Page): Locator {
  return page.getByRole("group", { name: "Bulk review" });
}

function summary(page: Page): Locator {
  return page.locator(".bulk-summary");
}

/** The filenames of the table's rows, top to bottom. */
async function shownFilenames(page: Page): Promise<string[]> {
  return table(page).locator("td.submission-audio").allInnerTexts();
}

/** The filenames whose row checkbox is ticked, top to bottom. */
async function tickedFilenames(page: Page): Promise<string[]> {
  const names = await shownFilenames(page);
  const ticked: string[] = [];
  for (const name of names) if (await rowBox(page, name).isChecked()) ticked.push(name);
  return ticked;
}

async function noSeriousViolations(page: Page, include?: string[]): Promise<void> {
  const violations = await seriousAxeViolations(page, include ? { include } : undefined);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

describeBrowser("bulk review", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let admin2: TestUser;
  let staff: TestUser;
  let page: Page;
  const audioIds = new Map<string, string>();
  let chosen: string[] = [];
  let taken = "";

  /** The submission of `filename`'s audio and its transcript's status, as stored. */
  const submissionOf = (filename: string) =>
    suite.server.harness.deps.db
      .selectFrom("submissions")
      .innerJoin("tasks", "tasks.id", "submissions.taskId")
      .select(["submissions.id", "submissions.translationScriptApprovalStatus as status"])
      .where("tasks.audioId", "=", audioIds.get(filename)!)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    admin2 = await server.createUser("Admin");
    staff = await server.createUser("Staff");
    for (let i = 1; i <= ROWS; i += 1) {
      const filename = filenameOf(i);
      const audioId = await seedAudio(server, admin, { filename, assignTo: staff });
      await server.harness.caller(staff).transcripts.save({ audioId, text: `Habari ya ${filename}.` });
      audioIds.set(filename, audioId);
    }
  }, 240_000);

  step("the admin's Submissions page has a checkbox per row and 'Select all on this page'", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.goto("/submission/general");
    await atPath(page, "/submission/general");
    await seen(rowBox(page, filenameOf(1)));
    expect(await shownFilenames(page)).toHaveLength(ROWS);
    expect(await selectAll(page).isChecked()).toBe(false);
    // No toolbar buttons until something is selected.
    expect(await bar(page).getByRole("button").count()).toBe(0);
    await noSeriousViolations(page);
  });

  step("'Select all on this page' from the keyboard selects twelve, Space again clears them", async () => {
    await tabTo(page, selectAll(page));
    await page.keyboard.press("Space");
    await seen(bar(page).getByText("12 selected", { exact: true }));
    expect(await tickedFilenames(page)).toHaveLength(ROWS);
    expect(await selectAll(page).isChecked()).toBe(true);
    await page.keyboard.press("Space");
    await bar(page).getByText("12 selected", { exact: true }).waitFor({ state: "detached" });
    expect(await tickedFilenames(page)).toEqual([]);
  });

  step("a click and a Shift+click select the ten rows between; 'Select all' shows mixed", async () => {
    const names = await shownFilenames(page);
    await rowBox(page, names[0]!).click();
    await rowBox(page, names[9]!).click({ modifiers: ["Shift"] });
    await seen(bar(page).getByText("10 selected", { exact: true }));
    chosen = await tickedFilenames(page);
    expect(chosen).toEqual(names.slice(0, 10));
    expect(await selectAll(page).evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);
    // Not told by colour alone: each selected row's box is ticked, and the count is written.
    await screenshot(page, "bulk-review-01-ten-selected");
    await noSeriousViolations(page);
    // The selection column fits: at 1440 px the table does not scroll sideways.
    const wrap = page.locator(".table-wrap").first();
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  });

  step("another admin approves one of the ten over REST; it shows Approved and stays selected", async () => {
    taken = chosen[4]!;
    const { id } = await submissionOf(taken);
    const token = await suite.server.harness.token(admin2);
    const res = await fetch(`${suite.server.baseURL}/api/updatesubmissions/${id}/${admin2.id}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ translation_script_approval_status: "Approved" }),
    });
    expect(res.status, await res.text()).toBe(200);
    await seen(row(page, taken).getByText("Approved", { exact: true }));
    await seen(bar(page).getByText("10 selected", { exact: true }));
    expect(await rowBox(page, taken).isChecked()).toBe(true);
  });

  step("'Approve transcripts' from the keyboard asks, naming the count; Escape changes nothing", async () => {
    const approve = bar(page).getByRole("button", { name: "Approve transcripts", exact: true });
    await tabTo(page, approve);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "Approve the transcripts of 10 submissions?" });
    await seen(dialog);
    await seen(dialog.getByRole("button", { name: "Approve 10 transcripts", exact: true }));
    await noSeriousViolations(page, ['[role="alertdialog"]']);
    await screenshot(page, "bulk-review-02-confirm");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await focusArrives(page, approve);
    expect((await submissionOf(chosen[0]!)).status).toBe("Pending");
  });

  step(
    "confirming runs with every button disabled, then the summary says 9 approved and 1 skipped, and why",
    async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/trpc/reviews.bulk**", async (route) => {
        await held;
        await route.continue();
      });
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("alertdialog", { name: "Approve the transcripts of 10 submissions?" });
      const confirm = dialog.getByRole("button", { name: "Approve 10 transcripts", exact: true });
      await seen(confirm);
      await tabTo(page, confirm);
      await page.keyboard.press("Enter");
      await expect.poll(() => confirm.isDisabled()).toBe(true);
      expect(await dialog.getByRole("button", { name: "Cancel", exact: true }).isDisabled()).toBe(true);
      for (const name of ["Approve transcripts", "Approve recordings", "Reject…"]) {
        // Behind the modal dialog the page is hidden from assistive technology, so found by their text.
        const button = page.locator(".bulk-bar button").filter({ hasText: name });
        expect(await button.isDisabled(), name).toBe(true);
      }
      release();
      await dialog.waitFor({ state: "detached" });
      await page.unroute("**/trpc/reviews.bulk**");

      const expected = `9 transcripts approved. 1 skipped: ${taken} — The transcript is already Approved.`;
      await seen(summary(page).getByText(expected, { exact: true }));
      expect(await summary(page).getAttribute("role")).toBe("status");
      await focusArrives(page, summary(page));
      await expectFocusRing(page, "the summary after the bulk approval");
      // The nine done rows left the selection; the skipped one is still selected.
      await seen(bar(page).getByText("1 selected", { exact: true }));
      expect(await tickedFilenames(page)).toEqual([taken]);
      for (const name of chosen) await seen(row(page, name).getByText("Approved", { exact: true }));
      // The two rows left out are still Pending.
      const left = (await shownFilenames(page)).filter((name) => !chosen.includes(name));
      expect(left).toHaveLength(2);
      for (const name of left) expect((await submissionOf(name)).status).toBe("Pending");
      await screenshot(page, "bulk-review-03-summary");
      await noSeriousViolations(page);
    },
  );

  step("nine assignee notifications in the database, one per approved transcript", async () => {
    const notices = await suite.server.harness.deps.db
      .selectFrom("notifications")
      .select("message")
      .where("recipientId", "=", staff.id)
      .where("senderId", "=", admin.id)
      .execute();
    const approvedByAdmin = chosen.filter((name) => name !== taken);
    expect(notices.map((n) => n.message).sort()).toEqual(
      approvedByAdmin.map((name) => `${admin.username} approved the transcript for ${name}`).sort(),
    );
  });

  step(
    "'Reject…' asks which outputs and one reason for all, naming the count; the reason is stored per output",
    async () => {
      await rowBox(page, taken).uncheck();
      await bar(page).getByText("1 selected", { exact: true }).waitFor({ state: "detached" });
      const left = (await shownFilenames(page)).filter((name) => !chosen.includes(name));
      for (const name of left) await rowBox(page, name).check();
      await seen(bar(page).getByText("2 selected", { exact: true }));
      const reject = bar(page).getByRole("button", { name: "Reject…", exact: true });
      await tabTo(page, reject);
      await page.keyboard.press("Enter");
      await seen(page.getByRole("dialog", { name: "Reject the transcripts of 2 submissions?" }));
      // Its title follows the outputs chosen, so from here the dialog is found by its role alone.
      const dialog = page.getByRole("dialog");
      const recordings = dialog.getByRole("checkbox", { name: "Recordings", exact: true });
      await recordings.check();
      await seen(page.getByRole("dialog", { name: "Reject the transcripts and recordings of 2 submissions?" }));
      await recordings.uncheck();
      await dialog.getByRole("checkbox", { name: "Transcripts", exact: true }).uncheck();
      // Nothing chosen: said in words, and Reject is disabled.
      await seen(dialog.getByText("Choose transcripts, recordings or both.", { exact: true }));
      expect(await dialog.getByRole("button", { name: "Reject", exact: true }).isDisabled()).toBe(true);
      await dialog.getByRole("checkbox", { name: "Transcripts", exact: true }).check();
      await dialog.getByRole("textbox", { name: "Reason for all (optional)" }).fill(`  ${REASON}  `);
      await screenshot(page, "bulk-review-04-reject-dialog");
      await noSeriousViolations(page, ['[role="dialog"]']);
      await dialog.getByRole("button", { name: "Reject", exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      await seen(summary(page).getByText("2 transcripts rejected.", { exact: true }));
      await focusArrives(page, summary(page));
      for (const name of left) {
        const { id, status } = await submissionOf(name);
        expect(status).toBe("Rejected");
        const comments = await suite.server.harness.deps.db
          .selectFrom("comments")
          .select("text")
          .where("submissionId", "=", id)
          .execute();
        expect(comments.map((c) => c.text)).toEqual([REASON]);
      }
      // Nothing is selected any more, so the toolbar's buttons are gone.
      expect(await bar(page).getByRole("button").count()).toBe(0);
    },
  );

  step("at 375 px the rows stack with their checkbox and nothing widens the page", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await rowBox(page, chosen[0]!).check();
    await seen(bar(page).getByText("1 selected", { exact: true }));
    const widest = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(widest).toBeLessThanOrEqual(375);
    await screenshot(page, "bulk-review-05-narrow");
    await noSeriousViolations(page);
  });
});
