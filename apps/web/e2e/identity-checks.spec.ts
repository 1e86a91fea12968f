// Decision 038, seen by an admin. With admins required to have a second factor, an admin who signs in
// with a password alone is held on 'Add a second factor': they set up an authenticator app there
// (the code otplib computes from the setup key shown, which also counts as their second factor for
// this session) and go on to the Dashboard. Later, with their last check over 10 minutes old, 'Start export' opens
// 'Confirm it's you' by itself; a recovery code confirms, focus returns to the button, and the export
// starts on the second press. The Profile lists the session and how it signed in. Keyboard only; axe.
import { expect } from "vitest";
import { decodeJwt } from "jose";
import type { Page } from "playwright-core";
import { totpCode } from "@tafsiri/api/testing/totp";
import { signSessionToken } from "@tafsiri/api/testing/services";
import { atPath, describeBrowser, screenshot, seen, submitSignIn, toast, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { focusArrives } from "./support/focus";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

describeBrowser("Admins' second factor and re-authentication", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let page: Page;
  let secret: string;
  let recoveryCodes: string[];

  step("an admin signed in with a password alone is held on 'Add a second factor'", async () => {
    suite.server.harness.deps.requireAdminSecondFactor = true;
    admin = await suite.server.createUser("Admin");
    page = await suite.newPage("admin");
    await page.goto("/signin");
    await submitSignIn(page, admin.email, admin.password);
    await atPath(page, "/settings/security-required");
    await seen(page.getByRole("heading", { name: "Add a second factor", level: 1 }));
    await screenshot(page, "identity-01-security-required");
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Nothing else answers: going to the Dashboard comes back here.
    await page.goto("/");
    await atPath(page, "/settings/security-required");
  });

  step("they set up an authenticator app there and go on", async () => {
    const section = page.getByRole("region", { name: "Two-factor authentication" });
    await section.getByRole("button", { name: "Set up an authenticator app" }).focus();
    await page.keyboard.press("Enter");
    secret = await section.getByRole("textbox", { name: "Or type this setup key into the app" }).inputValue();
    const codeField = section.getByRole("textbox", { name: "Code from the app" });
    await codeField.focus();
    await page.keyboard.type(await totpCode(secret));
    await page.keyboard.press("Enter");
    const list = page.getByRole("list", { name: "Recovery codes" });
    await seen(list);
    recoveryCodes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
    await page.getByRole("button", { name: "I have saved them" }).focus();
    await page.keyboard.press("Enter");

    // The code that turned the app on proved it: this session now counts as password and code.
    const go = page.getByRole("button", { name: "Continue to Tafsiri" });
    await go.focus();
    await page.keyboard.press("Enter");
    await atPath(page, "/");
    await seen(page.getByRole("heading", { level: 1 }));
  });

  step("an export more than 10 minutes after the last check asks to confirm; a recovery code does", async () => {
    // The stored token as it would be 11 minutes after its last check (the same session).
    const current = await page.evaluate(
      () => (JSON.parse(localStorage.getItem("tafsiri-session")!) as { token: string }).token,
    );
    const stale = await signSessionToken(
      suite.server.harness.deps.jwtSecret,
      { id: admin.id, role: "Admin", sessionVersion: 1 },
      undefined,
      { id: decodeJwt(current).sid as string, method: "password+totp", verifiedAt: new Date(Date.now() - 11 * 60_000) },
    );
    await page.evaluate((token) => {
      const session = JSON.parse(localStorage.getItem("tafsiri-session")!) as { token: string };
      localStorage.setItem("tafsiri-session", JSON.stringify({ ...session, token }));
    }, stale.token);
    await page.goto("/management/export");
    const start = page.getByRole("button", { name: "Start export" });
    await start.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Confirm it's you" });
    const field = dialog.getByRole("textbox", { name: "Code from your authenticator app, or a recovery code" });
    await seen(field);
    await screenshot(page, "identity-02-confirm-dialog");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await field.focus();
    await page.keyboard.type(recoveryCodes[0]!);
    await page.keyboard.press("Enter");
    await toast(page, /^Confirmed\./);
    await focusArrives(page, start);
    await page.keyboard.press("Enter");
    // The new export in the list, running or (with nothing to export) already ready.
    await seen(page.getByRole("status").filter({ hasText: /^Export (Running|Ready)$/ }));
    expect(await suite.server.harness.deps.db.selectFrom("exports").select("id").execute()).toHaveLength(1);
  });

  step("the Profile lists the session and how it signed in", async () => {
    await page.goto("/settings/profile");
    const sessions = page.getByRole("region", { name: "Your sessions" });
    await seen(sessions.getByText(/Password and authenticator code \(this session\)/));
    await screenshot(page, "identity-03-sessions");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
