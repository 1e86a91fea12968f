// Decision 038, passkeys. With Chromium's virtual authenticator (the DevTools protocol's WebAuthn
// domain: CTAP2, internal, resident keys, user verification), a staff member adds a passkey on the
// Profile page, signs out and signs in with it, through the email field's suggestion and with
// 'Sign in with a passkey' (no email, no password typed), sees its last use, and removes it behind
// a confirmation; the authenticator's copy then signs in no more, and says why. Keyboard only; axe finds nothing serious. The app is opened at http://localhost:{port}: a
// passkey is bound to a domain, not an IP address (the server's WEBAUTHN_RP_ID is localhost).
import { expect } from "vitest";
import type { CDPSession, Page } from "playwright-core";
import { describeBrowser, screenshot, seen, submitSignIn, toast, toastsGone, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

/** Set in local storage, the page's browser offers no passkeys among the email field's suggestions. */
const NO_AUTOFILL = "e2e-no-passkey-autofill";

describeBrowser("Passkeys: added, used to sign in without a password, removed", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  /** http://localhost:{port}: the same server as baseURL, at the relying party's domain. */
  let origin: string;
  /** The virtual authenticator's signature counter before a sign-in. */
  let signCount: number;

  const credentials = async () =>
    (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials as Array<{
      isResidentCredential: boolean;
      signCount: number;
    }>;

  /** Presses Enter on `name`'s button, reached by focus as the keyboard would. */
  const pressButton = async (name: string | RegExp) => {
    await page.getByRole("button", { name }).focus();
    await page.keyboard.press("Enter");
  };

  const signOut = async () => {
    await pressButton(/User menu/);
    await seen(page.getByRole("menuitem", { name: "Sign Out" }));
    await page.getByRole("menuitem", { name: "Sign Out" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname.toLowerCase() === "/signin");
  };

  step("a staff member adds a passkey on the Profile page", async () => {
    staff = await suite.server.createUser("Staff");
    origin = suite.server.baseURL.replace("127.0.0.1", "localhost");
    page = await suite.newPage("staff");
    cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    ({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
    // A browser without the email field's passkey suggestions, when the spec asks for one.
    await page.context().addInitScript((key) => {
      if (localStorage.getItem(key)) PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    }, NO_AUTOFILL);
    await page.goto(`${origin}/signin`);
    await submitSignIn(page, staff.email, staff.password);
    await page.waitForURL((url) => url.pathname.toLowerCase() !== "/signin");
    await page.goto(`${origin}/settings/profile`);
    const section = page.getByRole("region", { name: "Passkeys" });
    await seen(section.getByText("You have no passkeys yet."));

    await page.getByLabel("Name of the new passkey").focus();
    await page.keyboard.type("Virtual key");
    await pressButton("Add a passkey");
    await toast(page, "Passkey 'Virtual key' added.");
    const row = page.getByRole("region", { name: "Your passkeys" }).getByRole("row", { name: /Virtual key/ });
    await seen(row);
    await seen(row.getByText("Never"));
    expect(await credentials()).toEqual([expect.objectContaining({ isResidentCredential: true })]);
    await screenshot(page, "passkeys-profile");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await toastsGone(page);
  });

  step("signs out, and the email field's passkey suggestion signs in: nothing typed", async () => {
    signCount = (await credentials())[0]!.signCount;
    await signOut();
    // Chromium's virtual authenticator answers the email field's waiting request (conditional
    // mediation) at once, as choosing the suggested passkey would.
    await page.waitForURL((url) => url.pathname.toLowerCase() === "/audios");
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem("tafsiri-session") ?? "null") as unknown);
    expect(session).toMatchObject({ _id: staff.id, username: staff.username, role: "Staff" });
    expect((await credentials())[0]!.signCount).toBeGreaterThan(signCount);
    signCount = (await credentials())[0]!.signCount;
  });

  step("in a browser without suggestions, 'Sign in with a passkey' signs in: no email, no password", async () => {
    await page.evaluate((key) => localStorage.setItem(key, "1"), NO_AUTOFILL);
    await page.reload();
    await signOut();
    const password = page.getByLabel("Password", { exact: true });
    await seen(page.getByRole("button", { name: "Sign in with a passkey" }));
    expect(await page.getByLabel("Email", { exact: true }).getAttribute("autocomplete")).toBe("username webauthn");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await pressButton("Sign in with a passkey");
    await page.waitForURL((url) => url.pathname.toLowerCase() === "/audios");
    expect(await password.count()).toBe(0);
    expect((await credentials())[0]!.signCount).toBeGreaterThan(signCount);

    await page.goto(`${origin}/settings/profile`);
    const row = page.getByRole("region", { name: "Your passkeys" }).getByRole("row", { name: /Virtual key/ });
    await seen(row);
    expect(await row.getByText("Never").count()).toBe(0);
  });

  step("removes it behind a confirmation, focus moving on to 'Add a passkey'", async () => {
    await pressButton("Remove Virtual key");
    const dialog = page.getByRole("alertdialog", { name: "Remove 'Virtual key'?" });
    await seen(dialog);
    expect(await seriousAxeViolations(page, { include: ['[role="alertdialog"]'] })).toEqual([]);
    await dialog.getByRole("button", { name: "Remove" }).focus();
    await page.keyboard.press("Enter");
    await toast(page, "Passkey 'Virtual key' removed.");
    await seen(page.getByRole("region", { name: "Passkeys" }).getByText("You have no passkeys yet."));
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Add a passkey");
    await toastsGone(page);
  });

  step("the device's copy signs in no more, and a closed prompt says so plainly", async () => {
    await signOut();
    await pressButton("Sign in with a passkey");
    await toast(page, /This passkey is not registered here/);
    expect(new URL(page.url()).pathname.toLowerCase()).toBe("/signin");
    await toastsGone(page);

    // With no passkey on the device, the email field's request waits; the button aborts it, and
    // the browser's prompt ends without one.
    await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
    await page.evaluate((key) => localStorage.removeItem(key), NO_AUTOFILL);
    await page.reload();
    await pressButton("Sign in with a passkey");
    await seen(page.getByRole("status").filter({ hasText: "Passkey request cancelled." }));
    expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
