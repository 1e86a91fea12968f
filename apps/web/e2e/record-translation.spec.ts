// Decision 018, "Recording in the browser" (SPEC §2.13 Translated Audio, Staff). Chromium runs
// with a fake microphone that plays fixtures/microphone-speech.wav in a loop. The staff member
// opens a task's Translated Audio and presses Record beside the drop zone: the level meter and the
// elapsed time move. Stop gives a player of the take, its waveform drawn from the peaks kept while
// recording (decision 018: the take is captured by an AudioWorklet and never decoded), 'Record
// again', and the take as the chosen file, and nothing has been uploaded. With a recorder chosen,
// 'Upload Audio' uploads it: the server stores a mono 16-bit WAV at 22,050 Hz holding the speech,
// as long as the time recorded. A microphone permission refused for the site shows a
// clear message and records nothing; the microphone withdrawn mid-take keeps what was recorded and
// says so. The recording and recorded states pass axe (WCAG 2.1 AA).
import { afterAll, beforeAll, expect } from "vitest";
import type { Browser, Page, Request } from "playwright-core";
import {
  describeBrowser,
  fakeMicrophoneArgs,
  launchChromium,
  screenshot,
  seen,
  toast,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps, fixture } from "./support/steps";
import { openTranslatedAudio } from "./support/tasks";
import type { TestUser } from "./support/server";

const AUDIO = "record-lake";
const REFUSED = "record-refused";
const LOST = "record-lost";
// The take is sent as a resumable upload (decision 020): one tus creation request per upload.
const UPLOAD_PATH = "/api/uploads";
/** What the player shows instead of a waveform while the server prepares its peaks. */
const WAVEFORM_PENDING = "Waveform is being prepared";
const REFUSED_MESSAGE =
  "Microphone access was refused. Allow the microphone in your browser's site settings and press Record again.";
const LOST_MESSAGE =
  "The microphone stopped during the take: its permission was withdrawn or it was unplugged. Check the microphone and press Record again. The part recorded before it stopped is kept below.";

/** The fields of a 44-byte canonical WAV header, and the RMS of its 16-bit samples (0..1). */
interface WavSummary {
  riff: string;
  wave: string;
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  seconds: number;
  /** The RIFF size and the data size agree with the file's length. */
  sizesMatch: boolean;
  rms: number;
}

/** Reads a canonical PCM WAV file (a 44-byte header, as wavHeader writes it, then the samples). */
function readWav(bytes: Buffer): WavSummary {
  const channels = bytes.readUInt16LE(22);
  const sampleRate = bytes.readUInt32LE(24);
  const bitsPerSample = bytes.readUInt16LE(34);
  const dataBytes = bytes.readUInt32LE(40);
  let sum = 0;
  const count = Math.floor(Math.min(dataBytes, bytes.length - 44) / 2);
  for (let i = 0; i < count; i += 1) sum += (bytes.readInt16LE(44 + 2 * i) / 32768) ** 2;
  return {
    riff: bytes.toString("ascii", 0, 4),
    wave: bytes.toString("ascii", 8, 12),
    format: bytes.readUInt16LE(20),
    channels,
    sampleRate,
    bitsPerSample,
    seconds: dataBytes / (sampleRate * channels * (bitsPerSample / 8)),
    sizesMatch: bytes.readUInt32LE(4) === bytes.length - 8 && dataBytes === bytes.length - 44,
    rms: Math.sqrt(sum / Math.max(1, count)),
  };
}

/**
 * screenshot() with the viewport made as tall as the page first: a full-page capture of a page
 * taller than the viewport catches the sticky sidebar mid-transition (narrowed), which no user sees.
 */
async function screenshotTall(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await screenshot(page, name);
  await page.setViewportSize(viewport);
}

type PermissionSetting = "granted" | "denied";

/**
 * Sets the microphone permission of `origin` in the page's browser context over the DevTools
 * protocol, as the site settings would; returns a function that changes it again. The DevTools
 * session stays open: detaching it would drop the setting.
 */
async function microphonePermission(
  page: Page,
  origin: string,
  setting: PermissionSetting,
): Promise<(setting: PermissionSetting) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  const { targetInfo } = await cdp.send("Target.getTargetInfo");
  const set = async (value: PermissionSetting) => {
    await cdp.send("Browser.setPermission", {
      permission: { name: "microphone" },
      setting: value,
      origin,
      browserContextId: targetInfo.browserContextId,
    });
  };
  await set(setting);
  return set;
}

const MICROPHONE_ARGS = fakeMicrophoneArgs(fixture("microphone-speech.wav"));
/**
 * The fake microphone without --use-fake-ui-for-media-stream (which grants every request, whatever
 * the site's permission): the browser's own permission settings decide, as for a real user.
 */
const PERMISSION_ARGS = MICROPHONE_ARGS.filter((arg) => arg !== "--use-fake-ui-for-media-stream");

describeBrowser("recording a translated audio in the browser", () => {
  const suite = useBrowserSuite({ launchArgs: MICROPHONE_ARGS });
  const step = createSteps();
  let staff: TestUser;
  let audioId: string;
  let page: Page;
  const uploads: Request[] = [];
  let permissionBrowser: Browser | undefined;
  /** The time recorded (ms): the recorder's own clock from the capture's start to Stop (data-elapsed-ms). */
  let recordedMs = 0;

  /**
   * A page in a browser whose microphone permission for the site is `setting`, and the function
   * that changes it (microphonePermission).
   */
  async function pageWithPermission(
    setting: PermissionSetting,
  ): Promise<{ page: Page; setPermission: (setting: PermissionSetting) => Promise<void> }> {
    permissionBrowser ??= await launchChromium(PERMISSION_ARGS);
    const context = await permissionBrowser.newContext({
      viewport: { width: 1440, height: 900 },
      baseURL: suite.server.baseURL,
    });
    context.setDefaultTimeout(20_000);
    const newPage = await context.newPage();
    return { page: newPage, setPermission: await microphonePermission(newPage, suite.server.baseURL, setting) };
  }

  afterAll(async () => {
    await permissionBrowser?.close();
  });

  beforeAll(async () => {
    const admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    audioId = await seedAudio(suite.server, admin, { filename: AUDIO, assignTo: staff });
    await seedAudio(suite.server, admin, { filename: REFUSED, assignTo: staff });
    await seedAudio(suite.server, admin, { filename: LOST, assignTo: staff });
  });

  step("the staff member finds 'Record' beside the drop zone of Translated Audio", async () => {
    page = await suite.newPage("staff");
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === UPLOAD_PATH) uploads.push(request);
    });
    await openTranslatedAudio(page, staff, AUDIO);
    await seen(page.getByRole("heading", { name: "Upload Translated Audio" }));
    const recorder = await seen(page.getByRole("region", { name: "Or record with the microphone" }));
    await seen(recorder.getByRole("button", { name: "Record", exact: true }));
    await seen(page.getByText("No submission yet", { exact: true }));
  });

  step("Record: the level meter and the elapsed time move while the microphone hears speech", async () => {
    const recorder = page.getByRole("region", { name: "Or record with the microphone" });
    await recorder.getByRole("button", { name: "Record", exact: true }).click();
    const stop = await seen(recorder.getByRole("button", { name: "Stop", exact: true }));
    // The same button now says Stop and keeps the focus.
    expect(await stop.evaluate((el) => el === document.activeElement)).toBe(true);
    const meter = await seen(recorder.getByRole("meter", { name: "Microphone level" }));
    const timer = recorder.getByRole("timer", { name: "Elapsed time" });
    expect(await timer.innerText()).toMatch(/^00:0\d$/);

    // Read every 100 ms for at most 2 s, until the level has risen past 20 % and taken four values.
    const levels = new Set<number>();
    const moved = async () => {
      levels.add(Number(await meter.getAttribute("aria-valuenow")));
      return Math.max(...levels) > 20 && levels.size > 3;
    };
    await expect.poll(moved, { timeout: 2_000, interval: 100 }).toBe(true);
    expect(Math.max(...levels)).toBeGreaterThan(20);
    expect(levels.size).toBeGreaterThan(3);
    await seen(recorder.getByText(/^Level \d+%$/));
    // Nothing can be submitted or dropped while a take is being recorded.
    expect(await page.getByRole("button", { name: "Upload Audio" }).isDisabled()).toBe(true);
    expect(await page.locator(".dropzone").getAttribute("aria-disabled")).toBe("true");

    await seen(timer.getByText("00:03", { exact: true }));
    await screenshotTall(page, "record-translation-01-recording");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("Stop: a player of the take and 'Record again'; nothing is uploaded yet", async () => {
    const recorder = page.getByRole("region", { name: "Or record with the microphone" });
    await recorder.getByRole("button", { name: "Stop", exact: true }).click();
    const player = await seen(
      recorder.getByRole("group", { name: "Recorded take" }).and(page.locator('[data-status="ready"]')),
    );
    // The waveform is drawn from the peaks kept while recording, not prepared from the file.
    expect(await player.getAttribute("data-waveform")).toBe("peaks");
    expect(await player.getByText(WAVEFORM_PENDING).count()).toBe(0);
    const again = await seen(recorder.getByRole("button", { name: "Record again", exact: true }));
    expect(await again.evaluate((el) => el === document.activeElement)).toBe(true);
    await seen(recorder.getByText(/^Take of 00:0\d \(\d+(\.\d)? KB\) ready\./));
    recordedMs = Number(await page.locator(".microphone-recorder").getAttribute("data-elapsed-ms"));
    expect(recordedMs).toBeGreaterThan(3000);
    const said = await recorder.getByText(/^Take of /).innerText();
    expect(Math.abs(Number(/^Take of 00:(\d\d)/.exec(said)?.[1]) - recordedMs / 1000)).toBeLessThan(1.5);
    // The take is the file the form will upload, named after the audio.
    await seen(page.getByTestId("dropzone-file").getByText(`${AUDIO}_take.wav`, { exact: true }));
    expect(await recorder.getByRole("meter").count()).toBe(0);
    expect(await recorder.getByRole("alert").innerText()).toBe("");

    expect(uploads).toHaveLength(0);
    const stored = await suite.server.harness.caller(staff).recordings.get({ audioId });
    expect(stored.url).toBeNull();
    await seen(page.getByText("No submission yet", { exact: true }));
    await screenshotTall(page, "record-translation-02-recorded");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("'Upload Audio' with the chosen recorder uploads the take; the server stores a WAV of the speech", async () => {
    await page.getByLabel("Select Recorder").selectOption({ label: `${staff.username} (You)` });
    await page.getByRole("button", { name: "Upload Audio" }).click();
    await toast(page, "Translation Audio file uploaded successfully.");
    await seen(
      page.getByRole("group", { name: "Translated audio", exact: true }).and(page.locator('[data-status="ready"]')),
    );
    await seen(page.getByText(`Recorded by ${staff.username}`, { exact: true }));
    expect(uploads).toHaveLength(1);
    // The recorder is back to its start, with no file chosen.
    const recorder = page.getByRole("region", { name: "Or record with the microphone" });
    await seen(recorder.getByRole("button", { name: "Record", exact: true }));
    expect(await page.getByTestId("dropzone-file").count()).toBe(0);

    const stored = await suite.server.harness.caller(staff).recordings.get({ audioId });
    expect(stored.status).toBe("Pending");
    expect(stored.mimeType).toBe("audio/wav");
    expect(stored.recordedBy?.username).toBe(staff.username);
    const response = await fetch(new URL(stored.url ?? "", suite.server.baseURL));
    expect(response.status).toBe(200);
    const wav = readWav(Buffer.from(await response.arrayBuffer()));
    expect(wav).toMatchObject({
      riff: "RIFF",
      wave: "WAVE",
      format: 1,
      channels: 1,
      sampleRate: 22_050,
      bitsPerSample: 16,
      sizesMatch: true,
    });
    // As long as the time recorded, within half a second.
    expect(Math.abs(wav.seconds - recordedMs / 1000)).toBeLessThan(0.5);
    // Speech, not silence: the fixture's RMS is about 0.09.
    expect(wav.rms).toBeGreaterThan(0.01);
    await screenshotTall(page, "record-translation-03-uploaded");
  });

  step("a microphone permission refused for the site shows a clear message and records nothing", async () => {
    const { page: refused } = await pageWithPermission("denied");
    await openTranslatedAudio(refused, staff, REFUSED);
    const recorder = refused.getByRole("region", { name: "Or record with the microphone" });
    await recorder.getByRole("button", { name: "Record", exact: true }).click();
    await seen(recorder.getByRole("alert").getByText(REFUSED_MESSAGE, { exact: true }));
    await seen(recorder.getByRole("button", { name: "Record", exact: true }));
    expect(await recorder.getByRole("meter").count()).toBe(0);
    expect(await refused.getByTestId("dropzone-file").count()).toBe(0);
    await screenshotTall(refused, "record-translation-04-refused");
    expect(await seriousAxeViolations(refused)).toEqual([]);
  });

  step("the microphone withdrawn mid-take keeps what was recorded and says so", async () => {
    const { page: lost, setPermission } = await pageWithPermission("granted");
    await openTranslatedAudio(lost, staff, LOST);
    const recorder = lost.getByRole("region", { name: "Or record with the microphone" });
    await recorder.getByRole("button", { name: "Record", exact: true }).click();
    await seen(recorder.getByRole("timer").getByText("00:02", { exact: true }));
    // Withdrawing the permission ends the microphone's track, as unplugging it would.
    await setPermission("denied");
    await seen(recorder.getByRole("alert").getByText(LOST_MESSAGE, { exact: true }));
    const player = await seen(
      recorder.getByRole("group", { name: "Recorded take" }).and(lost.locator('[data-status="ready"]')),
    );
    expect(await player.getAttribute("data-waveform")).toBe("peaks");
    await seen(lost.getByTestId("dropzone-file").getByText(`${LOST}_take.wav`, { exact: true }));
    await screenshotTall(lost, "record-translation-05-lost");
  });
});
