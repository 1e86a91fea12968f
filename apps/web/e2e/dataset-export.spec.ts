// Decision 019: a browser test exports a finished task. A staff member sees no
// 'Export' entry and is refused the page. The admin opens Management → Export, sees the form's
// defaults and 'No exports yet.', gets the server's message for a first day after the last day,
// then exports Control, completed tasks: 'Start export' is disabled while the request runs, the
// running export shows a progress bar and '1 of 2 audios' (the test server's reads of the audios
// are slowed so the run can be watched), then 'Download', without a reload; after a reload it is
// still there. The zip downloads; manifest.jsonl and manifest.csv list exactly the two completed
// Control tasks' files (not the Dementia task, not the task whose recording is not approved), each
// with the SHA-256 and size of its bytes in the zip; each .cha passes the CHAT rules test; the
// exported audio and recording play in the browser. The same export started again offers the same
// zip ('Same as the previous export'). axe finds nothing serious.
// Decision 024: every exported audio records a participant who gave consent; the form offers
// 'Include participants with restricted consent' (off, with its hint); the manifest carries each
// audio's participant and left_out.* count what the consent gate left out (an audio without a
// participant); each .cha's @ID has the participant's age, sex and group. When a participant
// withdraws consent the ready export shows 'Superseded — a participant withdrew consent' live,
// without Download, and its link answers 410.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import JSZip from "jszip";
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { supersedeExportsOfParticipant } from "../../../packages/api/src/export/supersede";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import { chatRuleViolations } from "@tafsiri/domain";
import { MANIFEST_COLUMNS } from "../../../packages/api/src/export/manifest";
import {
  atPath,
  describeBrowser,
  markWindow,
  notReloaded,
  RESULTS_DIR,
  seen,
  signIn,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { finishTask, type TaskSetup } from "./support/finished-tasks";
import { holdAudioReads } from "./support/held-reads";
import { createSteps, fixture } from "./support/steps";
import type { TestUser } from "./support/server";

const RIVER_ONE: TaskSetup = {
  filename: "export-river-one",
  category: "Control",
  transcript: "Habari ya asubuhi.\nNilienda sokoni jana, nikanunua ndizi!",
};
const RIVER_TWO: TaskSetup = {
  filename: "export-river-two",
  category: "Control",
  transcript: "Mvua ilinyesha usiku wote.",
};
/** Completed, but Dementia: left out of a Control export. */
const HILL: TaskSetup = { filename: "export-hill-one", category: "Dementia", transcript: "Jua linawaka." };
/** Control, transcript approved, recording not: left out of an export of completed tasks. */
const RIVER_PENDING: TaskSetup = { filename: "export-river-pending", category: "Control", transcript: "Bado." };
/** Completed Control, but no participant linked: left out by the consent gate and counted. */
const RIVER_UNLINKED: TaskSetup = { filename: "export-river-unlinked", category: "Control", transcript: "Nani?" };

/** One line of manifest.jsonl (MANIFEST_COLUMNS). */
type ManifestRow = Record<(typeof MANIFEST_COLUMNS)[number], string | number | null>;

/** The form's region. */
function exportForm(page: Page): Locator {
  return page.getByRole("region", { name: "New export" });
}

/** The data rows of the Exports table, newest first. */
function exportRows(page: Page): Locator {
  return page.getByRole("table", { name: "Exports" }).locator("tbody tr");
}

/**
 * Saves what the viewport shows, with `target` scrolled into view, as test-results/e2e/{name}.png
 * (a full-page capture of this page, taller than the viewport, draws the shell's sidebar wrongly).
 */
async function viewportScreenshot(page: Page, name: string, target?: Locator): Promise<void> {
  await target?.scrollIntoViewIfNeeded();
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`) });
}

/** The hex SHA-256 of `bytes`. */
function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The rows of an RFC 4180 CSV text: fields maybe quoted (a quote inside doubled), lines ended by CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== "," && c !== "\r" && c !== "\n")) {
      field += c;
    } else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    }
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * Plays `bytes` (of MIME type `type`) in an <audio> element of the page from a Blob URL: answers its
 * duration once its metadata loaded and where it is once playing has moved it past 0.
 */
async function playInPage(page: Page, bytes: Uint8Array, type: string): Promise<{ duration: number; at: number }> {
  return page.evaluate(
    async ({ base64, type }) => {
      const within = <T>(promise: Promise<T>, what: string) =>
        Promise.race([
          promise,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over 10 s`)), 10_000)),
        ]);
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([data], { type }));
      const audio = document.createElement("audio");
      document.body.append(audio);
      try {
        const loaded = new Promise<void>((resolve, reject) => {
          audio.addEventListener("loadedmetadata", () => resolve(), { once: true });
          audio.addEventListener("error", () => reject(new Error(`cannot load: ${audio.error?.message}`)), {
            once: true,
          });
        });
        audio.src = url;
        await within(loaded, "loading the metadata");
        const duration = audio.duration;
        const playing = new Promise<void>((resolve) =>
          audio.addEventListener("playing", () => resolve(), { once: true }),
        );
        const moved = new Promise<void>((resolve) => {
          const onTime = () => {
            if (audio.currentTime === 0) return;
            audio.removeEventListener("timeupdate", onTime);
            resolve();
          };
          audio.addEventListener("timeupdate", onTime);
        });
        await within(audio.play(), "play()");
        await within(playing, "'playing'");
        await within(moved, "moving past 0");
        return { duration, at: audio.currentTime };
      } finally {
        audio.pause();
        audio.remove();
        URL.revokeObjectURL(url);
      }
    },
    { base64: Buffer.from(bytes).toString("base64"), type },
  );
}

describeBrowser("dataset export: the form, live progress, the zip, its manifest, CHAT and audio", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let page: Page;
  let zip: JSZip;
  let manifest: ManifestRow[];
  const audioIds = new Map<string, string>();
  /** The participants recorded, by audio filename. */
  const participants = new Map<string, { id: string; code: string }>();

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin", { username: "export_admin" });
    staff = await server.createUser("Staff", { username: "export_amina" });
    const db = server.harness.deps.db;
    for (const task of [RIVER_ONE, RIVER_TWO, HILL]) {
      const audioId = await finishTask(server, admin, staff, task);
      audioIds.set(task.filename, audioId);
      participants.set(
        task.filename,
        await linkToParticipant(db, audioId, { sex: "female", ageMonths: 867, educationYears: 9 }, "2026-03-02"),
      );
    }
    const pending = await finishTask(server, admin, staff, RIVER_PENDING, { recordingApproved: false });
    await linkToParticipant(db, pending);
    await finishTask(server, admin, staff, RIVER_UNLINKED);
  });

  step("a staff member sees no 'Management' or 'Export' entry and is refused the page", async () => {
    const staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await atPath(staffPage, "/Audios");
    const nav = await seen(staffPage.getByRole("navigation", { name: "Main" }));
    await seen(nav.getByRole("link", { name: "My Tasks" }));
    expect(await staffPage.getByRole("link", { name: "Export", exact: true }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Management" }).count()).toBe(0);
    await staffPage.goto("/management/export");
    await atPath(staffPage, "/utility/404");
    await staffPage.context().close();
  });

  step("the admin opens Management → Export: the form shows the defaults and 'No exports yet.'", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Management" }).click();
    await atPath(page, "/management/upload");
    await page
      .getByRole("navigation", { name: "Management" })
      .getByRole("link", { name: "Export", exact: true })
      .click();
    await atPath(page, "/management/export");
    await seen(page.getByRole("heading", { name: "Dataset export", level: 1 }));
    const form = await seen(exportForm(page));

    const category = form.getByRole("group", { name: "Category" });
    expect(await category.getByRole("radio", { name: "Control and Dementia" }).isChecked()).toBe(true);
    expect(await category.getByRole("radio", { name: "Control", exact: true }).isChecked()).toBe(false);
    const status = form.getByRole("group", { name: "Status" });
    expect(await status.getByRole("radio", { name: "Completed tasks only" }).isChecked()).toBe(true);
    expect(await status.getByRole("radio", { name: "Everything with an approved transcript" }).isChecked()).toBe(false);
    const period = form.getByRole("group", { name: "Approval date" });
    expect(await period.getByLabel("First day").inputValue()).toBe("");
    expect(await period.getByLabel("Last day").inputValue()).toBe("");
    const chat = form.getByRole("group", { name: "CHAT transcript settings" });
    expect(await chat.getByRole("textbox", { name: "Languages" }).inputValue()).toBe("eng");
    expect(await chat.getByRole("combobox", { name: "Participant role" }).inputValue()).toBe("Participant");
    expect(await chat.getByRole("textbox", { name: "Corpus" }).inputValue()).toBe("tafsiri");
    const restricted = form
      .getByRole("group", { name: "Consent" })
      .getByRole("checkbox", { name: "Include participants with restricted consent" });
    expect(await restricted.isChecked()).toBe(false);
    expect(await restricted.getAttribute("aria-describedby")).toBe("export-include-restricted-hint");
    expect(await page.locator("#export-include-restricted-hint").innerText()).toContain(
      "Off: only participants whose consent is given.",
    );
    // The field's hint is tied to it, so a screen reader reads it with the field.
    const languagesHint = await chat.getByRole("textbox", { name: "Languages" }).evaluate((input) =>
      (input.getAttribute("aria-describedby") ?? "")
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" "),
    );
    expect(languagesHint).toContain("ISO 639-3 codes separated by commas");
    await seen(page.getByText("No exports yet.", { exact: true }));
    await viewportScreenshot(page, "dataset-export-01-form");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("a first day after the last day gets the server's message in an alert", async () => {
    const form = exportForm(page);
    await form.getByLabel("First day").fill("2026-02-10");
    await form.getByLabel("Last day").fill("2026-02-01");
    await form.getByRole("button", { name: "Start export" }).click();
    const alert = await seen(form.getByRole("alert"));
    expect(await alert.innerText()).toBe("The first day must not be after the last day.");
    expect(await exportRows(page).first().innerText()).toBe("No exports yet.");
    await form.getByLabel("First day").fill("");
    await form.getByLabel("Last day").fill("");
  });

  step("the admin exports Control: progress '1 of 2 audios' shows live, then 'Download'", async () => {
    const held = holdAudioReads(suite.server);
    try {
      await markWindow(page);
      const form = exportForm(page);
      await form.getByRole("radio", { name: "Control", exact: true }).check();
      // The request is held until the disabled button has been seen.
      let sendCreate!: () => void;
      const createHeld = new Promise<void>((resolve) => (sendCreate = resolve));
      await page.route(/\/trpc\/exports\.create/, async (route) => {
        await createHeld;
        await route.continue();
      });
      const start = form.getByRole("button", { name: "Start export" });
      await start.click();
      await expect.poll(() => start.isDisabled()).toBe(true);
      sendCreate();
      await seen(exportRows(page).filter({ hasText: "Export Running" }));
      await page.unroute(/\/trpc\/exports\.create/);
      await expect.poll(() => start.isDisabled()).toBe(false);
      expect(await form.getByRole("alert").count()).toBe(0);

      const row = exportRows(page).first();
      await seen(row.getByText("1 of 2 audios", { exact: true }));
      const progress = row.getByRole("progressbar", { name: "Export progress" });
      expect(await progress.getAttribute("value")).toBe("1");
      expect(await progress.getAttribute("max")).toBe("2");
      await seen(row.getByText("Control, completed tasks only, approved any time", { exact: true }));
      await seen(row.getByText("CHAT: eng · Participant · corpus tafsiri", { exact: true }));
      await seen(row.getByText(`by ${admin.username}`, { exact: true }));
      await viewportScreenshot(page, "dataset-export-02-running", row);

      held.release();
      await seen(row.getByRole("link", { name: "Download", exact: true }));
      await seen(row.getByRole("status").filter({ hasText: "Export Ready" }));
      await seen(row.getByText(/^Link valid until /));
      expect(await row.getByRole("progressbar").count()).toBe(0);
      expect(await notReloaded(page)).toBe(true);
      await viewportScreenshot(page, "dataset-export-03-ready", row);
    } finally {
      held.restore();
    }
  });

  step("after a reload the export is still listed, ready, with its link", async () => {
    await page.reload();
    await atPath(page, "/management/export");
    const row = exportRows(page).first();
    await seen(row.getByRole("link", { name: "Download", exact: true }));
    expect(await exportRows(page).count()).toBe(1);
    await seen(row.getByRole("status").filter({ hasText: "Export Ready" }));
    await seen(row.getByText("2 audios, zip of", { exact: false }));
  });

  step("'Download' saves the zip", async () => {
    const link = exportRows(page).first().getByRole("link", { name: "Download", exact: true });
    expect(await link.getAttribute("href")).toMatch(/^\/files\/exports\/[^/?]+\.zip\?/);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^tafsiri-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const file = await download.path();
    zip = await JSZip.loadAsync(await readFile(file));
  });

  step("the manifests list the two completed Control tasks' files, each with the SHA-256 of its bytes", async () => {
    const jsonl = await zip.file("manifest.jsonl")!.async("string");
    manifest = jsonl
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as ManifestRow);
    expect(manifest.map((row) => row.filename).sort()).toEqual([RIVER_ONE.filename, RIVER_TWO.filename]);

    // Decision 035: the segments as a table, the approved segments as a translation memory, and
    // the speech measures of the original audios.
    const listed: string[] = [
      "manifest.csv",
      "manifest.jsonl",
      "left_out.csv",
      "left_out.json",
      "segments.tsv",
      "translation-memory.tmx",
      "measures.csv",
      "measures-summary.csv",
    ];
    for (const row of manifest) {
      const name = String(row.filename);
      expect(row.audio_id).toBe(audioIds.get(name));
      expect(row).toMatchObject({
        participant_code: participants.get(name)!.code,
        participant_group: "Control",
        sex: "female",
        age_months: 867,
        age_chat: "72;03.",
        education_years: 9,
        session_date: "2026-03-02",
        consent_status: "given",
      });
      expect(row.category).toBe("Control");
      expect(row.assignee).toBe(staff.username);
      expect(row.recorder).toBe(staff.username);
      expect(row.transcript_approved_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(row.recording_approved_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(row.audio_file).toBe(`Control/${name}/${name}.wav`);
      expect(row.transcript_file).toBe(`Control/${name}/${name}.cha`);
      expect(row.recording_file).toBe(`Control/${name}/${name}_TRANSLATEDAUDIO.mp3`);
      for (const kind of ["audio", "transcript", "recording"] as const) {
        const path = String(row[`${kind}_file`]);
        const entry = zip.file(path);
        expect(entry, `${path} is in the zip`).not.toBeNull();
        const bytes = await entry!.async("uint8array");
        expect(row[`${kind}_sha256`], path).toBe(sha256(bytes));
        expect(row[`${kind}_bytes`], path).toBe(bytes.length);
        listed.push(path);
      }
      // The original audio and the recording are the uploaded files, byte for byte.
      expect(row.audio_sha256).toBe(sha256(await readFile(fixture("single-control.wav"))));
      expect(row.recording_sha256).toBe(sha256(await readFile(fixture("translated-recording.mp3"))));
    }
    const inZip = Object.values(zip.files)
      .filter((entry) => !entry.dir)
      .map((entry) => entry.name);
    expect(inZip.sort()).toEqual(listed.sort());

    const [header, ...rows] = parseCsv(await zip.file("manifest.csv")!.async("string"));
    expect(header).toEqual([...MANIFEST_COLUMNS]);
    expect(rows.map((cells) => Object.fromEntries(header!.map((column, i) => [column, cells[i]])))).toEqual(
      manifest.map((row) =>
        Object.fromEntries(MANIFEST_COLUMNS.map((column) => [column, row[column] === null ? "" : String(row[column])])),
      ),
    );
    // The completed Control task without a participant was left out, and counted.
    expect(JSON.parse(await zip.file("left_out.json")!.async("string"))).toEqual({
      include_restricted: false,
      left_out: { no_participant: 1, consent_not_recorded: 0, consent_withdrawn: 0, consent_restricted: 0 },
      left_out_total: 1,
    });
  });

  step("each .cha passes the CHAT rules test and holds the transcript", async () => {
    for (const row of manifest) {
      const cha = await zip.file(String(row.transcript_file))!.async("string");
      expect(chatRuleViolations(cha), String(row.transcript_file)).toEqual([]);
      // A translation without a source is what the file holds: its language, swa, is the file's (decision 035).
      expect(cha).toContain("@Languages:\tswa\n");
      expect(cha).toContain("@ID:\tswa|tafsiri|PAR|72;03.|female|Control||Participant|9|");
      expect(cha).toContain(`@Media:\t${String(row.filename)}, audio\n`);
    }
    const first = manifest.find((row) => row.filename === RIVER_ONE.filename)!;
    const cha = await zip.file(String(first.transcript_file))!.async("string");
    expect(cha).toContain("*PAR:\tHabari ya asubuhi .\n*PAR:\tNilienda sokoni jana , nikanunua ndizi !\n");
  });

  step("the exported audio and translated recording play in the browser", async () => {
    const row = manifest[0]!;
    const audio = await playInPage(page, await zip.file(String(row.audio_file))!.async("uint8array"), "audio/wav");
    expect(audio.duration).toBeGreaterThan(0.5);
    expect(audio.at).toBeGreaterThan(0);
    const recording = await playInPage(
      page,
      await zip.file(String(row.recording_file))!.async("uint8array"),
      "audio/mpeg",
    );
    expect(recording.duration).toBeGreaterThan(0);
    expect(recording.at).toBeGreaterThan(0);
  });

  step("the same export started again offers the same zip: 'Same as the previous export'", async () => {
    const form = exportForm(page);
    await form.getByRole("radio", { name: "Control", exact: true }).check();
    await form.getByRole("button", { name: "Start export" }).click();
    await seen(exportRows(page).nth(1));
    const newest = exportRows(page).first();
    await seen(newest.getByText(/^Same as the previous export/));
    await seen(newest.getByRole("link", { name: "Download", exact: true }));
    await viewportScreenshot(page, "dataset-export-04-reused", exportRows(page).nth(1));
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step(
    "a participant withdraws consent: the export shows 'Superseded' live, without Download, and its link answers 410",
    async () => {
      const newest = exportRows(page).first();
      const href = await newest.getByRole("link", { name: "Download", exact: true }).getAttribute("href");
      await markWindow(page);
      const { db, events } = suite.server.harness.deps;
      const withdrawn = participants.get(RIVER_ONE.filename)!;
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("participants")
          .set({ consentStatus: "withdrawn" })
          .where("id", "=", withdrawn.id)
          .execute();
        await supersedeExportsOfParticipant(trx, withdrawn.id, admin.id);
      });
      events.poke();
      for (const row of [exportRows(page).first(), exportRows(page).nth(1)]) {
        await seen(row.getByText("Superseded — a participant withdrew consent.", { exact: false }));
        await seen(row.getByRole("status").filter({ hasText: "Export Superseded" }));
        expect(await row.getByRole("link", { name: "Download" }).count()).toBe(0);
      }
      expect(await notReloaded(page)).toBe(true);
      const res = await page.request.get(href!);
      expect(res.status()).toBe(410);
      expect(await res.json()).toMatchObject({
        message: "This export was superseded: a participant in it withdrew consent. Start a new export.",
      });
      await viewportScreenshot(page, "dataset-export-05-superseded", exportRows(page).first());
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
  );
});
