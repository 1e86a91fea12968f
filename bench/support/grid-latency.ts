import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { ROOT, startChild, stopChild, type ChildServer } from "./child-process";
import { restSignIn } from "./rest-sign-in";
import { signedInSession } from "./signed-in-session";
import { summarize, type Summary } from "./stats";
import { silentWav } from "./wav";

/**
 * The segment grid in Chromium (decision 035): a real server (a child process, its embedded
 * PGlite in a fresh DATA_DIR) with one audio whose initial transcript has `segments` lines, assigned
 * to a staff member; headless Chromium (Debian's, 1440x900) opens its Translated Transcript screen
 * `opens` times (time from navigation to the grid showing its first row and 'N of M translated'),
 * then types `keys` characters into the first translation, a key each 40 ms, and reads each key's
 * latency from Chromium's Event Timing API (keydown to the next frame painted, 8 ms resolution).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SERVER_SCRIPT = path.join(ROOT, "apps/server/src/server.ts");
const ADMIN = { email: "grid-admin@example.test", username: "gridadmin", password: "Grid#2026-admin" };
const STAFF = { email: "grid-staff@example.test", username: "gridstaff", password: "Grid#2026-staff" };

/** What the grid measurement found. */
export interface GridLatency {
  segments: number;
  openMs: number[];
  keyLatency: Summary;
  keys: number;
}

async function rest(baseUrl: string, token: string, method: string, url: string, body?: FormData | object) {
  const form = body instanceof FormData;
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body && !form ? { "content-type": "application/json" } : {}) },
    body: form ? body : body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** An interview's initial transcript of `count` lines, INV and PAR in turn, four seconds apart. */
function interview(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * 4;
    const time = `[${Math.floor(at / 3600)}:${String(Math.floor(at / 60) % 60).padStart(2, "0")}:${String(at % 60).padStart(2, "0")}]`;
    lines.push(
      i % 2 === 0
        ? `${time} INV: tell me what you see going on in the picture number ${i}?`
        : `${time} PAR: well the boy is on the stool and the water runs over the sink ${i}.`,
    );
  }
  return lines.join("\n");
}

/** Seeds the audio, its transcript and its staff member through the REST paths; returns the audio id. */
async function seed(server: ChildServer, segments: number): Promise<string> {
  const token = await restSignIn(server.baseUrl, ADMIN);
  const upload = new FormData();
  upload.append("category", "Control");
  upload.append("file", new Blob([silentWav(16_000)], { type: "audio/wav" }), "grid-interview.wav");
  const { _id: audioId } = (await rest(server.baseUrl, token, "POST", "/api/audios/upload/AUDIO", upload)) as {
    _id: string;
  };
  const transcript = new FormData();
  transcript.append("audioId", audioId);
  transcript.append("file", new Blob([interview(segments)], { type: "text/plain" }), "grid-interview.txt");
  await rest(server.baseUrl, token, "POST", "/api/audios/upload/INITIAL_TRANSCRIPT", transcript);
  await rest(server.baseUrl, token, "POST", "/auth/register", {
    ...STAFF,
    role: "Staff",
    adminpassword: ADMIN.password,
  });
  const staff = (await rest(server.baseUrl, token, "GET", "/auth/staff")) as Array<{ _id: string; username: string }>;
  const staffId = staff.find((u) => u.username === STAFF.username)?._id;
  if (!staffId) throw new Error("the staff member just registered is not in GET /auth/staff");
  await rest(server.baseUrl, token, "POST", "/api/createtask", { audio_id: audioId, assigned_to: staffId });
  return audioId;
}

/** Opens the grid `opens` times and types `keys` characters; see the module's comment. */
async function measure(
  browser: Browser,
  baseURL: string,
  audioId: string,
  segments: number,
  opens: number,
  keys: number,
) {
  const session = await signedInSession(browser, baseURL, STAFF);
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  await context.addInitScript(
    `localStorage.setItem("tafsiri-session", ${JSON.stringify(session)});` +
      `localStorage.setItem("tafsiri-current-audio", ${JSON.stringify(audioId)});`,
  );
  const page = await context.newPage();
  const openMs: number[] = [];
  for (let i = 0; i < opens; i++) {
    const started = performance.now();
    await page.goto("/audiomanagement/trascript");
    await page.getByText(`0 of ${segments} translated`).waitFor({ timeout: 60_000 });
    await page.getByRole("textbox", { name: "Translation 1", exact: true }).waitFor({ timeout: 60_000 });
    openMs.push(performance.now() - started);
  }
  const field = page.getByRole("textbox", { name: "Translation 1", exact: true });
  await field.click();
  // Chromium's Event Timing API: each keydown's time from the key to the next frame painted.
  await page.evaluate(`
    window.keyLatencies = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name === "keydown") window.keyLatencies.push(entry.duration);
    }).observe({ type: "event", durationThreshold: 0, buffered: false });
  `);
  const text = "niambie kila kitu unachoona kwenye picha hiyo tafadhali sana ".repeat(4).slice(0, keys);
  await page.keyboard.type(text, { delay: 40 });
  await page.waitForTimeout(500);
  const latencies = await page.evaluate<number[]>("window.keyLatencies");
  await context.close();
  return { openMs, latencies };
}

/** Runs the whole measurement with a server and a browser of its own. */
export async function gridLatency(opts: { segments: number; opens: number; keys: number }): Promise<GridLatency> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-grid-bench-"));
  let server: ChildServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startChild(SERVER_SCRIPT, {
      DATA_DIR: path.join(dataDir, "server"),
      DATABASE_URL: undefined,
      JWT_SECRET: randomBytes(32).toString("hex"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    });
    const audioId = await seed(server, opts.segments);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    const { openMs, latencies } = await measure(browser, server.baseUrl, audioId, opts.segments, opts.opens, opts.keys);
    if (latencies.length === 0) throw new Error("Chromium reported no keydown event timings.");
    return { segments: opts.segments, openMs, keyLatency: summarize(latencies), keys: latencies.length };
  } finally {
    await browser?.close();
    if (server) await stopChild(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
