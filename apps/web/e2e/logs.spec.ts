// Logs (SPEC §2.1): the Logs page shows the approval made in the test, filtered by
// its actor. Two admins each approve a transcript (through the real procedures); the Logs page
// shows both approvals in words; filtering by one actor shows only that one's approval and the
// filter survives a reload (it is in the URL); an approval made elsewhere appears without a
// reload; 'Download CSV' saves the filtered rows; the action and date filters; the audio a row
// concerns opens as the current audio; axe finds nothing serious.
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
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const FIRST_ADMIN = "logs_admin_one";
const SECOND_ADMIN = "logs_admin_two";
const AUDIO_A = "logs-river-alpha";
const AUDIO_B = "logs-river-beta";
const AUDIO_C = "logs-river-gamma";

/** The Logs table. */
function logTable(page: Page): Locator {
  return page.getByRole("table", { name: "Log entries" });
}

/** The rows of the Logs table whose action reads `sentence`. */
function logRow(page: Page, sentence: string): Locator {
  return logTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: sentence, exact: true }) });
}

/** The data rows' cells (time left out): [actor, action in words, concerns]. */
async function rowsShown(page: Page): Promise<string[][]> {
  const rows = await logTable(page).getByRole("row").all();
  const cells = await Promise.all(rows.slice(1).map((row) => row.getByRole("cell").allInnerTexts()));
  return cells.map((c) => c.slice(1).map((t) => t.trim()));
}

describeBrowser("logs: the audit log in words, filtered by actor, live, CSV", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let first: TestUser;
  let second: TestUser;
  let staff: TestUser;
  let page: Page;
  let audioC: string;

  beforeAll(async () => {
    const { server } = suite;
    first = await server.createUser("Admin", { username: FIRST_ADMIN });
    second = await server.createUser("Admin", { username: SECOND_ADMIN });
    staff = await server.createUser("Staff", { username: "logs_amina" });
    const asStaff = server.harness.caller(staff);
    const a = await seedAudio(server, first, { filename: AUDIO_A, assignTo: staff });
    const b = await seedAudio(server, first, { filename: AUDIO_B, assignTo: staff });
    audioC = await seedAudio(server, first, { filename: AUDIO_C, assignTo: staff });
    for (const audioId of [a, b, audioC]) await asStaff.transcripts.save({ audioId, text: "Habari ya asubuhi." });
    await server.harness.caller(first).transcripts.approve({ audioId: a });
    await server.harness.caller(second).transcripts.approve({ audioId: b });
  });

  step("the Logs page shows both approvals in words, newest first, with their actors and audios", async () => {
    page = await suite.newPage("admin");
    await signIn(page, first);
    await page.goto("/log/log-listing");
    await seen(page.getByRole("heading", { name: "Logs", level: 1 }));
    await seen(logRow(page, `approved the transcript of ${AUDIO_B}`));
    const shown = await rowsShown(page);
    expect(shown.slice(0, 2)).toEqual([
      [SECOND_ADMIN, `approved the transcript of ${AUDIO_B}`, AUDIO_B],
      [FIRST_ADMIN, `approved the transcript of ${AUDIO_A}`, AUDIO_A],
    ]);
    expect(shown).toContainEqual([FIRST_ADMIN, `assigned ${AUDIO_A} to logs_amina`, AUDIO_A]);
    expect(shown).toContainEqual(["logs_amina", `saved the transcript of ${AUDIO_C}`, AUDIO_C]);
    const time = logRow(page, `approved the transcript of ${AUDIO_B}`).locator("time");
    expect(await time.getAttribute("title")).toMatch(/^[A-Z][a-z]+ \d{1,2}(st|nd|rd|th) \d{4}, /);
    await screenshot(page, "logs-01-all-entries");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("filtering by one actor shows only that actor's approval, and survives a reload", async () => {
    await page.getByLabel("Actor").selectOption({ label: SECOND_ADMIN });
    await expect
      .poll(() => rowsShown(page))
      .toEqual([[SECOND_ADMIN, `approved the transcript of ${AUDIO_B}`, AUDIO_B]]);
    expect(new URL(page.url()).searchParams.get("actor")).toBe(second.id);
    await page.reload();
    await seen(logRow(page, `approved the transcript of ${AUDIO_B}`));
    expect(await page.getByLabel("Actor").inputValue()).toBe(second.id);
    expect(await rowsShown(page)).toEqual([[SECOND_ADMIN, `approved the transcript of ${AUDIO_B}`, AUDIO_B]]);
    await screenshot(page, "logs-02-filtered-by-actor");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("an approval made elsewhere appears without a reload", async () => {
    await markWindow(page);
    await suite.server.harness.caller(second).transcripts.approve({ audioId: audioC });
    await seen(logRow(page, `approved the transcript of ${AUDIO_C}`));
    expect(await rowsShown(page)).toEqual([
      [SECOND_ADMIN, `approved the transcript of ${AUDIO_C}`, AUDIO_C],
      [SECOND_ADMIN, `approved the transcript of ${AUDIO_B}`, AUDIO_B],
    ]);
    expect(await notReloaded(page)).toBe(true);
    await screenshot(page, "logs-03-live-approval");
  });

  step("'Download CSV' saves the filtered rows", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("logs.csv");
    const text = (await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, "");
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("Time,Actor,Action,Concerns,Action code,Entity");
    expect(lines.slice(1).map((line) => line.replace(/^[^,]+,/, ""))).toEqual([
      `${SECOND_ADMIN},approved the transcript of ${AUDIO_C},${AUDIO_C},approve,transcript`,
      `${SECOND_ADMIN},approved the transcript of ${AUDIO_B},${AUDIO_B},approve,transcript`,
      "",
    ]);
    for (const line of lines.slice(1, 3)) expect(Number.isNaN(Date.parse(line.split(",")[0]!))).toBe(false);
  });

  step("the action and date filters; Clear filters", async () => {
    await page.getByLabel("Actor").selectOption({ label: "All actors" });
    await page.getByLabel("Action").selectOption({ label: "Approved" });
    await expect
      .poll(async () => (await rowsShown(page)).map((r) => r[1]))
      .toEqual([AUDIO_C, AUDIO_B, AUDIO_A].map((f) => `approved the transcript of ${f}`));
    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString("en-CA");
    await page.getByLabel("From").fill(tomorrow);
    await seen(page.getByText("No log entries match these filters", { exact: true }));
    await screenshot(page, "logs-04-no-match");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await seen(logRow(page, `assigned ${AUDIO_A} to logs_amina`));
    expect(new URL(page.url()).search).toBe("");
  });

  step("the audio a row concerns opens as the current audio", async () => {
    await logRow(page, `approved the transcript of ${AUDIO_A}`)
      .getByRole("button", { name: AUDIO_A, exact: true })
      .click();
    await atPath(page, "/audiomanagement/audiocontrol");
    await seen(page.getByRole("heading", { name: AUDIO_A, level: 1 }));
  });
});
