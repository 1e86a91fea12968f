import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { REPO_ROOT, startServer, type TestServer } from "./server";

/** Debian's Chromium; never a downloaded browser. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Set by .ci/run: a missing Chromium fails the browser tests instead of skipping them. */
const BROWSER_REQUIRED = process.env.REQUIRE_BROWSER === "1";
/** Screenshots of key steps and of failures. */
export const RESULTS_DIR = path.join(REPO_ROOT, "test-results", "e2e");
/** How long a locator waits for what a user should see (ms); the machine is small and shared. */
const STEP_TIMEOUT_MS = 20_000;

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

function missingChromiumMessage(): string {
  return `no Chromium at ${CHROMIUM_PATH} (install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH)`;
}

/**
 * describe() for a browser spec. Without Chromium the suite is skipped with a loud banner,
 * unless REQUIRE_BROWSER=1, where it runs and fails in its beforeAll (launchChromium throws).
 */
export function describeBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM_PATH) || BROWSER_REQUIRED) {
    describe(name, body);
    return;
  }
  const bar = "!".repeat(72);
  console.warn(`\n${bar}\n!! BROWSER TESTS SKIPPED (${name}): ${missingChromiumMessage()}.\n${bar}\n`);
  describe.skip(name, body);
}

/**
 * Launches headless Chromium with LAUNCH_ARGS and `extraArgs` after them (e.g. a fake microphone,
 * see fakeMicrophoneArgs); throws a clear error when it is missing.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Browser tests required (REQUIRE_BROWSER=1) but there is ${missingChromiumMessage()}.`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...LAUNCH_ARGS, ...extraArgs] });
}

let sharedBrowser: Promise<Browser> | undefined;

/**
 * The worker's Chromium with LAUNCH_ARGS, launched on first use and kept for every later spec file
 * of the same worker (vitest runs files with `isolate: false`, so this module outlives a file):
 * a launch costs about a second, a new context a few milliseconds. Each spec still gets fresh
 * contexts, so no cookie, storage or cache passes from one file to the next. Relaunched when the
 * browser has gone away; Playwright closes it when the worker exits.
 */
async function workerChromium(): Promise<Browser> {
  const current = await sharedBrowser?.catch(() => undefined);
  if (current?.isConnected()) return current;
  sharedBrowser = launchChromium();
  return sharedBrowser;
}

/**
 * Chromium flags for a fake microphone that plays `wavFile` (16-bit PCM WAV) in a loop, with every
 * camera and microphone request granted without a prompt (the recording test, decision 018).
 */
export function fakeMicrophoneArgs(wavFile: string): string[] {
  return [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${wavFile}`,
  ];
}

/** How a spec's browser is launched (useBrowserSuite). */
export interface BrowserSuiteOptions {
  /** Chromium flags added to the usual ones (e.g. fakeMicrophoneArgs); none by default. */
  launchArgs?: readonly string[];
}

function slug(text: string): string {
  return text
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase()
    .slice(0, 120);
}

/** Saves a full-page screenshot as test-results/e2e/{name}.png; start `name` with the spec's name. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS_DIR, `${slug(name)}.png`), fullPage: true });
}

/** "apps/web/e2e/core-flow.spec.ts" → "core-flow": the prefix of that spec's screenshots. */
function specName(file: string): string {
  return path.basename(file, ".spec.ts");
}

/** Removes the screenshots of an earlier run of the spec, so none is mistaken for this run's. */
function clearScreenshots(spec: string): void {
  if (!existsSync(RESULTS_DIR)) return;
  for (const name of readdirSync(RESULTS_DIR)) {
    if (name.startsWith(`${spec}-`) && name.endsWith(".png")) rmSync(path.join(RESULTS_DIR, name));
  }
}

export interface BrowserSuite {
  /** The real server of this spec file (started in beforeAll). */
  readonly server: TestServer;
  /**
   * A page in a new browser context (its own local storage, so its own session), 1440x900,
   * opened at nothing; `label` names its failure screenshots. A new page with the same label
   * closes the earlier one; the rest close with the suite.
   */
  newPage(label: string): Promise<Page>;
}

/**
 * Registers the hooks of a browser spec file: a fresh server in beforeAll, and the worker's
 * Chromium (or, with `options.launchArgs`, a Chromium of the file's own with those flags added);
 * every browser context the file opened, its own Chromium and the server are closed in afterAll.
 * On every failed test it saves a screenshot of each open page plus the page's console errors.
 * Call once inside describeBrowser().
 */
export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  const ownBrowser = (options.launchArgs?.length ?? 0) > 0;
  const pages = new Map<string, { page: Page; errors: string[] }>();

  beforeAll(async ({}, suite) => {
    clearScreenshots(specName(suite.file.name));
    [browser, server] = await Promise.all([
      ownBrowser ? launchChromium(options.launchArgs) : workerChromium(),
      startServer(),
    ]);
  });
  afterAll(async () => {
    if (ownBrowser) await browser?.close();
    else await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
    await server?.close();
  });
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(async () => {
      for (const [label, { page, errors }] of pages) {
        if (page.isClosed()) continue;
        await screenshot(page, `${specName(task.file.name)}--${task.name}--${label}--failed`).catch(() => undefined);
        if (errors.length > 0) console.warn(`Browser console errors (${label}):\n  ${errors.slice(-20).join("\n  ")}`);
      }
    });
  });

  return {
    get server() {
      if (!server) throw new Error("The test server is not running (beforeAll failed).");
      return server;
    },
    async newPage(label) {
      if (!browser || !server) throw new Error("The browser is not running (beforeAll failed).");
      await pages.get(label)?.page.context().close();
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: server.baseURL });
      context.setDefaultTimeout(STEP_TIMEOUT_MS);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      pages.set(label, { page, errors });
      return page;
    },
  };
}

/** Waits until `locator` is visible (what a user sees), failing after the step timeout. */
export async function seen(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: "visible" });
  return locator.first();
}

/** A toast (sonner) showing `text`, waited for until visible. */
export async function toast(page: Page, text: string | RegExp): Promise<Locator> {
  return seen(page.locator("[data-sonner-toast]").filter({ hasText: text }));
}

/**
 * Closes every toast with its close button, as a user would, and waits until none is left, with the
 * pointer moved away: toasts stack over the bottom-right corner of the page and would otherwise
 * take the click meant for a button under them. (Waiting for them to close by themselves, SPEC §9's
 * 4 s, cost the suite minutes; spec-wording.spec.ts checks that they do.)
 */
export async function toastsGone(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    for (const button of document.querySelectorAll<HTMLButtonElement>("[data-sonner-toast] [data-close-button]")) {
      button.click();
    }
  });
  await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached" });
}

/** Waits until the page's path equals `pathname` (case-insensitive, as the router matches). */
export async function atPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname.toLowerCase() === pathname.toLowerCase());
}

/** Fills and submits the sign-in form already on screen. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: /^sign in$/i }).click();
}

/** Signs in through the real sign-in form and waits until the app has left /signin. */
export async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto("/signin");
  await submitSignIn(page, user.email, user.password);
  await page.waitForURL((url) => url.pathname.toLowerCase() !== "/signin");
}

/** Marks the page's window, so that notReloaded can later tell the page was never reloaded. */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { tafsiriNotReloaded: true }));
}

/** Whether the page still has the window markWindow marked (no reload or navigation away since). */
export async function notReloaded(page: Page): Promise<boolean> {
  return page.evaluate(() => "tafsiriNotReloaded" in window);
}

/** Waits until no 'Loading …' placeholder is left on the page (lists, panels, dialogs). */
export async function loadingDone(page: Page): Promise<void> {
  await page
    .getByText(/^Loading\b.*…$/)
    .first()
    .waitFor({ state: "detached" });
}

/** Makes `audioId` the current audio of the audio-management screens (SPEC §2.1), or none with null. */
export async function selectAudio(page: Page, audioId: string | null): Promise<void> {
  await page.evaluate((id) => {
    const key = "tafsiri-current-audio";
    if (id === null) localStorage.removeItem(key);
    else localStorage.setItem(key, id);
  }, audioId);
}
