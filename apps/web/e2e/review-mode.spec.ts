// Decision 025, "Done when": an admin clears the review queue in review mode by KEYBOARD ALONE.
// Six submissions wait under 'Needs review' (two with a translated recording). From the
// Submissions page the admin tabs to 'Review' and, with Alt keys only, approves a transcript and a
// recording, rejects a transcript with a reason typed in the dialog, adds a comment, goes next and
// previous. Meanwhile a second admin approves the transcript of the submission on screen (a call
// from the test): the screen says 'admin2 approved the transcript.' in its status region and moves
// on. At the end the database holds exactly one review row and one audit entry per review (none
// applied twice). Axe on the screen, its 'Shortcuts' popover lists the keys, and a screenshot.
// Last, a submission another admin deletes while it is on screen: the screen says so and moves on.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { describeBrowser, screenshot, seen, signIn, toast, toastsGone, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { uploadRecording } from "./support/finished-tasks";
import { focusArrives, tabTo } from "./support/focus";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const NAMES = [1, 2, 3, 4, 5, 6].map((n) => `review-mode-${n}`);
const REASON = "The second line is missing.";
const COMMENT = "Checked against the audio, thanks.";

/** The page's h1: the filename of the submission shown. */
function heading(page: Page): Locator {
  return page.getByRole("heading", { level: 1 });
}

/** A region of the review screen ('Transcript', 'Translated recording', 'Comments'). */
function region(page: Page, name: string): Locator {
  return page.getByRole("region", { name, exact: true });
}

/** Waits until the screen shows `filename` with the heading focused and the position `position`. */
async function showing(page: Page, filename: string, position?: string): Promise<void> {
  await seen(heading(page).filter({ hasText: filename }));
  if (position) await seen(page.getByTestId("review-position").filter({ hasText: new RegExp(`^${position}$`) }));
}

/** Presses an Alt shortcut by its key code (what macOS's Option sends too). */
async function alt(page: Page, letter: string): Promise<void> {
  await page.keyboard.press(`Alt+Key${letter}`);
}

describeBrowser("review mode: six submissions reviewed by keyboard alone while a second admin reviews one", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let admin2: TestUser;
  let staff: TestUser;
  let page: Page;
  const audioIds: string[] = [];

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    admin2 = await server.createUser("Admin");
    staff = await server.createUser("Staff");
    // In this order, so the queue (oldest change first) is 1..6; 1 and 2 also have a recording.
    for (const [i, filename] of NAMES.entries()) {
      const audioId = await seedAudio(server, admin, { filename, assignTo: staff });
      await server.harness.caller(staff).transcripts.save({ audioId, text: `Line one of ${filename}.` });
      if (i < 2) await uploadRecording(server, staff, audioId);
      audioIds.push(audioId);
    }
  });

  step("the admin tabs from the Submissions page to 'Review' and lands on the oldest, 1 of 6", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.goto("/submission/general?status=needsReview");
    await seen(page.getByRole("heading", { name: "Submissions", level: 1 }));
    await tabTo(page, page.getByRole("link", { name: "Review", exact: true }));
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/submission/review" && url.search === "?status=needsReview");
    await showing(page, NAMES[0]!, "1 of 6");
    await seen(page.getByText(`Staff: ${staff.username} · Category: Control`));
    await seen(region(page, "Transcript").getByText(`Line one of ${NAMES[0]}.`));
    await seen(region(page, "Translated recording").getByRole("group", { name: "Translated recording" }));
    // Each key is on its button.
    await expect(page.getByRole("button", { name: /^Next/ }).getAttribute("aria-keyshortcuts")).resolves.toBe("Alt+N");
    await expect(
      region(page, "Transcript").getByRole("button", { name: "Approve" }).getAttribute("aria-keyshortcuts"),
    ).resolves.toBe("Alt+A");
    await expect(
      region(page, "Translated recording").getByRole("button", { name: "Reject" }).getAttribute("aria-keyshortcuts"),
    ).resolves.toBe("Alt+X");
  });

  step("the keys are listed in the player's Shortcuts; axe finds nothing serious", async () => {
    const player = page.getByRole("group", { name: "Original audio" });
    await player.getByRole("button", { name: "Shortcuts", exact: true }).click();
    const list = await seen(page.getByRole("region", { name: "Keyboard shortcuts" }));
    await seen(list.getByText("in the comment box only Alt+C does", { exact: false }));
    for (const keys of ["Alt+A", "Alt+R", "Alt+O", "Alt+X", "Alt+N", "Alt+P", "Alt+C"]) {
      await seen(list.getByText(keys, { exact: true }));
    }
    await screenshot(page, "review-mode-01-shortcuts");
    await page.keyboard.press("Escape");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("Alt+A approves the transcript, Alt+O the recording; Alt+N goes on to 2 with focus on its heading", async () => {
    await alt(page, "A");
    await toast(page, "Transcript approved successfully.");
    await seen(region(page, "Transcript").getByText("Approved", { exact: true }));
    await alt(page, "O");
    await toast(page, /approved successfully/);
    await seen(region(page, "Translated recording").getByText("Approved", { exact: true }).first());
    await toastsGone(page);
    await alt(page, "N");
    // Submission 1 left 'Needs review': 2 is now first of 5.
    await showing(page, NAMES[1]!, "1 of 5");
    await focusArrives(page, heading(page));
  });

  step("Alt+R asks the reason; typed and sent by keyboard, the transcript is Rejected", async () => {
    await alt(page, "R");
    const dialog = await seen(page.getByRole("dialog", { name: "Reject the transcript?" }));
    await focusArrives(page, dialog.getByRole("textbox", { name: "Reason (optional)" }));
    await page.keyboard.type(REASON);
    await tabTo(page, dialog.getByRole("button", { name: "Reject", exact: true }));
    await page.keyboard.press("Enter");
    await toast(page, /rejected/i);
    await seen(region(page, "Transcript").getByText("Rejected", { exact: true }));
    await dialog.waitFor({ state: "detached" });
    // Its recording is still pending: it stays in the filter, shown until the admin moves on.
    await seen(region(page, "Comments").getByText(REASON));
  });

  step("Alt+N, Alt+C and a comment, Alt+N, Alt+P back: the comment is there", async () => {
    await toastsGone(page);
    await alt(page, "N");
    await showing(page, NAMES[2]!);
    await alt(page, "C");
    await focusArrives(page, page.getByRole("textbox", { name: /Add a comment/ }));
    await page.keyboard.type(COMMENT);
    // Alt+N inside the comment box is left to the box: the screen stays.
    await alt(page, "N");
    await showing(page, NAMES[2]!);
    await tabTo(page, page.getByRole("button", { name: "Add comment" }));
    await page.keyboard.press("Enter");
    await seen(region(page, "Comments").getByText(COMMENT));
    // Focus is back in the box for another comment; Shift+Tab leaves it (Alt+N is the box's inside it).
    await focusArrives(page, page.getByRole("textbox", { name: /Add a comment/ }));
    await page.keyboard.press("Shift+Tab");
    await alt(page, "N");
    await showing(page, NAMES[3]!);
    await alt(page, "P");
    await showing(page, NAMES[2]!);
    await focusArrives(page, heading(page));
    await seen(region(page, "Comments").getByText(COMMENT));
    await alt(page, "A");
    await toast(page, "Transcript approved successfully.");
    await seen(region(page, "Transcript").getByText("Approved", { exact: true }));
    await toastsGone(page);
    await alt(page, "N");
    await showing(page, NAMES[3]!);
  });

  step("a second admin approves the transcript on screen: the screen says so and moves on", async () => {
    await suite.server.harness.caller(admin2).transcripts.approve({ audioId: audioIds[3]! });
    await seen(page.getByTestId("review-notice").filter({ hasText: `${admin2.username} approved the transcript.` }));
    await expect(page.getByTestId("review-notice").getAttribute("role")).resolves.toBe("status");
    await showing(page, NAMES[4]!);
    await screenshot(page, "review-mode-02-moved-on");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step(
    "5 and 6 approved; 2 (now at the end): Alt+X's reject dialog cancelled by Escape, Alt+O approves its recording; past the end it says so",
    async () => {
      await alt(page, "A");
      await toast(page, "Transcript approved successfully.");
      await seen(region(page, "Transcript").getByText("Approved", { exact: true }));
      await toastsGone(page);
      await alt(page, "N");
      await showing(page, NAMES[5]!);
      await alt(page, "A");
      await toast(page, "Transcript approved successfully.");
      await toastsGone(page);
      await alt(page, "N");
      await showing(page, NAMES[1]!);
      await alt(page, "X");
      const dialog = await seen(page.getByRole("dialog", { name: "Reject the translated audio?" }));
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await alt(page, "O");
      await toast(page, /approved successfully/);
      await seen(region(page, "Translated recording").getByText("Approved", { exact: true }).first());
      await toastsGone(page);
      await alt(page, "N");
      await seen(page.getByTestId("review-notice").filter({ hasText: "That was the last submission in this filter." }));
      await screenshot(page, "review-mode-03-end");
    },
  );

  step("no review was applied twice: one reviews row and one audit entry per review", async () => {
    const db = suite.server.harness.deps.db;
    const reviews = await db
      .selectFrom("reviews")
      .innerJoin("submissions", "submissions.id", "reviews.submissionId")
      .innerJoin("tasks", "tasks.id", "submissions.taskId")
      .select(["tasks.audioId", "reviews.output", "reviews.action", "reviews.reviewerId", "reviews.submissionId"])
      .execute();
    const row = (i: number, output: string, action: string, reviewer: TestUser) => ({
      audioId: audioIds[i],
      output,
      action,
      reviewerId: reviewer.id,
    });
    const expected = [
      row(0, "transcript", "approve", admin),
      row(0, "recording", "approve", admin),
      row(1, "transcript", "reject", admin),
      row(2, "transcript", "approve", admin),
      row(3, "transcript", "approve", admin2),
      row(4, "transcript", "approve", admin),
      row(5, "transcript", "approve", admin),
      row(1, "recording", "approve", admin),
    ];
    const strip = (r: { audioId: string; output: string; action: string; reviewerId: string | null }) =>
      `${r.audioId} ${r.output} ${r.action} ${r.reviewerId}`;
    expect(reviews.map(strip).sort()).toEqual(expected.map((r) => strip(r as never)).sort());
    const submissionIds = [...new Set(reviews.map((r) => r.submissionId))];
    const audits = await db
      .selectFrom("auditLog")
      .select(["entityId", "action", "entity"])
      .where("entityId", "in", submissionIds)
      .where("action", "in", ["approve", "reject"])
      .execute();
    expect(audits).toHaveLength(expected.length);
    // Nothing left to review.
    const left = await suite.server.harness.caller(admin).submissions.reviewQueue({ filter: "needsReview" });
    expect(left).toEqual({ item: null, position: 0, total: 0 });
  });

  step("reopened, the cleared filter says there is nothing to review, with a way back", async () => {
    await page.goto("/submission/review");
    await seen(page.getByText("No submissions to review in this filter.", { exact: true }));
    expect(await seriousAxeViolations(page)).toEqual([]);
    const back = page.getByRole("main").getByRole("link", { name: "Back to Submissions" }).last();
    await back.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/submission/general" && url.search === "?status=needsReview");
  });

  step("a submission deleted by another admin while on screen: the screen says so and moves on", async () => {
    const { server } = suite;
    const later: string[] = [];
    for (const filename of ["review-mode-7", "review-mode-8"]) {
      const audioId = await seedAudio(server, admin, { filename, assignTo: staff });
      await server.harness.caller(staff).transcripts.save({ audioId, text: `Line one of ${filename}.` });
      later.push(audioId);
    }
    await page.goto("/submission/review?status=needsReview");
    await showing(page, "review-mode-7", "1 of 2");
    await server.harness.caller(admin2).audios.delete({ audioId: later[0]! });
    await seen(page.getByTestId("review-notice").filter({ hasText: "This submission was deleted meanwhile." }));
    await showing(page, "review-mode-8", "1 of 1");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
