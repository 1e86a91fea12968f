// ARCHITECTURE "Long recordings and the corpus": the player streams. An hour-long MP3 (40 kbit/s,
// 16 kHz mono, about 18 MB, made with ffmpeg in this run) with stored peaks opens on the Audio
// screen over a link of 1.5 Mbit/s (about Fast 3G): the peaks file is fetched and drawn (loud, quiet
// and silent parts), the duration shows at once, Play plays past 1 s while less than a fifth of the
// file has reached the browser (a player that downloads the file first would wait 100 s before
// Play), and a click at three quarters of the waveform plays from 45:00 with a Range request that
// starts there, still without the whole file. An audio whose waveform the server could not make
// plays and says 'Waveform not available'; one still being prepared plays and says so. Bytes are
// counted as the browser receives them (DevTools Network events), not from the server.
//
// The hour reads 1:00:00 wherever a length is shown (formatDuration, `@tafsiri/ui/duration`): the
// player's clock, Manage Audios, Assign Tasks, the participant's page, the staff member's task
// card, Submissions and review mode. An hour is where a clock of minutes would read 60:00.
//
// Why the slow link: on this machine's loopback Chromium reads ahead of the playing position about
// 5 MB at once (its media buffer: at least 2 MB, 10 s of audio, plus some), a quarter of this file,
// before 1 s has played. Over a real mobile link it reads what playing needs, which is what the
// test measures; the far seek shows the read-ahead stays bounded either way.
//
// Why 40 kbit/s at 16 kHz: the file is as large as 20 minutes at 128 kbit/s, and ffmpeg makes it
// and the server's waveform job decodes it in about the same time (as many samples), so the hour
// costs this spec no more than 20 minutes did.
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { CDPSession, Locator, Page } from "playwright-core";
import {
  describeBrowser,
  RESULTS_DIR,
  screenshot,
  seen,
  selectAudio,
  signIn,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { makeLongMp3, markWaveformFailed, prepareWaveforms, seedAudioFile } from "./support/long-audio";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const LONG = "long-lake-interview";
const FAILED = "undecodable-lake";
const PENDING = "unprepared-lake";
const HOUR_SECONDS = 60 * 60;
/** How every screen shows an hour: formatDuration's text and the ISO 8601 duration of its `<time>`. */
const AN_HOUR = { text: "1:00:00", datetime: "PT1H0M0S" };
const AUDIO_SCREEN = "/audiomanagement/audiocontrol";
/** The slow link: 1.5 Mbit/s down, 100 ms latency (DevTools protocol units: bytes a second, ms). */
const SLOW_LINK = { offline: false, latency: 100, downloadThroughput: 187_500, uploadThroughput: 87_500 };
const NO_LIMIT = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

/** The length `scope` (a table row, a card) shows: the text and the `datetime` of its `<time>`. */
async function shownDuration(scope: Locator): Promise<{ text: string; datetime: string | null }> {
  const time = await seen(scope.locator("time.duration"));
  return { text: await time.innerText(), datetime: await time.getAttribute("datetime") };
}

/** What the browser has received of one stored file, request by request (DevTools Network events). */
interface Traffic {
  /** Bytes received so far, over every request for the file. */
  bytes: number;
  /** The first byte each request asked for (0 without a Range header). */
  rangeStarts: number[];
  /** HTTP statuses of the answers. */
  statuses: number[];
}

/**
 * Counts, from now on, what `page` receives for URLs whose path ends with `pathSuffix`: bytes as
 * they arrive (Network.dataReceived, so a 206 answer the media element stops reading counts only
 * what it read), the Range each request asked for, and the statuses.
 */
async function watchTraffic(cdp: CDPSession, pathSuffix: string): Promise<Traffic> {
  const traffic: Traffic = { bytes: 0, rangeStarts: [], statuses: [] };
  const ids = new Set<string>();
  cdp.on("Network.requestWillBeSent", (e) => {
    if (!new URL(e.request.url).pathname.endsWith(pathSuffix)) return;
    ids.add(e.requestId);
    const range = Object.entries(e.request.headers).find(([name]) => name.toLowerCase() === "range")?.[1];
    traffic.rangeStarts.push(Number(/bytes=(\d+)-/.exec(String(range ?? ""))?.[1] ?? 0));
  });
  cdp.on("Network.responseReceived", (e) => {
    if (ids.has(e.requestId)) traffic.statuses.push(e.response.status);
  });
  cdp.on("Network.dataReceived", (e) => {
    if (ids.has(e.requestId)) traffic.bytes += Math.max(e.dataLength, e.encodedDataLength);
  });
  return traffic;
}

describeBrowser("an hour-long recording streams with its stored waveform and reads 1:00:00 everywhere", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let dir: string;
  let mp3: string;
  let fileBytes: number;
  let admin: TestUser;
  let staff: TestUser;
  let longAudio: { id: string; fileKey: string };
  let failedId: string;
  let pendingId: string;
  let page: Page;
  let cdp: CDPSession;
  let audio: Traffic;
  let peaks: Traffic;
  let player: Locator;

  /** The player's time (data-time, seconds) once `ok` holds for it, polled until the step timeout. */
  const timeWhen = async (ok: (seconds: number) => boolean): Promise<number> => {
    let seconds = Number.NaN;
    const read = async () => {
      seconds = Number(await player.getAttribute("data-time"));
      return seconds;
    };
    await expect.poll(read, { timeout: 20_000, interval: 100, message: "the player's time" }).toSatisfy(ok);
    return seconds;
  };
  /** The Audio screen of `audioId`, with its player ready. */
  const openAudio = async (audioId: string) => {
    await selectAudio(page, audioId);
    await page.goto(AUDIO_SCREEN);
    player = page.getByRole("group", { name: "Audio", exact: true });
    await seen(player.and(page.locator('[data-status="ready"]')));
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "tafsiri-long-audio-"));
    mp3 = path.join(dir, `${LONG}.mp3`);
    await makeLongMp3(mp3, HOUR_SECONDS, { sampleRate: 16_000, bitrate: "40k" });
    fileBytes = (await stat(mp3)).size;
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    longAudio = await seedAudioFile(suite.server, admin, { filename: LONG, file: mp3, mimeType: "audio/mpeg" });
    // The server's waveform job decodes it (in a worker, chunk by chunk) and stores its peaks; the
    // audios below are stored after it ran, so they stay pending.
    expect(await prepareWaveforms(suite.server)).toMatchObject({ ready: 1, failed: 0, errors: 0 });
    failedId = await seedAudio(suite.server, admin, { filename: FAILED });
    await markWaveformFailed(suite.server, failedId);
    pendingId = await seedAudio(suite.server, admin, { filename: PENDING });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  step("the Audio screen draws the stored peaks and shows 1:00:00 without loading the file", async () => {
    expect(fileBytes).toBeGreaterThan(17_500_000);
    page = await suite.newPage("admin");
    cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    audio = await watchTraffic(cdp, `/files/${longAudio.fileKey}`);
    peaks = await watchTraffic(cdp, `/files/${longAudio.fileKey}.peaks.dat`);
    await signIn(page, admin);
    // Set before the Audio screen opens: a request already under way would not be slowed.
    await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
    await openAudio(longAudio.id);
    await seen(player.and(page.locator('[data-waveform="peaks"]')));
    // The duration is known at once (the peaks'; the media element's own once it has read the header).
    await seen(player.getByText(`0:00 / ${AN_HOUR.text}`, { exact: true }));
    expect(peaks.statuses).toEqual([200]);
    // Drawn from the peaks: bars of many heights, from the silent minutes' nothing to the loud parts' most.
    const heights = await player.locator("canvas").evaluateAll((canvases) =>
      canvases.flatMap((c) => {
        const canvas = c as HTMLCanvasElement;
        const pixels = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data;
        if (!pixels || canvas.width === 0) return [];
        return Array.from({ length: canvas.width }, (_, x) => {
          let painted = 0;
          for (let y = 0; y < canvas.height; y += 1) if (pixels[(y * canvas.width + x) * 4 + 3]! > 0) painted += 1;
          return painted / canvas.height;
        });
      }),
    );
    expect(heights.length).toBeGreaterThan(0);
    expect(Math.max(...heights)).toBeGreaterThan(0.7);
    expect(heights.filter((h) => h > 0.3).length).toBeGreaterThan(heights.length / 10);
    expect(heights.filter((h) => h < 0.05).length).toBeGreaterThan(heights.length / 10);
    expect(await player.getByRole("status").count()).toBe(0);
    expect(audio.bytes).toBeLessThan(fileBytes / 5);
    expect(await seriousAxeViolations(page, { include: ['[role="group"][aria-label="Audio"]'] })).toEqual([]);
  });

  step("Play plays past 1 s while less than a fifth of the file has arrived", async () => {
    await player.getByRole("button", { name: "Play" }).click();
    await seen(player.and(page.locator('[data-state="playing"]')));
    await timeWhen((s) => s > 1);
    const received = audio.bytes;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(fileBytes / 5);
    await player.getByRole("button", { name: "Pause" }).click();
    await seen(player.and(page.locator('[data-state="paused"]')));
  });

  step("a click at three quarters of the waveform plays from 45:00, fetching only that part", async () => {
    const requestsBefore = audio.rangeStarts.length;
    const wave = player.locator(".audio-player-wave > div").first();
    const box = (await wave.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    // A pixel of the waveform is a few seconds of the hour: the click lands within two of them.
    const pixelSeconds = HOUR_SECONDS / box.width;
    const at = await timeWhen((s) => Math.abs(s - 45 * 60) < Math.max(3, 2 * pixelSeconds));
    await player.getByRole("button", { name: "Play" }).click();
    await seen(player.and(page.locator('[data-state="playing"]')));
    await timeWhen((s) => s > at + 1);
    await seen(player.getByText(/^4[45]:\d\d \/ 1:00:00$/));
    // The media element asked for the bytes from about three quarters into the file on.
    const farStarts = audio.rangeStarts.slice(requestsBefore).filter((start) => start > fileBytes * 0.7);
    expect(farStarts.length).toBeGreaterThan(0);
    expect(audio.bytes).toBeLessThan(fileBytes / 2);
    await player.getByRole("button", { name: "Pause" }).click();
    await seen(player.and(page.locator('[data-state="paused"]')));
    await player.screenshot({ path: path.join(RESULTS_DIR, "long-audio-01-player.png") });
    await screenshot(page, "long-audio-02-audio-screen");
    await cdp.send("Network.emulateNetworkConditions", NO_LIMIT);
  });

  step("an audio whose waveform failed plays and says 'Waveform not available'", async () => {
    await openAudio(failedId);
    await seen(player.and(page.locator('[data-waveform="unavailable"]')));
    await seen(player.getByText("Waveform not available", { exact: true }));
    await player.getByRole("button", { name: "Play" }).click();
    await seen(player.and(page.locator('[data-state="playing"]')));
    await timeWhen((s) => s > 0.3);
    await screenshot(page, "long-audio-03-waveform-not-available");
    expect(await seriousAxeViolations(page, { include: ['[role="group"][aria-label="Audio"]'] })).toEqual([]);
  });

  step("an audio whose waveform is still being prepared plays and says so; a click seeks", async () => {
    await openAudio(pendingId);
    await seen(player.and(page.locator('[data-waveform="pending"]')));
    await seen(player.getByText("Waveform is being prepared", { exact: true }));
    // The message lets clicks through: the middle of the line is the middle of the audio.
    const wave = player.locator(".audio-player-wave > div").first();
    const box = (await wave.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + 20);
    const middle = await timeWhen((s) => s > 0.4 && s < 0.9);
    await player.getByRole("button", { name: "Play" }).click();
    await seen(player.and(page.locator('[data-state="playing"]')));
    await timeWhen((s) => s > middle + 0.2);
  });

  step("Manage Audios, Assign Tasks and the participant's page show the hour as 1:00:00", async () => {
    const { participant } = await suite.server.harness
      .caller(admin)
      .participants.create({ code: "P0601", group: "Control" });
    await suite.server.harness
      .caller(admin)
      .participants.linkAudio({ audioId: longAudio.id, participantId: participant.id, sessionDate: null });
    const audioRow = page.locator(`tr[data-audio-id="${longAudio.id}"]`);
    await page.goto("/management/manageaudios");
    expect(await shownDuration(audioRow)).toEqual(AN_HOUR);
    await page.goto("/management/createtasks");
    expect(await shownDuration(audioRow)).toEqual(AN_HOUR);
    await page.goto(`/management/participants/${participant.id}`);
    expect(await shownDuration(page.getByRole("row").filter({ hasText: LONG }))).toEqual(AN_HOUR);
  });

  step("assigned and transcribed, it reads 1:00:00 on the task card, in Submissions and in review mode", async () => {
    await suite.server.harness.caller(admin).tasks.assign({ audioId: longAudio.id, staffId: staff.id });
    await suite.server.harness.caller(staff).transcripts.save({ audioId: longAudio.id, text: "Line one of the hour." });
    const staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await staffPage.goto("/Audios");
    expect(await shownDuration(staffPage.locator(`.task-card[data-audio-id="${longAudio.id}"]`))).toEqual(AN_HOUR);
    await page.goto("/submission/general");
    expect(await shownDuration(page.getByRole("row").filter({ hasText: LONG }))).toEqual(AN_HOUR);
    await page.goto("/submission/review?status=needsReview");
    await seen(page.getByText(`Staff: ${staff.username} · Category: Control · ${AN_HOUR.text}`, { exact: true }));
  });
});
