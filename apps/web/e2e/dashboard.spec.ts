// SPEC §2.6 and decision 011: the Admin dashboard in a real browser on a small known set
// built through the real procedures (two staff, seven tasks, transcripts saved, a recording
// uploaded, some approved or rejected by the admin). Checks the cards, the Staff overall Activity
// rows, the Work Load chart (one bar per staff member, with its text alternative), the Team
// Engagement Report (percentage, audio minutes, payment in UGX, the expanded row's counts),
// editing a rate (payments change at once; a rate per audio minute adds minutes × rate), the
// period selector, the CSV download, a live approval changing the cards without a reload, axe,
// the audios' durations (h:mm:ss, m:ss or '—') on the Tasks cards, Manage Audios, Assign Tasks and
// Submissions, and the Staff's redirect to /Audios.
import { readFile } from "node:fs/promises";
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  atPath,
  describeBrowser,
  markWindow,
  notReloaded,
  screenshot,
  seen,
  signIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { uploadRecording } from "./support/finished-tasks";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const AMINA = "dash_amina";
const BARAKA = "dash_baraka";
const TEXT = "Habari ya asubuhi.";
const UGX = new Intl.NumberFormat("en-UG", { style: "currency", currency: "UGX", maximumFractionDigits: 0 });

/** An amount as the report shows it, spaces normalised (ICU puts a no-break space after the symbol). */
function ugx(amount: number): string {
  return spaces(UGX.format(amount));
}

function spaces(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, " ").trim();
}

/** The figures of a dashboard card, e.g. { Completed: "1", Pending: "6" }. */
async function cardFigures(page: Page, title: string): Promise<Record<string, string>> {
  const card = page.getByRole("region", { name: title, exact: true });
  await seen(card.getByRole("term"));
  const terms = await card.getByRole("term").allInnerTexts();
  const values = await card.getByRole("definition").allInnerTexts();
  return Object.fromEntries(terms.map((term, i) => [term.trim(), values[i]?.trim() ?? ""]));
}

/** The row of `username` in the table named (or starting with) `table`. */
function tableRow(page: Page, table: string | RegExp, username: string): Locator {
  return page
    .getByRole("table", { name: table })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: username, exact: true }) });
}

const REPORT = /^Team Engagement Report/;

/**
 * The data cells of `username`'s report row: tasks, completed, submissions %, audio minutes,
 * payment (the toggle's cell left out).
 */
async function reportCells(page: Page, username: string): Promise<string[]> {
  const cells = await tableRow(page, REPORT, username).getByRole("cell").allInnerTexts();
  return cells.slice(0, 5).map(spaces);
}

/** The row of the table (or the card) holding `name` exactly as a cell or the card's title. */
function rowOf(page: Page, name: string): Locator {
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
}

describeBrowser("dashboard: cards, activity, work load, team report, rates, period, CSV, live", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let amina: TestUser;
  let baraka: TestUser;
  let page: Page;
  /** Baraka's first audio: transcript approved, recording pending (approved live in a later step). */
  let barakaFirst: string;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    amina = await server.createUser("Staff", { username: AMINA });
    baraka = await server.createUser("Staff", { username: BARAKA });
    const asAdmin = server.harness.caller(admin);
    const audio = (filename: string, staff: TestUser) => seedAudio(server, admin, { filename, assignTo: staff });

    // Amina: a complete task, a rejected transcript, a pending transcript, an untouched task.
    const a1 = await audio("dash-a1", amina);
    await server.harness.caller(amina).transcripts.save({ audioId: a1, text: TEXT });
    await uploadRecording(server, amina, a1);
    await asAdmin.transcripts.approve({ audioId: a1 });
    await asAdmin.recordings.approve({ audioId: a1 });
    const a2 = await audio("dash-a2", amina);
    await server.harness.caller(amina).transcripts.save({ audioId: a2, text: TEXT });
    await asAdmin.transcripts.reject({ audioId: a2, reason: "Check the second line." });
    const a3 = await audio("dash-a3", amina);
    await server.harness.caller(amina).transcripts.save({ audioId: a3, text: TEXT });
    await audio("dash-a4", amina);

    // Baraka: an approved transcript with a pending recording, two untouched tasks.
    barakaFirst = await audio("dash-b1", baraka);
    await server.harness.caller(baraka).transcripts.save({ audioId: barakaFirst, text: TEXT });
    await asAdmin.transcripts.approve({ audioId: barakaFirst });
    await uploadRecording(server, baraka, barakaFirst);
    await audio("dash-b2", baraka);
    await audio("dash-b3", baraka);
    await seedAudio(server, admin, { filename: "dash-free" });

    // Durations as the server's waveform job writes them (seconds; 'ready'), or undecodable (null,
    // 'failed', so no job changes them meanwhile): dash-a1 1:02:03 with a 4:05 recording, dash-a2
    // and dash-free 4:05, every other audio (dash-b1's approved transcript among them) unknown.
    const { db } = server.harness.deps;
    await db.updateTable("audios").set({ durationSeconds: null, waveformStatus: "failed" }).execute();
    await db.updateTable("translatedRecordings").set({ durationSeconds: null, waveformStatus: "failed" }).execute();
    const known: Array<[string, number]> = [
      ["dash-a1", 3723.4],
      ["dash-a2", 245.3],
      ["dash-free", 245.3],
    ];
    for (const [filename, seconds] of known)
      await db
        .updateTable("audios")
        .set({ durationSeconds: seconds, waveformStatus: "ready" })
        .where("filename", "=", filename)
        .execute();
    const a1Submission = await db
      .selectFrom("submissions")
      .innerJoin("tasks", "tasks.id", "submissions.taskId")
      .select("submissions.id")
      .where("tasks.audioId", "=", a1)
      .executeTakeFirstOrThrow();
    await db
      .updateTable("translatedRecordings")
      .set({ durationSeconds: 245.3, waveformStatus: "ready" })
      .where("submissionId", "=", a1Submission.id)
      .execute();
  });

  step("the admin's '/' shows the greeting and the three cards", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await atPath(page, "/");
    await seen(page.getByRole("heading", { level: 1, name: /^Good (morning|afternoon|evening), / }));
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toMatch(
      new RegExp(`^Good (morning|afternoon|evening), ${admin.username}$`),
    );
    expect(await cardFigures(page, "Total Users")).toEqual({ Administrators: "1", Staff: "2" });
    expect(await cardFigures(page, "Tasks")).toEqual({ Completed: "1", Pending: "6" });
    expect(await cardFigures(page, "Submissions")).toEqual({ Today: "4", Yesterday: "0" });
  });

  step("Staff overall Activity lists each staff member's tasks, completed, pending and submissions", async () => {
    const amina = await seen(tableRow(page, "Staff overall Activity", AMINA));
    expect(await amina.getByRole("cell").allInnerTexts()).toEqual(["4", "1", "3", "3"]);
    const baraka = tableRow(page, "Staff overall Activity", BARAKA);
    expect(await baraka.getByRole("cell").allInnerTexts()).toEqual(["3", "0", "3", "1"]);
  });

  step("Work Load draws one bar per staff member, with the figures as a table for screen readers", async () => {
    const chart = page.getByTestId("work-load-chart");
    await seen(chart.locator(".recharts-bar-rectangle"));
    // The 'Not completed' series has a bar for every user with work left: both of them.
    expect(await chart.locator(".recharts-bar").nth(1).locator(".recharts-bar-rectangle").count()).toBe(2);
    // The user axis's tick labels (the count axis's are numbers).
    const ticks = chart.locator(".recharts-cartesian-axis-tick-value");
    await expect.poll(async () => (await ticks.allTextContents()).filter((t) => /\D/.test(t))).toEqual([AMINA, BARAKA]);
    await seen(chart.getByText("1 / 4", { exact: true }));
    await seen(chart.getByText("0 / 3", { exact: true }));
    const alternative = page.getByRole("table", { name: /^Work Load/ });
    expect(
      await tableRow(page, /^Work Load/, AMINA)
        .getByRole("cell")
        .allInnerTexts(),
    ).toEqual(["1", "4"]);
    expect(await alternative.getByRole("row").count()).toBe(3);
  });

  step("the Team Engagement Report shows %, payment at the rates, and the expanded row's counts", async () => {
    await seen(page.getByText("Transcript rate", { exact: true }));
    expect(spaces(await page.getByRole("group", { name: "Payment rates" }).innerText())).toContain(ugx(5000));
    await seen(tableRow(page, REPORT, AMINA));
    // Amina: 1:02:03 of audio (approved transcript) + 4:05 (approved recording) = 66.145 minutes.
    expect(await reportCells(page, AMINA)).toEqual(["4", "1", "75.00%", "66.1", ugx(10_000)]);
    // Baraka: an approved transcript whose audio has no known duration yet.
    expect(await reportCells(page, BARAKA)).toEqual(["3", "0", "33.33%", "0.0", ugx(5000)]);

    const toggle = tableRow(page, REPORT, AMINA).getByRole("button", { name: `Expand details of ${AMINA}` });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    const collapse = page.getByRole("button", { name: `Collapse details of ${AMINA}` });
    expect(await collapse.getAttribute("aria-expanded")).toBe("true");
    const work = await seen(page.getByLabel(`Work of ${AMINA}`));
    expect(await work.getByRole("term").allInnerTexts()).toEqual([
      "Completed tasks",
      "Approved recorded tasks",
      "Translated scripts",
      "Audio minutes of approved transcripts",
      "Audio minutes of approved recordings",
      "Approved, duration not known yet",
    ]);
    expect(await work.getByRole("definition").allInnerTexts()).toEqual(["1", "1", "3", "62.1", "4.1", "0"]);
    const reviews = page.getByRole("table", { name: `Reviews of ${AMINA}` });
    const reviewRow = (name: string) =>
      reviews.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
    expect(await reviewRow("Transcripts").getByRole("cell").allInnerTexts()).toEqual(["1", "1", "1"]);
    expect(await reviewRow("Recordings").getByRole("cell").allInnerTexts()).toEqual(["1", "0", "0"]);
    await screenshot(page, "dashboard-01-admin");

    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  step("editing the transcript rate changes the payments at once; a bad rate shows the server's message", async () => {
    await page.getByRole("button", { name: "Edit rates" }).click();
    const form = page.getByRole("form", { name: "Edit payment rates" });
    const transcriptRate = form.getByLabel("Transcript rate (UGX)");
    expect(await transcriptRate.inputValue()).toBe("5000");
    expect(await form.getByLabel("Recording rate (UGX)").inputValue()).toBe("5000");

    await transcriptRate.fill("200000000");
    await form.getByRole("button", { name: "Save" }).click();
    await toast(page, "A rate must be a positive whole number of UGX (at most 100,000,000).");
    await screenshot(page, "dashboard-02-edit-rates-error");
    await toastsGone(page);

    await transcriptRate.fill("7500");
    await form.getByRole("button", { name: "Save" }).click();
    await toast(page, "Payment rates updated successfully.");
    await seen(page.getByRole("button", { name: "Edit rates" }));
    expect(spaces(await page.getByRole("group", { name: "Payment rates" }).innerText())).toContain(ugx(7500));
    await expect.poll(() => reportCells(page, AMINA)).toEqual(["4", "1", "75.00%", "66.1", ugx(12_500)]);
    expect(await reportCells(page, BARAKA)).toEqual(["3", "0", "33.33%", "0.0", ugx(7500)]);
    await toastsGone(page);
  });

  step("a rate per audio minute adds minutes × rate to the payments; 0 takes it away again", async () => {
    const group = page.getByRole("group", { name: "Payment rates" });
    expect(spaces(await group.innerText())).toContain("Audio minute rate");
    expect(spaces(await group.innerText())).toContain("(not used)");
    await page.getByRole("button", { name: "Edit rates" }).click();
    const form = page.getByRole("form", { name: "Edit payment rates" });
    const minuteRate = form.getByLabel("Rate per audio minute (UGX, 0 = none)");
    expect(await minuteRate.inputValue()).toBe("0");

    await minuteRate.fill("200000000");
    await form.getByRole("button", { name: "Save" }).click();
    await toast(page, "The rate per audio minute must be a whole number of UGX from 0 (none) to 100,000,000.");
    await toastsGone(page);

    await minuteRate.fill("100");
    await form.getByRole("button", { name: "Save" }).click();
    await toast(page, "Payment rates updated successfully.");
    expect(spaces(await group.innerText())).toContain(`${ugx(100)} per minute of approved audio`);
    // 12,500 per item + 66.145 minutes × 100 (6,614.5, the sum rounded).
    await expect.poll(() => reportCells(page, AMINA)).toEqual(["4", "1", "75.00%", "66.1", ugx(19_115)]);
    expect(await reportCells(page, BARAKA)).toEqual(["3", "0", "33.33%", "0.0", ugx(7500)]);
    await screenshot(page, "dashboard-02b-audio-minute-rate");
    await toastsGone(page);

    await page.getByRole("button", { name: "Edit rates" }).click();
    await form.getByLabel("Rate per audio minute (UGX, 0 = none)").fill("0");
    await form.getByRole("button", { name: "Save" }).click();
    await toast(page, "Payment rates updated successfully.");
    await expect.poll(() => reportCells(page, AMINA)).toEqual(["4", "1", "75.00%", "66.1", ugx(12_500)]);
    await toastsGone(page);
  });

  step("the period selector: last month has no approvals (all were made now); this month has them", async () => {
    const period = page.getByLabel("Period", { exact: true });
    await period.selectOption({ label: "Last month" });
    await seen(page.getByRole("table", { name: /^Team Engagement Report Last month/ }));
    await expect.poll(() => reportCells(page, AMINA)).toEqual(["4", "0", "75.00%", "0.0", ugx(0)]);
    expect(await reportCells(page, BARAKA)).toEqual(["3", "0", "33.33%", "0.0", ugx(0)]);
    await screenshot(page, "dashboard-03-last-month");

    await period.selectOption({ label: "This month" });
    await expect.poll(() => reportCells(page, AMINA)).toEqual(["4", "1", "75.00%", "66.1", ugx(12_500)]);

    await period.selectOption({ label: "Custom range" });
    const from = page.getByLabel("From", { exact: true });
    const to = page.getByLabel("To", { exact: true });
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    });
    // To is inclusive: a range ending today holds today's approvals.
    await from.fill(today);
    await to.fill(today);
    await expect.poll(() => reportCells(page, AMINA)).toEqual(["4", "1", "75.00%", "66.1", ugx(12_500)]);
    await screenshot(page, "dashboard-04-custom-range");
    await period.selectOption({ label: "All time" });
    await seen(page.getByRole("table", { name: /^Team Engagement Report All time/ }));
  });

  step("'Download CSV' saves the report as shown, with the expanded fields", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("team-report-all-time.csv");
    const file = await download.path();
    const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
    expect(text.split("\r\n")).toEqual([
      "Username,Tasks,Completed,Submissions (%),Audio minutes,Payment (UGX),Approved recorded tasks," +
        "Translated scripts,Approved transcripts,Pending transcripts,Rejected transcripts,Approved recordings," +
        "Pending recordings,Rejected recordings,Audio minutes of approved transcripts," +
        'Audio minutes of approved recordings,"Approved, duration not known yet"',
      `${AMINA},4,1,75.00,66.14,12500,1,3,1,1,1,1,0,0,62.06,4.09,0`,
      `${BARAKA},3,0,33.33,0.00,7500,0,1,1,0,0,0,1,0,0.00,0.00,1`,
      "",
    ]);
  });

  step("an approval made elsewhere changes the Tasks card and the report without a reload", async () => {
    await markWindow(page);
    await suite.server.harness.caller(admin).recordings.approve({ audioId: barakaFirst });
    await expect.poll(() => cardFigures(page, "Tasks")).toEqual({ Completed: "2", Pending: "5" });
    // Baraka's recording (the translated-recording fixture) has no known duration: no minutes.
    await expect.poll(() => reportCells(page, BARAKA)).toEqual(["3", "1", "33.33%", "0.0", ugx(12_500)]);
    expect(await tableRow(page, "Staff overall Activity", BARAKA).getByRole("cell").allInnerTexts()).toEqual([
      "3",
      "1",
      "2",
      "1",
    ]);
    expect(await notReloaded(page)).toBe(true);
    await screenshot(page, "dashboard-05-after-live-approval");
  });

  step(
    "durations show as h:mm:ss or m:ss, '—' when not known: Tasks, Manage Audios, Assign Tasks, Submissions",
    async () => {
      const unknown = "Duration not known yet";
      const checkAxe = async () => {
        const violations = await seriousAxeViolations(page);
        expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      };

      await page.goto("/Audios");
      const card = (filename: string) =>
        page.getByTestId("task-card").filter({ has: page.getByText(filename, { exact: true }) });
      await seen(card("dash-a1"));
      expect(spaces(await card("dash-a1").locator(".task-card-duration").innerText())).toBe("Duration: 1:02:03");
      expect(await card("dash-a1").locator("time").getAttribute("datetime")).toBe("PT1H2M3S");
      expect(spaces(await card("dash-a2").locator(".task-card-duration").innerText())).toBe("Duration: 4:05");
      const unknownCard = card("dash-b2").locator(".task-card-duration");
      expect(await unknownCard.locator("[aria-hidden=true]").innerText()).toBe("—");
      expect(await unknownCard.locator(".sr-only").innerText()).toBe("not known yet");
      // The card is a button: its name says the duration (or that it is not known) in words.
      await seen(page.getByRole("button", { name: /dash-b2.*Duration: not known yet/ }));
      await checkAxe();
      await screenshot(page, "dashboard-06-task-durations");

      await page.goto("/management/manageaudios");
      await seen(rowOf(page, "dash-a1"));
      const headers = await page.getByRole("columnheader").allInnerTexts();
      expect(headers.slice(0, 3)).toEqual(["Audio Name", "Duration", "Category"]);
      expect(await rowOf(page, "dash-a1").getByRole("cell").nth(1).innerText()).toBe("1:02:03");
      expect(await rowOf(page, "dash-a2").getByRole("cell").nth(1).innerText()).toBe("4:05");
      await seen(rowOf(page, "dash-b3").getByRole("cell", { name: unknown }));
      expect(await rowOf(page, "dash-b3").getByRole("cell").nth(1).locator("[aria-hidden=true]").innerText()).toBe("—");
      await checkAxe();

      await page.goto("/management/createtasks");
      await seen(rowOf(page, "dash-free"));
      expect(await page.getByRole("columnheader", { name: "Duration" }).count()).toBe(1);
      await seen(rowOf(page, "dash-free").getByRole("cell", { name: "4:05", exact: true }));
      await checkAxe();

      await page.goto("/submission/general");
      await seen(rowOf(page, "dash-a1"));
      await seen(rowOf(page, "dash-a1").getByRole("cell", { name: "1:02:03", exact: true }));
      await seen(rowOf(page, "dash-b1").getByRole("cell", { name: unknown, exact: true }));
      await checkAxe();
      await screenshot(page, "dashboard-07-submission-durations");
      // Back to the Dashboard for the steps that follow.
      await page.goto("/");
      await seen(tableRow(page, REPORT, AMINA));
    },
  );

  step("Staff are redirected from '/' to /Audios", async () => {
    const staffPage = await suite.newPage("staff");
    await signIn(staffPage, amina);
    await staffPage.goto("/");
    await atPath(staffPage, "/Audios");
    expect(await staffPage.getByRole("region", { name: "Tasks", exact: true }).count()).toBe(0);
  });
});
