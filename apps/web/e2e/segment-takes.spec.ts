// Decision 035, oral translation by segment. Chromium's fake microphone plays a sentence spoken by
// espeak-ng (made here, at the start of the file). The staff member records the spoken translation
// of five segments from the segment grid with Alt+K (record, then stop), one of them a silent file
// uploaded instead; the take checks flag the silent take and a missing one and hold back 'Make the
// translated recording'; the staff member records both, records one again, and makes the recording:
// its duration is the takes' plus a 300 ms gap per join, and it plays in the browser. In review mode
// the admin plays a segment's source span and then its take with Alt+L and asks for that take again
// with a note; the staff member sees the request on that segment and records it again. Keyboard
// first; axe finds nothing serious.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import {
  describeBrowser,
  fakeMicrophoneArgs,
  screenshot,
  seen,
  signIn,
  toast,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { uploadInitialTranscript } from "./support/finished-tasks";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

const AUDIO = "takes-kitchen";
const TRANSLATIONS = [
  "Niambie kila kitu unachoona.",
  "Mvulana yuko juu ya kiti.",
  "Kiti kinaanguka.",
  "Mama anaosha vyombo.",
  "Maji yanamwagika sakafuni.",
];
// Timed, so each segment has its span of the (1.3 s) original audio.
const SOURCE = [
  "[0:00.000] INV: Tell me everything you see.",
  "[0:00.250] PAR: The boy is on the stool.",
  "[0:00.500] PAR: The stool is falling.",
  "[0:00.750] PAR: The mother washes the dishes.",
  "[0:01.000] PAR: Water spills on the floor.",
].join("\n");

const work = mkdtempSync(path.join(os.tmpdir(), "tafsiri-takes-e2e-"));
/** The fake microphone's sound: a sentence by espeak-ng as 16-bit mono WAV at 16 kHz. */
const SPEECH = path.join(work, "speech.wav");
execFileSync("espeak-ng", ["-w", path.join(work, "raw.wav"), "Mvulana yuko juu ya kiti na mama anaosha vyombo."]);
execFileSync("sox", [path.join(work, "raw.wav"), "-r", "16000", "-c", "1", "-b", "16", SPEECH, "gain", "-6"]);
/** Two seconds of silence: a take with no speech in it. */
const SILENT = path.join(work, "silent.wav");
execFileSync("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", SILENT, "trim", "0", "2"]);

describeBrowser("recording the spoken translation segment by segment", () => {
  const suite = useBrowserSuite({ launchArgs: fakeMicrophoneArgs(SPEECH) });
  const step = createSteps();
  let staff: TestUser;
  let admin: TestUser;
  let audioId: string;
  let page: Page;
  const translation = (n: number) => page.getByRole("textbox", { name: `Translation ${n}`, exact: true });
  const takes = () => suite.server.harness.caller(staff).translation.takes({ audioId });

  /** Records the active row's take: Alt+K, about `ms` of the microphone, Alt+K, then waits for the toast. */
  async function recordTake(segment: number, ms = 1_500) {
    await translation(segment).focus();
    await page.keyboard.press("Alt+k");
    await seen(page.getByRole("status").filter({ hasText: `Recording segment ${segment}` }));
    await page.waitForTimeout(ms);
    await page.keyboard.press("Alt+k");
    await toast(page, `Take saved for segment ${segment}.`);
  }

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    audioId = await seedAudio(suite.server, admin, { filename: AUDIO, assignTo: staff });
    await uploadInitialTranscript(suite.server, admin, audioId, SOURCE);
    const grid = await suite.server.harness.caller(staff).translation.segments({ audioId });
    await suite.server.harness.caller(staff).translation.saveDraft({
      audioId,
      segments: grid.segments.map((r, i) => ({ ...r, target: TRANSLATIONS[i]!, state: "translated" })),
    });
  });

  step(
    "the staff member records three takes with Alt+K and uploads a silent one; the checks hold the recording back",
    async () => {
      page = await suite.newPage("staff");
      await openTranslatedTranscript(page, staff, AUDIO);
      await seen(translation(1));
      for (const n of [1, 2, 3]) await recordTake(n);
      await translation(4).focus();
      await page.getByLabel("Upload a take…").setInputFiles(SILENT);
      await toast(page, "Take saved for segment 4.");

      const checks = page.getByRole("list", { name: "Take checks" });
      await seen(checks.getByText("The take is silent. Check the microphone and record it again."));
      await seen(checks.getByText("This segment has no take yet. Record or upload its spoken translation."));
      await expect
        .poll(() => page.getByRole("button", { name: "Make the translated recording" }).isDisabled())
        .toBe(true);
      const stored = await takes();
      expect(stored.takes).toHaveLength(4);
      await screenshot(page, "segment-takes-checks");
      for (const take of stored.takes.filter((t) => t.rmsDbfs > -60)) expect(take.durationMs).toBeGreaterThan(1_000);
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
  );

  step(
    "the silent and the missing takes are recorded, one take again, and the recording is made from them",
    async () => {
      // The checks' links go to their segments.
      await page.getByRole("list", { name: "Take checks" }).getByRole("button", { name: "Segment 4" }).press("Enter");
      await recordTake(4);
      await recordTake(5);
      await recordTake(2, 2_000);
      await expect.poll(async () => (await takes()).checks.filter((c) => c.severity === "error")).toEqual([]);

      const make = page.getByRole("button", { name: "Make the translated recording" });
      await expect.poll(() => make.isEnabled()).toBe(true);
      await make.focus();
      await page.keyboard.press("Enter");
      await toast(page, /The recording lasts/);
      const recording = await suite.server.harness.caller(staff).recordings.get({ audioId });
      expect(recording.status).toBe("Pending");
      const { takes: made, spans: stored } = await takes();
      expect(stored).toHaveLength(made.length);
      const spans = stored.map((t) => [t.startMs, t.endMs] as const);
      const sum = made.reduce((total, t) => total + t.durationMs, 0);
      // The recording is the takes one after the other with 300 ms between them (50 ms per join at most).
      expect(Math.abs(spans.at(-1)![1] - (sum + 4 * 300))).toBeLessThanOrEqual(4 * 50);
      for (let i = 1; i < spans.length; i++)
        expect(Math.abs(spans[i]![0] - spans[i - 1]![1] - 300)).toBeLessThanOrEqual(1);
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
  );

  step(
    "in review mode the admin plays segment 3's source, then its take, with Alt+L and asks for that take again",
    async () => {
      const review = await suite.newPage("admin");
      await signIn(review, admin);
      await review.goto("/submission/review?status=needsReview");
      const takesTable = review.getByRole("region", { name: "Takes by segment" });
      await seen(takesTable);

      // The assembled recording plays in the browser, as long as the server says.
      const { url } = await suite.server.harness.caller(admin).recordings.get({ audioId });
      const { spans } = await suite.server.harness.caller(admin).translation.takes({ audioId });
      const durationMs = spans.at(-1)!.endMs;
      const playedMs = await review.evaluate(async (src) => {
        const audio = new Audio(src);
        await new Promise((resolve, reject) => {
          audio.onloadedmetadata = resolve;
          audio.onerror = reject;
        });
        return audio.duration * 1000;
      }, url!);
      expect(Math.abs(playedMs - durationMs)).toBeLessThanOrEqual(50);

      // Every status the player says, in order.
      const status = review.getByTestId("take-review-status");
      await status.evaluate((node) => {
        const said: string[] = [];
        Object.assign(window, { takeReviewSaid: said });
        new MutationObserver(() => said.push(node.textContent ?? "")).observe(node, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      await takesTable.getByRole("button", { name: "Play source, then take of segment 3" }).focus();
      await seen(review.getByRole("button", { name: "Play source, then take of segment 3 (Alt+L)" }));
      await review.keyboard.press("Alt+l");
      await status.filter({ hasText: "Played segment 3." }).waitFor({ timeout: 15_000 });
      const said = await review.evaluate(() => (window as unknown as { takeReviewSaid: string[] }).takeReviewSaid);
      expect(said.filter((line) => line.startsWith("Playing"))).toEqual([
        "Playing the source of segment 3…",
        "Playing the take of segment 3…",
      ]);

      await review.keyboard.press("Tab");
      await expect
        .poll(() => review.evaluate(() => document.activeElement?.textContent ?? ""))
        .toBe("Ask again for the take of segment 3…");
      await review.keyboard.press("Enter");
      const dialog = review.getByRole("dialog", { name: "Ask for segment 3's take again" });
      await seen(dialog);
      await review.keyboard.type("Say kiti more clearly.");
      await review.keyboard.press("Tab");
      await review.keyboard.press("Tab");
      await review.keyboard.press("Enter");
      await toast(review, "1 take to record again.");
      await seen(takesTable.getByText("Asked again: Say kiti more clearly."));
      // Focus is back on the row's actions once the dialog has closed.
      await expect
        .poll(() => review.evaluate(() => document.activeElement?.closest("tr")?.getAttribute("aria-current")))
        .toBe("true");
      await screenshot(review, "segment-takes-review");
      expect(await seriousAxeViolations(review)).toEqual([]);
      await review.close();
    },
  );

  step("the staff member sees which take to record again, with the note, and records it", async () => {
    const grid = await suite.server.harness.caller(staff).translation.segments({ audioId });
    await page.reload();
    await seen(translation(3));
    await translation(3).focus();
    await seen(page.getByText("The reviewer asks to record this take again:"));
    await seen(page.getByText("Say kiti more clearly."));
    await recordTake(3);
    await expect
      .poll(async () => (await takes()).takes.find((t) => t.segmentId === grid.segments[2]!.id)?.redoNote)
      .toBeNull();
  });
});
