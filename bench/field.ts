/**
 * Field benchmark (decisions 020 and 021): the app as a staff member on a slow, flaky mobile link gets it.
 *
 * One run starts the real server (`tsx apps/server/src/server.ts`, fresh DATA_DIR, its embedded
 * PGlite or a fresh temporary database on DATABASE_URL's server) serving the built web app, and
 * headless Chromium (Debian's, through playwright-core) and measures:
 *  - page loads on "Fast 3G" (CDP Network.emulateNetworkConditions:
 *    1.6 Mbit/s down, 750 kbit/s up, 150 ms latency): the first load of /signin in a fresh browser
 *    context (empty cache) until the Sign in button shows, and a repeat load in the same context;
 *    then the first load of /Audios (the staff member's task cards) in a fresh context that is
 *    already signed in, and a repeat. Time is from navigation to the page's content shown; bytes
 *    are what crossed the wire (CDP encodedDataLength of every response, headers included); a
 *    repeat counts the hashed assets (/assets/…) fetched again from the network;
 *  - a 100 MB audio uploaded through the Single upload form (a resumable upload) via a local TCP
 *    proxy that passes 2 MB/s from the browser (apps/web/e2e/support/cutting-proxy.ts): once
 *    uncut, once with every connection cut every 15 s; time from pressing Upload to the success
 *    toast.
 * Targets: first /signin under 1.5 s and under 200 KiB on the wire; a repeat visit fetches no
 * hashed asset again; the cut upload takes at most 1.5x the uncut one. Prints PASS or FAIL per
 * line and exits 1 when one fails. KiB and MB are 2^10 and 2^20 bytes.
 *
 * `npm run bench` builds the web app first when it is missing or out of date.
 * Usage: npm run bench -- field [--upload-mb 100] [--cut-every-s 15]
 * CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startCuttingProxy } from "../apps/web/e2e/support/cutting-proxy";
import { wholeNumber } from "./support/args";
import { benchDatabase } from "./support/bench-database";
import { signedInSession } from "./support/signed-in-session";
import { ROOT, startChild, stopChild, type ChildServer } from "./support/child-process";
import { writeWavFile } from "./support/wav-file";

const { values } = parseArgs({
  options: {
    "upload-mb": { type: "string", default: "100" },
    "cut-every-s": { type: "string", default: "15" },
  },
});
const UPLOAD_MB = wholeNumber("upload-mb", values["upload-mb"], 1);
const CUT_EVERY_S = wholeNumber("cut-every-s", values["cut-every-s"], 1);

const MB = 1024 * 1024;
const KIB = 1024;
const PROXY_BYTES_PER_SECOND = 2 * MB;
const FAST_3G = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};
const ADMIN = { email: "field-admin@example.test", username: "fieldadmin", password: "Field#2026-admin" };
const STAFF = { email: "field-staff@example.test", username: "fieldstaff", password: "Field#2026-staff" };
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SERVER_SCRIPT = path.join(ROOT, "apps/server/src/server.ts");

/** One page load: how long, how many bytes, how many hashed assets came from the network. */
interface Load {
  ms: number;
  bytes: number;
  assetsFetched: number;
}

/** Loads `url` in `page` under Fast 3G until `ready` resolves, counting what came over the wire. */
async function measureLoad(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", FAST_3G);
  let bytes = 0;
  let assetsFetched = 0;
  const assetRequests = new Set<string>();
  cdp.on("Network.requestWillBeSent", (event: { requestId: string; request: { url: string } }) => {
    if (new URL(event.request.url).pathname.startsWith("/assets/")) assetRequests.add(event.requestId);
  });
  // A hashed asset answered by the cache alone moves no byte; one fetched (or revalidated: a 304) does.
  cdp.on("Network.loadingFinished", (event: { requestId: string; encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    if (assetRequests.has(event.requestId) && event.encodedDataLength > 0) assetsFetched += 1;
  });
  const started = performance.now();
  await page.goto(url);
  await ready(page);
  const ms = performance.now() - started;
  await cdp.detach();
  return { ms, bytes, assetsFetched };
}

async function newContext(browser: Browser, baseURL: string, session?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL });
  context.setDefaultTimeout(120_000);
  if (session) {
    // A signed-in visitor: the session the app keeps in local storage (lib/session.ts).
    await context.addInitScript(
      `if (!localStorage.getItem("tafsiri-session")) localStorage.setItem("tafsiri-session", ${JSON.stringify(session)});`,
    );
  }
  return context;
}

/** Creates the staff account through `POST /auth/register`. */
async function seedStaff(baseUrl: string, adminToken: string): Promise<void> {
  const res = await fetch(`${baseUrl}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ ...STAFF, role: "Staff", adminpassword: ADMIN.password }),
  });
  if (!res.ok) throw new Error(`POST /auth/register answered ${res.status}: ${await res.text()}`);
}

/** Uploads `file` through the Single upload form of the page at `baseURL`; returns seconds to the success toast. */
async function uploadThroughForm(
  browser: Browser,
  baseURL: string,
  session: string,
  file: string,
  onStart: () => void = () => undefined,
) {
  const context = await newContext(browser, baseURL, session);
  const page = await context.newPage();
  page.on("crash", () => console.error("  the page crashed"));
  page.on("pageerror", (error) => console.error(`  page error: ${String(error)}`));
  await page.goto("/management/upload");
  const single = page.getByRole("region", { name: "Single upload" });
  await single.getByLabel("Category").selectOption("Control");
  await single.getByLabel("Audio file").setInputFiles(file);
  const started = performance.now();
  onStart();
  await single.getByRole("button", { name: "Upload", exact: true }).click();
  const toast = page.locator("[data-sonner-toast]").first();
  await page
    .locator("[data-sonner-toast]")
    .filter({ hasText: /has been uploaded successfully\.|Failed to upload/ })
    .first()
    .waitFor({ state: "visible", timeout: 30 * 60_000 });
  const said = (await toast.textContent()) ?? "";
  if (!said.includes("has been uploaded successfully.")) throw new Error(`The upload failed: ${said}`);
  const seconds = (performance.now() - started) / 1000;
  await context.close();
  return seconds;
}

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;

const db = await benchDatabase(process.env.DATABASE_URL);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-field-"));
const children: ChildServer[] = [];
let browser: Browser | undefined;
const failures: string[] = [];
try {
  console.log(
    `Database: ${db.label}; Chromium ${CHROMIUM}; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  const server = await startChild(SERVER_SCRIPT, {
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    MAX_UPLOAD_BYTES: String((UPLOAD_MB + 16) * MB),
  });
  children.push(server);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });

  // Page loads on Fast 3G.
  console.log("\nPage loads on Fast 3G (1.6 Mbit/s down, 750 kbit/s up, 150 ms latency), 390x844:");
  const signinContext = await newContext(browser, server.baseUrl);
  const signinPage = await signinContext.newPage();
  const signInShown = (page: Page) => page.getByRole("button", { name: /^sign in$/i }).waitFor({ state: "visible" });
  const firstSignin = await measureLoad(signinPage, "/signin", signInShown);
  const repeatSignin = await measureLoad(signinPage, "/signin", signInShown);
  await signinContext.close();

  const adminSession = await signedInSession(browser, server.baseUrl, ADMIN);
  await seedStaff(server.baseUrl, (JSON.parse(adminSession) as { token: string }).token);
  const staffSession = await signedInSession(browser, server.baseUrl, STAFF);
  const audiosContext = await newContext(browser, server.baseUrl, staffSession);
  const audiosPage = await audiosContext.newPage();
  // The Tasks page has loaded its cards (here: none yet) once 'No tasks' shows.
  const tasksShown = (page: Page) => page.getByText("No tasks", { exact: true }).waitFor({ state: "visible" });
  const firstAudios = await measureLoad(audiosPage, "/Audios", tasksShown);
  const repeatAudios = await measureLoad(audiosPage, "/Audios", tasksShown);
  await audiosContext.close();

  const line = (label: string, load: Load) =>
    `  ${label.padEnd(18)} ${`${Math.round(load.ms)} ms`.padStart(9)} ${kib(load.bytes).padStart(12)}   hashed assets fetched: ${load.assetsFetched}`;
  console.log(line("/signin first", firstSignin));
  console.log(line("/signin repeat", repeatSignin));
  console.log(line("/Audios first", firstAudios));
  console.log(line("/Audios repeat", repeatAudios));
  const checks: Array<[string, boolean]> = [
    [`first /signin under 1.5 s (${Math.round(firstSignin.ms)} ms)`, firstSignin.ms < 1500],
    [`first /signin under 200 KiB on the wire (${kib(firstSignin.bytes)})`, firstSignin.bytes < 200 * KIB],
    [
      `a repeat visit fetches no hashed asset again (/signin ${repeatSignin.assetsFetched}, /Audios ${repeatAudios.assetsFetched})`,
      repeatSignin.assetsFetched === 0 && repeatAudios.assetsFetched === 0,
    ],
  ];

  // The 100 MB upload, uncut and cut.
  // Two names for the same bytes: each upload is a new audio, named after its file.
  const uncutFile = path.join(dataDir, "field_uncut.wav");
  const cutFile = path.join(dataDir, "field_cut.wav");
  await writeWavFile(uncutFile, UPLOAD_MB * MB);
  linkSync(uncutFile, cutFile);
  const { hostname, port } = new URL(server.baseUrl);
  const proxy = await startCuttingProxy(
    { host: hostname, port: Number(port) },
    { upstreamBytesPerSecond: PROXY_BYTES_PER_SECOND },
  );
  try {
    console.log(`\n${UPLOAD_MB} MB upload (resumable) through a proxy passing 2 MB/s from the browser:`);
    const uncut = await uploadThroughForm(browser, proxy.url, adminSession, uncutFile);
    console.log(`  uncut                      ${uncut.toFixed(1)} s`);
    const cutsBefore = proxy.cuts;
    const cut = await uploadThroughForm(browser, proxy.url, adminSession, cutFile, () =>
      proxy.cutEvery(CUT_EVERY_S * 1000),
    );
    proxy.cutEvery(0);
    console.log(
      `  cut every ${CUT_EVERY_S} s (${proxy.cuts - cutsBefore} cuts)`.padEnd(29) +
        `${cut.toFixed(1)} s   ratio ${(cut / uncut).toFixed(2)}x`,
    );
    checks.push([`the cut upload takes at most 1.5x the uncut one (${(cut / uncut).toFixed(2)}x)`, cut <= uncut * 1.5]);
  } finally {
    await proxy.close();
  }

  console.log("\nTargets:");
  for (const [label, ok] of checks) {
    console.log(`  ${verdict(ok)}  ${label}`);
    if (!ok) failures.push(label);
  }
  console.log(
    `Load average after: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await browser?.close();
  for (const child of children) await stopChild(child);
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failures.length > 0 ? 1 : 0);
