import type { Browser } from "playwright-core";

/**
 * Signs `account` in through the web app's sign-in form at `baseURL` (in a context of its own, no
 * network emulation) and returns the session the app keeps in local storage (`tafsiri-session`,
 * apps/web/src/lib/session.ts), for benchmarks that open pages as a signed-in user.
 */
export async function signedInSession(
  browser: Browser,
  baseURL: string,
  account: { email: string; password: string },
): Promise<string> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: /^sign in$/i }).click();
  await page.waitForURL((url) => url.pathname.toLowerCase() !== "/signin");
  const session = await page.evaluate<string | null>('localStorage.getItem("tafsiri-session")');
  await context.close();
  if (!session) throw new Error(`Signing in as ${account.email} kept no session.`);
  return session;
}
