// Decision 024, "a research-grade corpus", end to end in a real browser as the people involved do it.
// The admin records P0501 (Dementia) in the Participants side panel and P0502 (Control) by
// 'Import CSV' after a file with a bad row is refused whole; uploads two recordings (spoken by
// espeak-ng in the run) naming their participant and session day, and links a third in Manage
// Audios' Participant dialog. The staff member transcribes the interview: an INV and a PAR
// paragraph, each started with Alt+T while the original audio plays, saved; uploads a translated
// recording; the admin approves both. The Dementia export's .cha has @Participants, an @ID per
// speaker (PAR's age, sex, group, education and MMSE), @Date and the time bullets marked, and
// passes the CHAT rules; its manifest carries the participant. The admin withdraws P0501's consent
// (confirmed): a new export leaves the recording out and says why (left_out.*), the earlier link
// answers 410, the Exports page shows it superseded, and the Logs page names both changes. axe
// finds nothing serious on the screens other specs do not check: the upload form with a
// participant, Manage Audios and its Participant dialog, the Exports page with a superseded export,
// the Logs page with these entries.
//
// Through the API, as set-up only: the two accounts, the task's assignment (the Create Tasks page is
// core-flow.spec.ts's) and one round of the server's waveform job, which the test server does not
// run by itself (it gives the audios their duration, which the last utterance's bullet ends at).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { ageInMonthsOn, chatAge, chatRuleViolations, readCsvRecords } from "@tafsiri/domain";
import {
  atPath,
  describeBrowser,
  loadingDone,
  screenshot,
  seen,
  signIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import {
  downloadExport,
  manifestRows,
  participantsCsv,
  speakInterview,
  speakMp3,
  zipText,
  type DownloadedExport,
} from "./support/corpus";
import { caretRead } from "./support/editor";
import { prepareWaveforms } from "./support/long-audio";
import { createSteps } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

/** P0501, recorded in the side panel. */
const P0501 = {
  code: "P0501",
  birthDate: "1951-06-10",
  educationYears: "6",
  mmse: "21",
  mmseDate: "2026-02-20",
  consentDate: "2026-02-01",
};
/** P0502, imported from CSV: 68 years and 4 months on 2026-01-10. */
const P0502 = {
  code: "P0502",
  group: "Control",
  sex: "male",
  age_years: "68",
  age_months: "4",
  age_recorded_on: "2026-01-10",
  education_years: "12",
  languages: "eng",
  mmse: "29",
  mmse_date: "2026-01-12",
  consent: "given",
  consent_date: "2026-01-05",
};
/** Line 3 of the bad file: an MMSE out of its range. */
const P0503_BAD = { code: "P0503", group: "Control", sex: "female", mmse: "35", mmse_date: "2026-01-14" };
const P0503 = { ...P0503_BAD, mmse: "28", consent: "given", consent_date: "2026-01-14" };

/** The interview (Dementia, P0501), the Control session (P0502) and P0501's follow-up (linked later). */
const INTERVIEW = { name: "corpus-interview", session: "2026-03-05" };
const CONTROL = { name: "corpus-control", session: "2026-02-10" };
const FOLLOW_UP = { name: "corpus-followup", session: "2026-04-02" };
const QUESTION = "Where did you grow up?";
const ANSWER = "In Gulu, near the river.";

/** The Participants table's row of `code`. */
const participantRow = (page: Page, code: string): Locator =>
  page
    .getByRole("table", { name: "Participants" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: code, exact: true }) });

/** The codes the Participants table lists, in order. */
async function listedCodes(page: Page): Promise<string[]> {
  await loadingDone(page);
  const codes = await page.getByRole("table", { name: "Participants" }).getByRole("rowheader").allInnerTexts();
  return codes.map((code) => code.trim());
}

/** The row of Manage Audios holding `filename`. */
const audioRow = (page: Page, filename: string): Locator =>
  page.getByRole("row").filter({ has: page.getByRole("cell", { name: filename, exact: true }) });

/** The data rows of the Exports table, newest first. */
const exportRows = (page: Page): Locator => page.getByRole("table", { name: "Exports" }).locator("tbody tr");

/** The rows of the Logs table whose action reads `sentence`. */
const logRow = (page: Page, sentence: string): Locator =>
  page
    .getByRole("table", { name: "Log entries" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: sentence, exact: true }) });

/** Opens a screen of the Management menu by its link, as a person does. */
async function openManagement(page: Page, screen: string, pathname: string): Promise<void> {
  await page.getByRole("navigation", { name: "Management" }).getByRole("link", { name: screen, exact: true }).click();
  await atPath(page, pathname);
}

/** Opens a screen of the current audio's sub-navigation. */
async function openAudioScreen(page: Page, screen: string, pathname: string): Promise<void> {
  await page
    .getByRole("navigation", { name: "Audio management" })
    .getByRole("link", { name: screen, exact: true })
    .click();
  await atPath(page, pathname);
}

/** Starts an export of Dementia, completed tasks only, on the Export page; answers its row (the newest). */
async function exportDementia(page: Page): Promise<Locator> {
  const before = await exportRows(page)
    .filter({ has: page.getByRole("status") })
    .count();
  const form = page.getByRole("region", { name: "New export" });
  await form.getByRole("group", { name: "Category" }).getByRole("radio", { name: "Dementia", exact: true }).check();
  await form.getByRole("group", { name: "Status" }).getByRole("radio", { name: "Completed tasks only" }).check();
  await form.getByRole("button", { name: "Start export" }).click();
  await expect
    .poll(() =>
      exportRows(page)
        .filter({ has: page.getByRole("status") })
        .count(),
    )
    .toBe(before + 1);
  const row = exportRows(page).first();
  await seen(row.getByRole("link", { name: "Download", exact: true }));
  return row;
}

describeBrowser("a research corpus end to end: participants, linked audios, speakers and times, CHAT, consent", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let page: Page;
  let workDir: string;
  const files = { interview: "", control: "", followUp: "", translation: "" };
  /** Where the question and the answer begin in the interview (seconds). */
  let turnStarts: number[] = [];
  /** The starts (ms) the staff member marked: the INV paragraph's, then the PAR paragraph's. */
  const starts: number[] = [];
  let first: DownloadedExport;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin", { username: "corpus_admin" });
    staff = await suite.server.createUser("Staff", { username: "corpus_amina" });
    workDir = await mkdtemp(path.join(tmpdir(), "tafsiri-corpus-"));
    const at = (name: string) => path.join(workDir, name);
    const interview = await speakInterview(at(`${INTERVIEW.name}.wav`), [QUESTION, ANSWER], 1.5);
    files.interview = interview.file;
    turnStarts = interview.turnStarts;
    files.control = (await speakInterview(at(`${CONTROL.name}.wav`), ["I grew up in Jinja."], 0.5)).file;
    files.followUp = await speakMp3(at(`${FOLLOW_UP.name}.mp3`), "We talked about the market.");
    files.translation = await speakMp3(at("translation.mp3"), "Where did you grow up? In Gulu, near the river.");
  });
  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  step("the admin adds P0501 in the side panel: Dementia, sex, date of birth, education, MMSE, consent", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Management" }).click();
    await atPath(page, "/management/upload");
    await openManagement(page, "Participants", "/management/participants");
    await seen(page.getByText("No participants yet. Add one or import a CSV.", { exact: true }));

    await page.getByRole("button", { name: "Add participant" }).click();
    const panel = await seen(page.getByRole("dialog", { name: "Add participant" }));
    await panel.getByLabel("Code").fill(P0501.code);
    await panel.getByLabel("Group").selectOption("Dementia");
    await panel.getByLabel("Sex").selectOption("female");
    await panel.getByRole("radio", { name: "Date of birth" }).check();
    await panel.locator('input[type="date"]').and(panel.getByLabel("Date of birth")).fill(P0501.birthDate);
    await panel.getByLabel("Years of education").fill(P0501.educationYears);
    await panel.getByLabel("Languages").fill("lug, eng");
    await panel.getByRole("button", { name: "Add score" }).click();
    expect(await panel.getByLabel(/^Instrument/).inputValue()).toBe("MMSE");
    await panel.getByLabel(/^Score 1/).fill(P0501.mmse);
    await panel.getByLabel(/^Taken on/).fill(P0501.mmseDate);
    await panel.getByLabel("Consent", { exact: true }).selectOption("given");
    await panel.getByLabel("Consent date").fill(P0501.consentDate);
    await panel.getByRole("button", { name: "Add participant" }).click();
    await toast(page, `Participant ${P0501.code} has been added.`);
    await panel.waitFor({ state: "detached" });
    const added = await seen(participantRow(page, P0501.code));
    await seen(added.getByText("Dementia", { exact: true }));
    await seen(added.getByText("Given", { exact: true }));
    expect(await listedCodes(page)).toEqual([P0501.code]);
    await toastsGone(page);
  });

  step("'Import CSV': a file with a bad row is refused whole, its line shown; fixed, it imports P0502", async () => {
    await page.getByRole("button", { name: "Import CSV" }).click();
    const dialog = await seen(page.getByRole("dialog", { name: "Import participants" }));
    const bad = participantsCsv([P0502, P0503_BAD]);
    await dialog
      .getByLabel("CSV file")
      .setInputFiles({ name: "participants.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    const problems = await seen(dialog.getByRole("alert"));
    await seen(problems.getByText(/^Nothing was imported/));
    const lines = (await problems.getByRole("listitem").allInnerTexts()).map((text) => text.trim());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Line 3: .*MMSE/);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // Refused whole: P0502, on the good line 2, was not added either.
    expect(await listedCodes(page)).toEqual([P0501.code]);

    await page.getByRole("button", { name: "Import CSV" }).click();
    const again = await seen(page.getByRole("dialog", { name: "Import participants" }));
    await again.getByLabel("CSV file").setInputFiles({
      name: "participants.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(participantsCsv([P0502, P0503])),
    });
    await again.getByRole("button", { name: "Import", exact: true }).click();
    await toast(page, "2 participants created, 0 updated.");
    await again.waitFor({ state: "detached" });
    await expect.poll(() => listedCodes(page)).toEqual([P0501.code, P0502.code, P0503.code]);
    const imported = participantRow(page, P0502.code);
    await seen(imported.getByText("Control", { exact: true }));
    await seen(imported.getByText("Male", { exact: true }));
    await seen(imported.getByRole("cell", { name: P0502.education_years, exact: true }));
    await seen(imported.getByText("Given", { exact: true }));
    await toastsGone(page);
  });

  step("two recordings are uploaded naming their participant and session day", async () => {
    await openManagement(page, "Upload", "/management/upload");
    const single = page.getByRole("region", { name: "Single upload" });
    const uploads = [
      { file: files.interview, category: "Dementia", code: P0501.code, session: INTERVIEW.session },
      { file: files.control, category: "Control", code: P0502.code, session: CONTROL.session },
    ];
    for (const upload of uploads) {
      await single.getByLabel("Category").selectOption(upload.category);
      await single.getByLabel("Audio file").setInputFiles(upload.file);
      await single.getByLabel("Participant code (optional)").fill(upload.code);
      await single.getByLabel("Session date (optional)").fill(upload.session);
      if (upload.code === P0501.code) expect(await seriousAxeViolations(page)).toEqual([]);
      await single.getByRole("button", { name: "Upload", exact: true }).click();
      await toast(page, `${path.basename(upload.file, ".wav")} has been uploaded successfully.`);
    }
    // The follow-up, without a participant yet.
    await single.getByLabel("Category").selectOption("Dementia");
    await single.getByLabel("Audio file").setInputFiles(files.followUp);
    await single.getByLabel("Participant code (optional)").fill("");
    await single.getByLabel("Session date (optional)").fill("");
    await single.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(page, `${FOLLOW_UP.name} has been uploaded successfully.`);
    await toastsGone(page);
  });

  step("Manage Audios shows the links; the follow-up is linked to P0501 in its Participant dialog", async () => {
    await openManagement(page, "Manage Audios", "/management/manageaudios");
    await page.getByRole("group", { name: "Category" }).getByRole("button", { name: "Dementia", exact: true }).click();
    const interview = await seen(audioRow(page, INTERVIEW.name));
    await seen(interview.getByText(P0501.code));
    await seen(interview.getByText(INTERVIEW.session, { exact: true }));
    await seen(audioRow(page, FOLLOW_UP.name).getByText("No participant"));

    await audioRow(page, FOLLOW_UP.name)
      .getByRole("button", { name: /^Participant/ })
      .click();
    const dialog = await seen(page.getByRole("dialog", { name: "Participant of this audio" }));
    await dialog.getByLabel("Find a participant by code").fill("P05");
    await dialog.getByRole("radio", { name: `${P0501.code} · Dementia` }).check();
    await dialog.getByLabel("Session date (optional)").fill(FOLLOW_UP.session);
    expect(await seriousAxeViolations(page, { include: ['[role="dialog"]'] })).toEqual([]);
    await dialog.getByRole("button", { name: "Link", exact: true }).click();
    await toast(page, `${FOLLOW_UP.name} is linked to participant ${P0501.code}.`);
    await dialog.waitFor({ state: "detached" });
    const followUp = audioRow(page, FOLLOW_UP.name);
    await seen(followUp.getByText(P0501.code));
    await seen(followUp.getByText(FOLLOW_UP.session, { exact: true }));
    await toastsGone(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "corpus-01-manage-audios");

    await page.getByRole("group", { name: "Category" }).getByRole("button", { name: "Control", exact: true }).click();
    const control = await seen(audioRow(page, CONTROL.name));
    await seen(control.getByText(P0502.code));
    await seen(control.getByText(CONTROL.session, { exact: true }));

    // Set-up: the server's waveform job (durations), and the interview assigned to the staff member.
    await prepareWaveforms(suite.server);
    const interviewAudio = await suite.server.harness.deps.db
      .selectFrom("audios")
      .select("id")
      .where("filename", "=", INTERVIEW.name)
      .executeTakeFirstOrThrow();
    await suite.server.harness.caller(admin).tasks.assign({ audioId: interviewAudio.id, staffId: staff.id });
  });

  step(
    "the staff member writes an INV and a PAR paragraph, starts each with Alt+T while the audio plays, saves",
    async () => {
      const staffPage = await suite.newPage("staff");
      const player = staffPage.getByRole("group", { name: "Original audio", exact: true });
      const playerTime = async () => Number(await player.getAttribute("data-time"));
      const paragraphs = staffPage.getByTestId("transcript-editor").locator(".speaker-paragraph");
      const startOf = async (n: number) => {
        const value = await paragraphs.nth(n).getAttribute("data-start-ms");
        return value === null ? null : Number(value);
      };
      /** Moves the caret with `key` and waits until the editor has read the new selection. */
      const moveCaret = async (key: string) => {
        await staffPage.keyboard.press(key);
        await caretRead(staffPage);
      };
      /** While the audio plays, waits until it reaches `seconds`, presses Alt+T and answers the player's times around it. */
      const markStartAt = async (seconds: number) => {
        await expect.poll(playerTime, { timeout: 15_000 }).toBeGreaterThanOrEqual(seconds);
        const before = await playerTime();
        await staffPage.keyboard.press("Alt+t");
        const after = await playerTime();
        return { before, after };
      };

      await openTranslatedTranscript(staffPage, staff, INTERVIEW.name);
      await staffPage.getByRole("button", { name: "Show original Audio" }).click();
      await seen(player.and(staffPage.locator('[data-status="ready"]')));
      await staffPage.getByRole("button", { name: "Write", exact: true }).click();
      const editor = await seen(staffPage.getByRole("textbox", { name: "Translated transcript editor" }));
      await editor.pressSequentially(QUESTION);
      await staffPage.keyboard.press("Enter");
      await staffPage.keyboard.type(ANSWER);
      await expect.poll(() => paragraphs.count()).toBe(2);

      // The question is the investigator's (Alt+S); the answer stays the participant's.
      await moveCaret("Control+Home");
      await staffPage.keyboard.press("Alt+s");
      await seen(paragraphs.nth(0).and(staffPage.locator('[data-speaker="INV"]')));
      await seen(paragraphs.nth(1).and(staffPage.locator('[data-speaker="PAR"]')));

      // Play the original audio (Ctrl+Space) and mark each paragraph's start as its turn begins.
      await staffPage.keyboard.press("Control+Space");
      await seen(player.and(staffPage.locator('[data-state="playing"]')));
      const question = await markStartAt(turnStarts[0]! - 0.1);
      await expect.poll(() => startOf(0)).not.toBeNull();
      await moveCaret("Control+End");
      const answer = await markStartAt(turnStarts[1]! - 0.1);
      await expect.poll(() => startOf(1)).not.toBeNull();
      await staffPage.keyboard.press("Control+Space");
      await seen(player.and(staffPage.locator('[data-state="paused"]')));
      starts.push((await startOf(0))!, (await startOf(1))!);
      // Each start is where the player was as Alt+T was pressed: the player shows its time to 0.1 s and
      // redraws it each frame, so the mark is near the times read just before and after the key.
      for (const [start, at] of [
        [starts[0]!, question],
        [starts[1]!, answer],
      ] as const) {
        expect(start).toBeGreaterThanOrEqual(at.before * 1000 - 150);
        expect(start).toBeLessThanOrEqual(at.after * 1000 + 400);
      }
      expect(starts[1]! - starts[0]!).toBeGreaterThan((turnStarts[1]! - turnStarts[0]!) * 1000 - 300);

      await staffPage.getByRole("button", { name: "Save Changes" }).click();
      await toast(staffPage, "Transcript saved and uploaded successfully.");
      const view = await seen(staffPage.getByTestId("transcript-text"));
      await seen(view.getByText(QUESTION, { exact: true }));
      expect(await view.locator(".speaker-label").allInnerTexts()).toEqual(["INV", "PAR"]);
      await toastsGone(staffPage);

      // The translated recording, on the Translated Audio screen.
      await openAudioScreen(staffPage, "Translated Audio", "/audiomanagement/translatedaudio");
      await staffPage.getByLabel("Translated audio file").setInputFiles(files.translation);
      await staffPage.getByLabel("Select Recorder").selectOption({ label: `${staff.username} (You)` });
      await staffPage.getByRole("button", { name: "Upload Audio" }).click();
      await toast(staffPage, "Translation Audio file uploaded successfully.");
      await seen(staffPage.getByText(`Recorded by ${staff.username}`, { exact: true }));
      await staffPage.context().close();
    },
  );

  step("the admin approves the transcript and the recording", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All Tasks" }).click();
    await atPath(page, "/Audios");
    await page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: INTERVIEW.name }).click();
    await atPath(page, "/audiomanagement/audiocontrol");
    await openAudioScreen(page, "Translated Transcript", "/audiomanagement/trascript");
    await seen(page.getByText(ANSWER, { exact: true }));
    await page.getByRole("group", { name: "Review" }).getByRole("button", { name: "Approve" }).click();
    await seen(page.getByText("Approved", { exact: true }));
    await openAudioScreen(page, "Translated Audio", "/audiomanagement/translatedaudio");
    await seen(page.getByText("Pending", { exact: true }));
    await page.getByRole("group", { name: "Review" }).getByRole("button", { name: "Approve" }).click();
    await toast(page, "Translation Audio file approved successfully.");
    await seen(page.getByText("Approved", { exact: true }));
    await toastsGone(page);
  });

  step(
    "the Dementia export's .cha says who spoke and when, passes the CHAT rules; the manifest has P0501",
    async () => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Management" }).click();
      await openManagement(page, "Export", "/management/export");
      await seen(page.getByText("No exports yet.", { exact: true }));
      const row = await exportDementia(page);
      await seen(row.getByText("1 audio", { exact: false }));
      first = await downloadExport(page, row);

      const manifest = await manifestRows(first.zip);
      expect(manifest.map((r) => r.filename)).toEqual([INTERVIEW.name]);
      const ageMonths = ageInMonthsOn(
        { birthDate: P0501.birthDate, ageMonths: null, ageRecordedOn: null },
        INTERVIEW.session,
      );
      expect(ageMonths).toBe(74 * 12 + 8);
      expect(manifest[0]).toMatchObject({
        category: "Dementia",
        session_date: INTERVIEW.session,
        participant_code: P0501.code,
        participant_group: "Dementia",
        sex: "female",
        age_months: ageMonths,
        age_chat: "74;08.",
        education_years: Number(P0501.educationYears),
        languages: "lug;eng",
        mmse: Number(P0501.mmse),
        mmse_taken_on: P0501.mmseDate,
        consent_status: "given",
        assignee: staff.username,
        recorder: staff.username,
      });
      expect(JSON.parse(await zipText(first.zip, "left_out.json"))).toMatchObject({ left_out_total: 0 });

      const cha = await zipText(first.zip, String(manifest[0]!.transcript_file));
      expect(chatRuleViolations(cha)).toEqual([]);
      const lines = cha.split("\n");
      expect(lines).toContain("@Participants:\tPAR Participant, INV Investigator");
      // Written without a source, the translation is what the file holds: its language, swa, is on @ID (decision 035).
      expect(lines.filter((line) => line.startsWith("@ID:"))).toEqual([
        `@ID:\tswa|tafsiri|PAR|${chatAge(ageMonths!)}|female|Dementia||Participant|6|21|`,
        "@ID:\tswa|tafsiri|INV|||||Investigator|||",
      ]);
      expect(lines).toContain("@Date:\t05-MAR-2026");
      // Each paragraph is one utterance on its speaker's tier, its bullet starting where it was marked.
      const utterances = lines.filter((line) => line.startsWith("*"));
      expect(utterances).toHaveLength(2);
      const bullets = utterances.map((line) => /^\*(PAR|INV):\t(.+) \u0015(\d+)_(\d+)\u0015$/.exec(line));
      expect(bullets.map((match) => match?.[1])).toEqual(["INV", "PAR"]);
      expect(bullets[0]![2]).toMatch(/^Where did you grow up \?$/);
      expect(bullets[1]![2]).toMatch(/^In Gulu , near the river \.$/);
      const [inv, par] = bullets.map((match) => ({ start: Number(match![3]), end: Number(match![4]) }));
      expect(Math.abs(inv!.start - starts[0]!)).toBeLessThanOrEqual(1);
      expect(Math.abs(par!.start - starts[1]!)).toBeLessThanOrEqual(1);
      expect(inv!.end).toBe(par!.start);
      // The last utterance runs to the end of the recording.
      const seconds = Number(manifest[0]!.audio_duration_seconds);
      expect(Math.abs(par!.end - seconds * 1000)).toBeLessThanOrEqual(1);
    },
  );

  step("the admin withdraws P0501's consent in the side panel, confirming the dialog", async () => {
    await openManagement(page, "Participants", "/management/participants");
    await participantRow(page, P0501.code).getByRole("button", { name: "Edit" }).click();
    const panel = await seen(page.getByRole("dialog", { name: `Edit participant ${P0501.code}` }));
    await panel.getByLabel("Consent", { exact: true }).selectOption("withdrawn");
    await panel.getByRole("button", { name: "Save changes" }).click();
    const confirm = await seen(page.getByRole("alertdialog", { name: `Withdraw consent for ${P0501.code}?` }));
    await confirm.getByRole("button", { name: "Withdraw consent" }).click();
    await toast(page, `Participant ${P0501.code} has been saved.`);
    await panel.waitFor({ state: "detached" });
    await seen(participantRow(page, P0501.code).getByText("Withdrawn", { exact: true }));
    await toastsGone(page);
  });

  step("a new export leaves the interview out and says why; the earlier one is superseded, its link 410", async () => {
    await openManagement(page, "Export", "/management/export");
    const earlier = exportRows(page).first();
    await seen(earlier.getByRole("status").filter({ hasText: "Export Superseded" }));
    await seen(earlier.getByText("Superseded — a participant withdrew consent.", { exact: false }));
    expect(await earlier.getByRole("link", { name: "Download" }).count()).toBe(0);

    const row = await exportDementia(page);
    const second = await downloadExport(page, row);
    expect(second.href).not.toBe(first.href);
    expect(await manifestRows(second.zip)).toEqual([]);
    expect(Object.keys(second.zip.files).filter((name) => name.endsWith(".cha"))).toEqual([]);
    expect(JSON.parse(await zipText(second.zip, "left_out.json"))).toEqual({
      include_restricted: false,
      left_out: { no_participant: 0, consent_not_recorded: 0, consent_withdrawn: 1, consent_restricted: 0 },
      left_out_total: 1,
    });
    const csv = readCsvRecords(await zipText(second.zip, "left_out.csv")).map((record) => record.fields);
    expect(csv[0]).toEqual(["reason", "audios", "meaning"]);
    expect(csv.find((fields) => fields[0] === "consent_withdrawn")?.slice(0, 2)).toEqual(["consent_withdrawn", "1"]);

    // The URL the earlier Download link had is gone.
    const gone = await page.request.get(first.href);
    expect(gone.status()).toBe(410);
    const superseded = exportRows(page).nth(1);
    await seen(superseded.getByRole("status").filter({ hasText: "Export Superseded" }));
    await superseded.scrollIntoViewIfNeeded();
    await screenshot(page, "corpus-02-exports");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("the Logs page lists the consent change and the export superseded", async () => {
    await page.goto("/log/log-listing");
    await seen(page.getByRole("heading", { name: "Logs", level: 1 }));
    const consent = await seen(
      logRow(page, `changed the consent of participant ${P0501.code} from given to withdrawn`),
    );
    await seen(consent.getByRole("cell", { name: admin.username, exact: true }));
    const supersededEntry = await seen(
      logRow(page, `marked an export superseded (participant ${P0501.code} withdrew consent)`),
    );
    await seen(supersededEntry.getByRole("cell", { name: admin.username, exact: true }));
    await screenshot(page, "corpus-03-logs");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
