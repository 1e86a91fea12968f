/**
 * Long-recording benchmark (ARCHITECTURE "Long recordings and the corpus"): a field recording of an
 * hour, on the server and in a phone-sized browser on an open link and on Fast 3G.
 *
 * The recordings are made here with ffmpeg's lavfi sources (speech-like bursts of a tone over pink
 * noise, so the waveform has shape), `--minutes` long (default 60):
 *  - a stereo MP3 at 128 kbit/s (a phone recorder's default), a mono 16 kHz 16-bit WAV, and an
 *    M4A/AAC at 96 kbit/s.
 *
 * Server: one real server (`tsx apps/server/src/server.ts`, fresh DATA_DIR, its embedded PGlite or
 * a fresh temporary database on DATABASE_URL's server). The MP3 and the WAV are uploaded through
 * `POST /api/audios/upload/AUDIO`; the server's resident memory is watched from before the upload
 * (bench/support/rss-watch.ts; the job starts decoding as the upload commits) and, from the
 * upload's answer, `GET /healthz` is asked one request after another, until `audios.get` says the
 * waveform is ready: time to peaks (from the answer), RSS growth (the upload's streaming included),
 * /healthz p99. M4A is
 * not an accepted upload (SPEC §5, §9: .mp3, .wav, .ogg, .flac), so its figures are the decoder's
 * alone: `computeWaveform` in a process of its own on local storage (time and that process's RSS
 * growth), once as ffmpeg writes it (index at the end, as phones do) and once with the index first
 * (`-movflags +faststart`).
 *
 * Browser (headless Chromium, Debian's, 390x844): the admin opens the Audio screen of the MP3, on
 * an open link and on Fast 3G (CDP: 1.6 Mbit/s down, 750 kbit/s up, 150 ms): time from opening
 * the screen to audible playback (the player's position past 0:01 after Play is pressed as soon as
 * it is enabled), bytes of the audio file fetched by then, then a click on the waveform at 50:00
 * (for recordings of 60 minutes; otherwise at five sixths): time until the position is past that
 * point + 1 s; and the memory growth of all Chromium processes from the moment before the screen
 * opens to the peak while it plays. Then a take of `--take-minutes` (default 10) recorded with
 * Chromium's fake microphone on a staff member's Translated Audio screen: the memory growth of
 * Chromium during the take and after Stop.
 *
 * Targets: peaks of the 60-minute MP3 in under 60 s with the server's RSS growing by under 100 MB
 * and /healthz p99 under 100 ms meanwhile; playback within 2 s on an open link and 4 s on Fast
 * 3G; a far seek plays within 2 s (4 s on Fast 3G); Chromium grows by under 150 MB with the
 * recording open, and by under 150 MB during the take. Prints PASS or FAIL per target and exits 1
 * when one fails. MB are 2^20 bytes.
 *
 * `npm run bench` builds the web app first when it is missing or out of date.
 * Usage: npm run bench -- long-audio [--minutes 60] [--take-minutes 10] [--skip-take]
 * CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openAsBlob, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { wholeNumber } from "./support/args";
import { benchDatabase } from "./support/bench-database";
import { signedInSession } from "./support/signed-in-session";
import { ROOT, startChild, stopChild, type ChildServer } from "./support/child-process";
import { restSignIn } from "./support/rest-sign-in";
import { watchRss } from "./support/rss-watch";
import { summarize } from "./support/stats";
import { Verdicts } from "./support/targets";
import { chromiumMemoryMb } from "./support/process-tree";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "60" },
    "take-minutes": { type: "string", default: "10" },
    "skip-take": { type: "boolean", default: false },
  },
});
const MINUTES = wholeNumber("minutes", values.minutes, 1);
const TAKE_MINUTES = wholeNumber("take-minutes", values["take-minutes"], 1);
const SECONDS = MINUTES * 60;
/** Where the far seek goes: 50:00 of an hour, five sixths of a shorter recording. */
const SEEK_TO = MINUTES >= 60 ? 50 * 60 : Math.round((SECONDS * 5) / 6);
const MB = 1024 * 1024;
/** How long the decoder alone may take on an M4A before the benchmark gives up on it. */
const M4A_LIMIT_MS = 180_000;
/** CDP Network.emulateNetworkConditions parameters. */
interface LinkConditions {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}
const FAST_3G: LinkConditions = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};
const OPEN_LINK: LinkConditions = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
const ADMIN = { email: "long-admin@example.test", username: "longadmin", password: "Long#2026-admin" };
const STAFF = { email: "long-staff@example.test", username: "longstaff", password: "Long#2026-staff" };
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SERVER_SCRIPT = path.join(ROOT, "apps/server/src/server.ts");
const verdicts = new Verdicts();
const mb = (n: number) => `${n.toFixed(0)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Runs ffmpeg quietly with `args`; throws with its output when it fails. */
function ffmpeg(args: string[]): void {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { stdio: "pipe" });
}

/** A field recording: bursts of a 180 Hz tone at half scale (2 s on, 1 s off, as speech comes) over quiet pink noise. */
const SOURCE = (seconds: number, rate: number) => [
  "-f",
  "lavfi",
  "-i",
  `sine=frequency=180:sample_rate=${rate}:duration=${seconds}`,
  "-f",
  "lavfi",
  "-i",
  `anoisesrc=color=pink:amplitude=0.05:sample_rate=${rate}:duration=${seconds}`,
  "-filter_complex",
  "[0]volume='if(lt(mod(t,3),2),4,0)':eval=frame[tone];[tone][1]amix=inputs=2:normalize=0",
];

/** Makes the recordings in `dir`; returns their paths. */
function makeRecordings(dir: string) {
  const mp3 = path.join(dir, "field_hour_mp3.mp3");
  const wav = path.join(dir, "field_hour_wav.wav");
  const m4a = path.join(dir, "field_hour_m4a.m4a");
  const m4aFast = path.join(dir, "field_hour_m4a_faststart.m4a");
  ffmpeg([...SOURCE(SECONDS, 44_100), "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", mp3]);
  ffmpeg([...SOURCE(SECONDS, 16_000), "-ac", "1", "-c:a", "pcm_s16le", wav]);
  ffmpeg([...SOURCE(SECONDS, 44_100), "-ac", "2", "-c:a", "aac", "-b:a", "96k", m4a]);
  ffmpeg(["-i", m4a, "-c", "copy", "-movflags", "+faststart", m4aFast]);
  return { mp3, wav, m4a, m4aFast };
}

/** The JSON answer of a tRPC query over GET, or throws. */
async function trpcQuery<T>(baseUrl: string, token: string, procedure: string, input: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { result?: { data?: T }; error?: { message?: string } };
  if (!res.ok || !body.result) throw new Error(`${procedure} answered ${res.status}: ${body.error?.message ?? ""}`);
  return body.result.data as T;
}

/** A REST call with the admin's token; the parsed answer, or throws. */
async function rest<T>(baseUrl: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Uploads `file` as an audio through the REST multipart path (streamed from disk); returns its id. */
async function uploadAudio(baseUrl: string, token: string, file: string): Promise<string> {
  const form = new FormData();
  form.append("category", "Control");
  form.append("file", await openAsBlob(file), path.basename(file));
  const res = await fetch(`${baseUrl}/api/audios/upload/AUDIO`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`upload of ${path.basename(file)} answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { _id: string })._id;
}

interface WaveformAnswer {
  waveform: { status: "pending" | "ready" | "failed"; durationSeconds: number | null };
}

/**
 * Uploads `file` and, until `audios.get` says its waveform is no longer pending, watches the
 * server's RSS (from before the upload) and asks /healthz one request after another (from its answer).
 */
async function peaksOnServer(server: ChildServer, token: string, file: string) {
  // Watched from before the upload: the job starts decoding when the upload commits, before its answer arrives.
  const rss = watchRss(server.pid);
  const id = await uploadAudio(server.baseUrl, token, file);
  const started = performance.now();
  let done = false;
  const health: number[] = [];
  const probing = (async () => {
    while (!done) {
      const t = performance.now();
      await fetch(`${server.baseUrl}/healthz`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t);
    }
  })();
  let answer: WaveformAnswer;
  for (;;) {
    answer = await trpcQuery<WaveformAnswer>(server.baseUrl, token, "audios.get", { audioId: id });
    if (answer.waveform.status !== "pending") break;
    if (performance.now() - started > 15 * 60_000) throw new Error(`no waveform for ${file} after 15 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ms = performance.now() - started;
  done = true;
  await probing;
  const peakMb = rss.stop();
  return { id, ms, growthMb: peakMb - rss.baselineMb, health: summarize(health), waveform: answer.waveform };
}

/** Runs computeWaveform on `file` in a process of its own; its time and RSS growth. */
function peaksInOwnProcess(file: string, mimeType: string): { ms: number; growthMb: number; error?: string } {
  const r = spawnSync(
    path.join(ROOT, "node_modules/.bin/tsx"),
    [path.join(ROOT, "bench/support/waveform-child.ts"), file, mimeType],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * MB, timeout: M4A_LIMIT_MS },
  );
  if (r.error || r.signal)
    return { ms: Number.NaN, growthMb: Number.NaN, error: `did not finish within ${M4A_LIMIT_MS / 1000} s` };
  const line = r.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as { ms: number; growthMb: number; error?: string };
  } catch {
    return { ms: Number.NaN, growthMb: Number.NaN, error: `exit ${r.status}: ${r.stderr.slice(-500)}` };
  }
}

async function newContext(browser: Browser, baseURL: string, session: string, audioId?: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL });
  context.setDefaultTimeout(120_000);
  await context.addInitScript(
    `localStorage.setItem("tafsiri-session", ${JSON.stringify(session)});` +
      (audioId ? `localStorage.setItem("tafsiri-current-audio", ${JSON.stringify(audioId)});` : ""),
  );
  return context;
}

/** The player's position in seconds (its data-time). */
async function playerTime(page: Page): Promise<number> {
  return Number((await page.locator(".audio-player").first().getAttribute("data-time")) ?? "0");
}

async function waitForTime(page: Page, seconds: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while ((await playerTime(page)) <= seconds) {
    if (performance.now() > deadline) throw new Error(`the player did not pass ${seconds} s within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Samples the memory of every Chromium process under this one until stopped; the peak, MB. */
function watchChromium() {
  let peak = chromiumMemoryMb(process.pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, chromiumMemoryMb(process.pid));
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, chromiumMemoryMb(process.pid));
    },
  };
}

/**
 * Opens the Audio screen of `audioId` under `link` and plays it, then seeks to SEEK_TO by a
 * click on the waveform; the times, bytes of the audio fetched before playback, and Chromium's
 * memory growth.
 */
async function playInBrowser(
  browser: Browser,
  baseURL: string,
  session: string,
  audioId: string,
  link: LinkConditions,
) {
  const context: BrowserContext = await newContext(browser, baseURL, session, audioId);
  const page = await context.newPage();
  // The app's shell first (the same for every screen), so the baseline holds it.
  await page.goto("/Audios");
  await page.getByRole("heading", { name: "Tasks" }).waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", link);
  const audioRequests = new Set<string>();
  let audioBytes = 0;
  let peaksBytes = 0;
  const peaksRequests = new Set<string>();
  cdp.on("Network.requestWillBeSent", (e: { requestId: string; request: { url: string } }) => {
    const { pathname } = new URL(e.request.url);
    if (pathname.startsWith("/files/audios/") && pathname.endsWith(".peaks.dat")) peaksRequests.add(e.requestId);
    else if (pathname.startsWith("/files/audios/")) audioRequests.add(e.requestId);
  });
  cdp.on("Network.dataReceived", (e: { requestId: string; encodedDataLength: number; dataLength: number }) => {
    const n = e.encodedDataLength || e.dataLength;
    if (audioRequests.has(e.requestId)) audioBytes += n;
    if (peaksRequests.has(e.requestId)) peaksBytes += n;
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const baseline = chromiumMemoryMb(process.pid);
  const memory = watchChromium();
  const started = performance.now();
  await page.goto("/audiomanagement/audiocontrol");
  const play = page.locator(".audio-player").first().getByRole("button", { name: "Play" });
  await play.waitFor();
  // Play is enabled once the media element can play.
  const deadline = performance.now() + 120_000;
  while (await play.isDisabled()) {
    if (performance.now() > deadline) throw new Error("Play was not enabled within 120 s");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await play.click();
  await waitForTime(page, 1, 120_000);
  const playMs = performance.now() - started;
  const bytesBeforePlayback = audioBytes;
  // The far seek: a click on the waveform where SEEK_TO is (the whole recording fits its width).
  const wave = page.locator(".audio-player-wave").first();
  const box = await wave.boundingBox();
  if (!box) throw new Error("no waveform on the Audio screen");
  const seekStarted = performance.now();
  await page.mouse.click(box.x + (box.width * SEEK_TO) / SECONDS, box.y + box.height / 2);
  // A pixel of the waveform is several seconds of an hour: the click lands near SEEK_TO. The
  // position jumps there at once; audible means a second played on from where it landed.
  await waitForTime(page, SEEK_TO - 60, 120_000);
  const landed = await playerTime(page);
  await waitForTime(page, landed + 1, 120_000);
  const seekMs = performance.now() - seekStarted;
  // Keep playing a little, as a listener would.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const peak = memory.stop();
  const drawnFromPeaks = peaksRequests.size > 0;
  await context.close();
  return { playMs, seekMs, bytesBeforePlayback, audioBytes, peaksBytes, growthMb: peak - baseline, drawnFromPeaks };
}

/** Records a take of TAKE_MINUTES on the staff member's Translated Audio screen; Chromium's memory growth. */
async function takeInBrowser(baseURL: string, session: string, audioId: string, microphoneWav: string) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${microphoneWav}`,
    ],
  });
  try {
    const context = await newContext(browser, baseURL, session, audioId);
    const page = await context.newPage();
    await page.goto("/audiomanagement/translatedaudio");
    const record = page.getByRole("button", { name: "Record", exact: true });
    await record.waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const baseline = chromiumMemoryMb(process.pid);
    const memory = watchChromium();
    await record.click();
    await page.getByRole("button", { name: "Stop", exact: true }).waitFor();
    const samples: string[] = [];
    for (let minute = 1; minute <= TAKE_MINUTES; minute += 1) {
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      samples.push(`${minute}:00 ${mb(chromiumMemoryMb(process.pid) - baseline)}`);
    }
    const during = memory.stop();
    const after = watchChromium();
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await page.getByRole("button", { name: "Record again" }).waitFor({ timeout: 300_000 });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const afterStop = after.stop();
    await context.close();
    return { duringMb: during - baseline, afterStopMb: afterStop - baseline, samples };
  } finally {
    await browser.close();
  }
}

const db = await benchDatabase(process.env.DATABASE_URL);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-long-audio-"));
let server: ChildServer | undefined;
let browser: Browser | undefined;
try {
  console.log(
    `Database: ${db.label}; ${MINUTES}-minute recordings; Chromium ${CHROMIUM}; ${os.cpus().length} cores; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  const made = performance.now();
  const files = makeRecordings(dataDir);
  console.log(`Recordings made in ${secs(performance.now() - made)}:`);
  for (const file of Object.values(files))
    console.log(`  ${path.basename(file).padEnd(32)} ${(statSync(file).size / MB).toFixed(1)} MB`);

  server = await startChild(SERVER_SCRIPT, {
    DATA_DIR: path.join(dataDir, "server"),
    DATABASE_URL: db.url,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const token = await restSignIn(server.baseUrl, ADMIN);

  console.log(`\nServer: peaks of each recording (uploaded; timed from the upload's answer until ready):`);
  const mp3 = await peaksOnServer(server, token, files.mp3);
  const wav = await peaksOnServer(server, token, files.wav);
  for (const [label, r] of [
    ["MP3 stereo 128 kbit/s", mp3],
    ["WAV mono 16 kHz", wav],
  ] as const) {
    console.log(
      `  ${label.padEnd(24)} ${secs(r.ms).padStart(9)}   RSS growth ${mb(r.growthMb).padStart(7)}   /healthz p50 ${r.health.p50.toFixed(1)} ms p99 ${r.health.p99.toFixed(1)} ms max ${r.health.max.toFixed(1)} ms (${r.waveform.status}, ${r.waveform.durationSeconds?.toFixed(1)} s)`,
    );
  }
  console.log(`  M4A/AAC is not an accepted upload (SPEC §5): the decoder alone, in a process of its own:`);
  for (const [label, file] of [
    ["M4A, index at the end", files.m4a],
    ["M4A, index first", files.m4aFast],
  ] as const) {
    const r = peaksInOwnProcess(file, "audio/mp4");
    console.log(
      `  ${label.padEnd(24)} ${r.error ? `failed: ${r.error}` : `${secs(r.ms).padStart(9)}   RSS growth ${mb(r.growthMb).padStart(7)}`}`,
    );
  }
  const checks: Array<[string, boolean]> = [
    [
      `peaks of the ${MINUTES}-minute MP3 under 60 s (${secs(mp3.ms)})`,
      mp3.waveform.status === "ready" && mp3.ms < 60_000,
    ],
    [`server RSS growth under 100 MB while computing them (${mb(mp3.growthMb)})`, mp3.growthMb < 100],
    [`/healthz p99 under 100 ms meanwhile (${mp3.health.p99.toFixed(1)} ms)`, mp3.health.p99 < 100],
  ];

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const adminSession = await signedInSession(browser, server.baseUrl, ADMIN);
  console.log(
    `\nBrowser: the Audio screen of the ${MINUTES}-minute MP3, 390x844, seek to ${Math.floor(SEEK_TO / 60)}:00:`,
  );
  for (const [label, link, playTarget, seekTarget] of [
    ["open link", OPEN_LINK, 2000, 2000],
    ["Fast 3G", FAST_3G, 4000, 4000],
  ] as const) {
    const r = await playInBrowser(browser, server.baseUrl, adminSession, mp3.id, link);
    console.log(
      `  ${label.padEnd(10)} playback after ${secs(r.playMs)} (${(r.bytesBeforePlayback / MB).toFixed(2)} MB of the audio fetched by then), far seek plays after ${secs(r.seekMs)}, audio fetched in all ${(r.audioBytes / MB).toFixed(2)} MB, peaks ${(r.peaksBytes / 1024).toFixed(0)} KiB, Chromium grew ${mb(r.growthMb)}`,
    );
    checks.push(
      [`${label}: playback within ${playTarget / 1000} s (${secs(r.playMs)})`, r.playMs < playTarget],
      [`${label}: a far seek plays within ${seekTarget / 1000} s (${secs(r.seekMs)})`, r.seekMs < seekTarget],
      [`${label}: Chromium grows by under 150 MB with the recording open (${mb(r.growthMb)})`, r.growthMb < 150],
      [`${label}: the waveform is drawn from stored peaks`, r.drawnFromPeaks],
    );
  }
  await browser.close();
  browser = undefined;

  if (!values["skip-take"]) {
    await rest(server.baseUrl, token, "POST", "/auth/register", {
      ...STAFF,
      role: "Staff",
      adminpassword: ADMIN.password,
    });
    const staff = await rest<Array<{ _id: string; username: string }>>(server.baseUrl, token, "GET", "/auth/staff");
    const staffId = staff.find((u) => u.username === STAFF.username)?._id;
    if (!staffId) throw new Error("the staff member just registered is not in GET /auth/staff");
    await rest(server.baseUrl, token, "POST", "/api/createtask", { audio_id: wav.id, assigned_to: staffId });
    const sessionBrowser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox"] });
    const staffSession = await signedInSession(sessionBrowser, server.baseUrl, STAFF);
    await sessionBrowser.close();
    // The fake microphone plays a minute of speech-like sound in a loop.
    const microphone = path.join(dataDir, "microphone.wav");
    ffmpeg([...SOURCE(60, 48_000), "-ac", "1", "-c:a", "pcm_s16le", microphone]);
    console.log(`\nBrowser: a ${TAKE_MINUTES}-minute take with the fake microphone (Translated Audio, staff):`);
    const take = await takeInBrowser(server.baseUrl, staffSession, wav.id, microphone);
    console.log(`  Chromium's growth each minute: ${take.samples.join(", ")}`);
    console.log(`  during the take (peak) ${mb(take.duringMb)}; after Stop (peak) ${mb(take.afterStopMb)}`);
    checks.push([
      `Chromium grows by under 150 MB during the ${TAKE_MINUTES}-minute take (${mb(take.duringMb)}; after Stop ${mb(take.afterStopMb)})`,
      take.duringMb < 150 && take.afterStopMb < 150,
    ]);
  }

  console.log("\nTargets:");
  for (const [label, ok] of checks) console.log(`  ${verdicts.record(label, ok, ok ? "PASS" : "FAIL")}  ${label}`);
  verdicts.finish();
} finally {
  await browser?.close();
  if (server) await stopChild(server);
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
