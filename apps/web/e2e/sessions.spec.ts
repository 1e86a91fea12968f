// Decision 012, sessions in a real browser, with tokens made to last 6 s (SESSION_IDLE_DAYS'
// lifetime, shortened for the test). A tab being used renews its token before it expires and
// stays signed in and live past the first token's expiry without a reload; a tab nobody touches
// is renewed once (loading it is use) and then signed out when its token expires; Sign Out goes
// to / and on to /signin, remembering nothing.
import { afterAll, beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import { authenticateSession } from "../../../packages/api/src/services/auth";
import { atPath, describeBrowser, markWindow, notReloaded, seen, signIn, useBrowserSuite } from "./support/browser";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const LIFETIME_SECONDS = 6;
const SESSION_KEY = "tafsiri-session";

/** The session token a page holds, or null when it is signed out. */
async function storedToken(page: Page): Promise<string | null> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);
  return raw ? (JSON.parse(raw) as { token: string }).token : null;
}

/** The expiry (ms since the epoch) of a session token. */
function expiryOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { exp: number };
  return payload.exp * 1000;
}

describeBrowser("sessions: renewed while used, ended when idle", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let idle: TestUser;
  let page: Page;
  let firstToken: string;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    idle = await suite.server.createUser("Staff");
    suite.server.harness.deps.sessionLifetimeSeconds = LIFETIME_SECONDS;
  });
  afterAll(() => {
    delete suite.server.harness.deps.sessionLifetimeSeconds;
  });

  step("a tab in use gets a fresh token before its first one expires", async () => {
    page = await suite.newPage("staff");
    await signIn(page, staff);
    await atPath(page, "/Audios");
    await markWindow(page);
    firstToken = (await storedToken(page))!;
    await page.keyboard.press("Tab");
    await expect.poll(() => storedToken(page), { timeout: LIFETIME_SECONDS * 1000 }).not.toBe(firstToken);
    expect(expiryOf((await storedToken(page))!)).toBeGreaterThan(expiryOf(firstToken));
  });

  step("and stays signed in and live past the first token's expiry, without a reload", async () => {
    const { db, jwtSecret } = suite.server.harness.deps;
    // The user keeps working, and the tab renews its token each time it is due, until the server
    // refuses the first token: it has expired.
    let token = (await storedToken(page))!;
    while ((await authenticateSession(db, jwtSecret, firstToken)) !== null) {
      await page.mouse.move(10, 200);
      await page.mouse.down();
      await page.mouse.up();
      await expect.poll(() => storedToken(page), { timeout: LIFETIME_SECONDS * 1000 }).not.toBe(token);
      token = (await storedToken(page))!;
    }
    expect(Date.now()).toBeGreaterThanOrEqual(expiryOf(firstToken));
    expect(await authenticateSession(db, jwtSecret, token)).not.toBeNull();
    await atPath(page, "/Audios");
    const filename = "session-live";
    await seedAudio(suite.server, admin, { filename, assignTo: staff });
    await seen(page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename }));
    expect(await notReloaded(page)).toBe(true);
  });

  step("Sign Out goes to / and on to /signin, forgetting the session and the page it was on", async () => {
    await page.goto("/Recordings");
    await atPath(page, "/Recordings");
    await page.getByRole("button", { name: /User menu/ }).click();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await atPath(page, "/signin");
    expect(await storedToken(page)).toBeNull();
    // Nothing remembered: signing in again lands on the staff home, not on /Recordings.
    await signIn(page, staff);
    await atPath(page, "/Audios");
  });

  step("a tab nobody touches is signed out when its token expires", async () => {
    const idlePage = await suite.newPage("idle");
    await signIn(idlePage, idle);
    await atPath(idlePage, "/Audios");
    // Loading the page counts as use, so it is renewed once; then nothing renews it.
    await expect.poll(() => storedToken(idlePage), { timeout: LIFETIME_SECONDS * 1000 }).not.toBeNull();
    await idlePage.waitForURL((url) => url.pathname.toLowerCase() === "/signin", {
      timeout: 3 * LIFETIME_SECONDS * 1000,
    });
    expect(await storedToken(idlePage)).toBeNull();
  });
});
