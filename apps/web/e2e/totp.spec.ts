// Decision 038, a second factor. A staff member opens Profile from the user menu and turns on an
// authenticator app: the QR code and the setup key are shown, a wrong code is refused beside its
// field, the code otplib computes from the key shown turns it on, and the 10 recovery codes are shown
// once (copy, download). Signed out, signing in with the password asks for the code next (a
// one-time-code field, focus in it); the app's code signs in; then a recovery code does; the same
// recovery code fails a second time. Keyboard only; axe finds nothing serious.
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { totpCode } from "@tafsiri/api/testing/totp";
import { SECOND_FACTOR_REQUIRED_MESSAGE, SECOND_FACTOR_WRONG_CODE } from "@tafsiri/domain";
import { atPath, describeBrowser, screenshot, seen, submitSignIn, toast, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { focusArrives } from "./support/focus";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

describeBrowser("Two-factor authentication: an authenticator app and recovery codes", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let page: Page;
  let secret: string;
  let recoveryCodes: string[];

  const nowSeconds = () => Math.floor(Date.now() / 1000);

  /** Opens the user menu from the keyboard and chooses `item`. */
  async function menu(item: string) {
    await page.getByRole("button", { name: /User menu/ }).focus();
    await page.keyboard.press("Enter");
    const entry = await seen(page.getByRole("menuitem", { name: item }));
    await entry.focus();
    await page.keyboard.press("Enter");
  }

  /** Signs out from the user menu, then signs in with the password: the code's step shows, focus in its field. */
  async function passwordStep() {
    await menu("Sign Out");
    await atPath(page, "/signin");
    await submitSignIn(page, staff.email, staff.password);
    await seen(page.getByRole("heading", { name: "Two-factor authentication" }));
    await seen(page.getByText(SECOND_FACTOR_REQUIRED_MESSAGE));
  }

  /** Types `code` into the focused code field and sends it with Enter. */
  async function sendCode(code: string) {
    await page.keyboard.type(code);
    await page.keyboard.press("Enter");
  }

  step("a staff member turns on an authenticator app from Profile; a wrong code is refused", async () => {
    staff = await suite.server.createUser("Staff");
    page = await suite.newPage("staff");
    await page.goto("/signin");
    await submitSignIn(page, staff.email, staff.password);
    await page.waitForURL((url) => url.pathname.toLowerCase() !== "/signin");
    await menu("Profile");
    await page.waitForURL((url) => url.pathname === "/settings/profile");
    const section = page.getByRole("region", { name: "Two-factor authentication" });
    await seen(section.getByText(/^Off\./));

    await section.getByRole("button", { name: "Set up an authenticator app" }).focus();
    await page.keyboard.press("Enter");
    await focusArrives(page, page.getByRole("heading", { name: "Set up your authenticator app" }));
    await seen(section.getByRole("img", { name: "QR code to scan with your authenticator app" }));
    secret = await section.getByRole("textbox", { name: "Or type this setup key into the app" }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, "totp-01-enrolment");
    expect(await seriousAxeViolations(page)).toEqual([]);

    const codeField = section.getByRole("textbox", { name: "Code from the app" });
    expect(await codeField.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await codeField.getAttribute("inputmode")).toBe("numeric");
    const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((s) => totpCode(secret, nowSeconds() + s))));
    const wrong = ["000000", "111111", "222222"].find((c) => !valid.has(c))!;
    await codeField.focus();
    await sendCode(wrong);
    await seen(section.getByRole("alert").filter({ hasText: SECOND_FACTOR_WRONG_CODE }));
    expect(await codeField.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await section.getByText(/^Off\./).count()).toBe(0); // still enrolling: nothing changed
  });

  step("the code otplib computes from the key shown turns it on; 10 recovery codes are shown once", async () => {
    const section = page.getByRole("region", { name: "Two-factor authentication" });
    const codeField = section.getByRole("textbox", { name: "Code from the app" });
    await codeField.fill("");
    await codeField.focus();
    await sendCode(await totpCode(secret));
    await toast(page, "Two-factor authentication is on. Save your recovery codes now: they are not shown again.");
    await focusArrives(page, page.getByRole("heading", { name: "Your recovery codes" }));
    const list = page.getByRole("list", { name: "Recovery codes" });
    recoveryCodes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const download = page.getByRole("link", { name: "Download .txt" });
    expect(await download.getAttribute("download")).toBe("tafsiri-recovery-codes.txt");
    expect(decodeURIComponent((await download.getAttribute("href"))!)).toContain(recoveryCodes.join("\n"));
    await screenshot(page, "totp-02-recovery-codes");
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "I have saved them" }).focus();
    await page.keyboard.press("Enter");
    expect(await list.count()).toBe(0);
    await seen(section.getByText("10 of 10 recovery codes left."));
    await page.reload();
    await seen(section.getByText("10 of 10 recovery codes left."));
    expect(await page.content()).not.toContain(recoveryCodes[0]);
  });

  step("signing in with the password asks for the code next; the app's code signs in", async () => {
    await passwordStep();
    const codeField = page.getByRole("textbox", { name: "Authentication code" });
    await focusArrives(page, codeField);
    expect(await codeField.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await codeField.getAttribute("inputmode")).toBe("numeric");
    await screenshot(page, "totp-03-sign-in-code");
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The next window's code: the enrolment used this window's (a code is accepted once).
    await sendCode(await totpCode(secret, nowSeconds() + 30));
    await atPath(page, "/Audios");
  });

  step("then a recovery code signs in, once: the same code fails a second time", async () => {
    await passwordStep();
    await page.getByRole("button", { name: "Use a recovery code" }).focus();
    await page.keyboard.press("Enter");
    const recoveryField = page.getByRole("textbox", { name: "Recovery code" });
    await focusArrives(page, recoveryField);
    await sendCode(recoveryCodes[0]!);
    await atPath(page, "/Audios");

    await passwordStep();
    await page.getByRole("button", { name: "Use a recovery code" }).focus();
    await page.keyboard.press("Enter");
    await focusArrives(page, recoveryField);
    await sendCode(recoveryCodes[0]!);
    await seen(page.getByRole("alert").filter({ hasText: SECOND_FACTOR_WRONG_CODE }));
    await focusArrives(page, recoveryField);
    await atPath(page, "/signin");
    await screenshot(page, "totp-04-recovery-code-refused");
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The Profile says one code was used.
    await recoveryField.focus();
    await sendCode(recoveryCodes[1]!);
    await atPath(page, "/Audios");
    await page.goto("/settings/profile");
    await seen(page.getByText("8 of 10 recovery codes left."));
  });
});
