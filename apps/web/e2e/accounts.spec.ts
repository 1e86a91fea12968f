// SPEC §2.10, §4, §5, §8, decision 012: the Accounts page and sessions that can be ended,
// in a real browser. With nobody but the admin the create panel opens by itself; the admin creates
// a staff account in the side panel (a weak password refused with the toast, then a strong one
// accepted), the card appears; edits it; the staff member signs in in a second browser context;
// the filter shows them under Staff / Active; deactivating them (after a confirmation) shows
// Inactive on the card and signs the staff tab out within 2 s, and they cannot sign in;
// reactivated, their old token stays refused and a new sign-in works; 'Sign out everywhere' signs
// their open tab out. axe finds nothing serious.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  atPath,
  describeBrowser,
  screenshot,
  seen,
  signIn,
  submitSignIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

/** The web app's local-storage key of the session (SPEC §3). */
const SESSION_KEY = "tafsiri-session";

/** The session token a page holds, or null when it is signed out. */
async function storedToken(page: Page): Promise<string | null> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);
  return raw ? (JSON.parse(raw) as { token: string }).token : null;
}

/** Waits until `page` has been signed out and shows /signin; answers how long that took after `since` (ms). */
async function signedOutAfter(page: Page, since: number): Promise<number> {
  await page.waitForURL((url) => url.pathname.toLowerCase() === "/signin", { timeout: 5_000 });
  const took = Date.now() - since;
  expect(await storedToken(page)).toBeNull();
  return took;
}

const NEW_USER = { username: "zawadi", email: "zawadi@example.test" };
const WEAK = "weakpass";
const STRONG = "Zaw4di!Strong";
const EDITED = { username: "zawadi.k", email: "zawadi.k@example.test" };

/** The list of account cards. */
const cardList = (page: Page): Locator => page.getByRole("list", { name: /^Accounts/ });

/** The card of `username` (its heading is the username, followed by '(You)' on the admin's own card). */
function card(page: Page, username: string): Locator {
  return cardList(page)
    .getByRole("listitem")
    .filter({
      has: page.getByRole("heading", { name: new RegExp(`^${username.replace(/\./g, "\\.")}( \\(You\\))?$`) }),
    });
}

/** The open side panel (create or edit). */
const panel = (page: Page, title: string): Locator => page.getByRole("dialog", { name: title });

describeBrowser("accounts: create, edit, filter, deactivate", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let page: Page;
  let staffPage: Page;
  let oldToken: string | null = null;

  /** The answer status of GET /auth/profile/{id} of the staff member with `token`. */
  const profileStatus = async (token: string | null): Promise<number> => {
    const id = (
      await suite.server.harness.deps.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", EDITED.email)
        .executeTakeFirstOrThrow()
    ).id;
    const res = await fetch(`${suite.server.baseURL}/auth/profile/${id}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return res.status;
  };

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin", { username: "admin-amina" });
  });

  step("with nobody but the admin, the create panel opens by itself", async () => {
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.goto("/accounts/users");
    const create = await seen(panel(page, "Create new account"));
    // The modal panel hides the page from the accessibility tree, the heading included.
    await seen(page.getByRole("heading", { name: "ACCOUNTS", level: 1, includeHidden: true }));
    expect(await create.getByLabel("Role").inputValue()).toBe("Staff");
    await screenshot(page, "accounts-01-auto-open");
    expect(await seriousAxeViolations(page, { include: ['[role="dialog"]'] })).toEqual([]);
    await page.keyboard.press("Escape");
    await create.waitFor({ state: "detached" });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("validates on every change, refuses a weak password with the toast, accepts a strong one", async () => {
    const opener = page.getByRole("button", { name: "Add Account" });
    await opener.click();
    const create = await seen(panel(page, "Create new account"));
    const username = create.getByLabel("Username");
    await username.fill("x");
    await username.fill("");
    await seen(create.getByText("Username is required", { exact: true }));
    await username.fill(NEW_USER.username);
    expect(await create.getByText("Username is required", { exact: true }).count()).toBe(0);
    await create.getByLabel("Email").fill(NEW_USER.email);
    await create.getByLabel("Password", { exact: true }).fill(WEAK);
    await seen(create.getByText("Weak", { exact: true }));
    await create.getByRole("button", { name: "Create Account" }).click();
    await seen(create.getByText("Admin password is required", { exact: true }));
    await create.getByLabel("Your admin password").fill(admin.password);
    await create.getByRole("button", { name: "Create Account" }).click();
    await toast(page, "Password is weak");
    await seen(page.locator("[data-sonner-toast]").filter({ hasText: "at least 8 characters long" }));
    await screenshot(page, "accounts-02-weak-password");
    // Which password reads Weak, Moderate or Strong: packages/domain/test/password-rules.test.ts.
    await create.getByLabel("Password", { exact: true }).fill(STRONG);
    await seen(create.getByText("Strong", { exact: true }));
    await toastsGone(page);
    await create.getByRole("button", { name: "Create Account" }).click();
    await toast(page, `Account for ${NEW_USER.username} has been created successfully`);
    await create.waitFor({ state: "detached" });
    // Focus is back on the button that opened the panel.
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    const newCard = await seen(card(page, NEW_USER.username));
    await seen(newCard.getByText(NEW_USER.email, { exact: true }));
    await seen(newCard.getByText("Staff", { exact: true }));
    await seen(newCard.getByText("Active", { exact: true }));
    await seen(newCard.getByText("ZA", { exact: true }));
    expect(await newCard.getByRole("link", { name: "Send Email" }).getAttribute("href")).toBe(
      `mailto:${NEW_USER.email}`,
    );
    await screenshot(page, "accounts-03-created");
    await toastsGone(page);
  });

  step("refuses a wrong admin password without signing the admin out", async () => {
    await card(page, NEW_USER.username).getByRole("button", { name: "Edit Profile" }).click();
    const edit = await seen(panel(page, "Edit account"));
    await edit.getByLabel("Your admin password").fill("Wr0ng!password");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Failed to edit user account");
    await seen(page.locator("[data-sonner-toast]").filter({ hasText: "Admin password is incorrect." }));
    await atPath(page, "/accounts/users");
    await page.keyboard.press("Escape");
    await edit.waitFor({ state: "detached" });
    await toastsGone(page);
  });

  step("edits the account (password left empty)", async () => {
    const opener = card(page, NEW_USER.username).getByRole("button", { name: "Edit Profile" });
    await opener.click();
    const edit = await seen(panel(page, "Edit account"));
    expect(await edit.getByLabel("Username").inputValue()).toBe(NEW_USER.username);
    await edit.getByLabel("Username").fill(EDITED.username);
    await edit.getByLabel("Email").fill(EDITED.email);
    await edit.getByLabel("Your admin password").fill(admin.password);
    expect(await seriousAxeViolations(page, { include: ['[role="dialog"]'] })).toEqual([]);
    await screenshot(page, "accounts-04-edit");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, `Account for ${EDITED.username} has been edited successfully`);
    await edit.waitFor({ state: "detached" });
    const edited = await seen(card(page, EDITED.username));
    await seen(edited.getByText(EDITED.email, { exact: true }));
    await toastsGone(page);
  });

  step("the staff member signs in in a second browser context", async () => {
    staffPage = await suite.newPage("new-user");
    await signIn(staffPage, { email: EDITED.email, password: STRONG });
    await atPath(staffPage, "/Audios");
    oldToken = await storedToken(staffPage);
    expect(oldToken).not.toBeNull();
  });

  step("the filter shows it under Staff / Active and not under Admin", async () => {
    await page.getByRole("button", { name: /^Filter/ }).click();
    const menu = await seen(page.getByRole("dialog", { name: "Filter accounts" }));
    await menu.getByRole("radio", { name: "Staff", exact: true }).check();
    await menu.getByRole("radio", { name: "Active", exact: true }).check();
    await screenshot(page, "accounts-05-filter-menu");
    await menu.getByRole("button", { name: "Apply" }).click();
    await seen(page.getByRole("button", { name: "Filter: Staff, Active" }));
    await seen(card(page, EDITED.username));
    await card(page, admin.username).waitFor({ state: "detached" });
    await page.getByRole("button", { name: /^Filter/ }).click();
    const again = await seen(page.getByRole("dialog", { name: "Filter accounts" }));
    await again.getByRole("radio", { name: "Admin", exact: true }).check();
    await again.getByRole("button", { name: "Apply" }).click();
    await seen(page.getByRole("button", { name: "Filter: Admin, Active" }));
    await seen(card(page, admin.username));
    await card(page, EDITED.username).waitFor({ state: "detached" });
    await page.getByRole("button", { name: /^Filter/ }).click();
    await (
      await seen(page.getByRole("dialog", { name: "Filter accounts" }))
    )
      .getByRole("button", { name: "Clear" })
      .click();
    await seen(page.getByRole("button", { name: "Filter", exact: true }));
    await seen(card(page, admin.username));
    await seen(card(page, EDITED.username));
  });

  step("deactivating (after a confirmation) shows Inactive and signs the staff tab out within 2 s", async () => {
    const target = card(page, EDITED.username);
    await target.getByRole("button", { name: "Deactivate" }).click();
    const confirm = await seen(page.getByRole("alertdialog", { name: `Deactivate ${EDITED.username}?` }));
    await screenshot(page, "accounts-06-confirm");
    const clicked = Date.now();
    await confirm.getByRole("button", { name: "Deactivate" }).click();
    expect(await signedOutAfter(staffPage, clicked)).toBeLessThan(2_000);
    await toast(page, `Account for ${EDITED.username} has been deactivated.`);
    await seen(target.getByText("Inactive", { exact: true }));
    await seen(target.getByRole("button", { name: "Activate" }));
    await toastsGone(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "accounts-07-inactive");

    await submitSignIn(staffPage, EDITED.email, STRONG);
    await toast(staffPage, "Login Failed");
    expect(new URL(staffPage.url()).pathname).toBe("/signin");
    await toastsGone(staffPage);
  });

  step("reactivated, the old token stays refused and a new sign-in works", async () => {
    const target = card(page, EDITED.username);
    await target.getByRole("button", { name: "Activate" }).click();
    const confirm = await seen(page.getByRole("alertdialog", { name: `Activate ${EDITED.username}?` }));
    await confirm.getByRole("button", { name: "Activate" }).click();
    await toast(page, `Account for ${EDITED.username} has been activated.`);
    await seen(target.getByText("Active", { exact: true }));
    await toastsGone(page);

    expect(await profileStatus(oldToken)).toBe(401);
    await submitSignIn(staffPage, EDITED.email, STRONG);
    await atPath(staffPage, "/Audios");
    const newToken = await storedToken(staffPage);
    expect(newToken).not.toBe(oldToken);
    expect(await profileStatus(newToken)).toBe(200);
  });

  step("'Sign out everywhere' (after a confirmation) signs the open staff tab out", async () => {
    const opener = card(page, EDITED.username).getByRole("button", { name: "Sign out everywhere" });
    await opener.click();
    const confirm = await seen(page.getByRole("alertdialog", { name: `Sign ${EDITED.username} out everywhere?` }));
    expect(await seriousAxeViolations(page, { include: ['[role="alertdialog"]'] })).toEqual([]);
    await screenshot(page, "accounts-08-sign-out-everywhere");
    const token = await storedToken(staffPage);
    const clicked = Date.now();
    await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
    expect(await signedOutAfter(staffPage, clicked)).toBeLessThan(2_000);
    await toast(page, `${EDITED.username} has been signed out everywhere.`);
    await confirm.waitFor({ state: "detached" });
    // Focus is back on the button that opened the dialog; the admin stays signed in.
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    await atPath(page, "/accounts/users");
    expect(await profileStatus(token)).toBe(401);
    await toastsGone(page);
  });

  step("the admin's own card offers no Deactivate", async () => {
    const own = await seen(card(page, admin.username));
    await seen(own.getByText("(You)"));
    expect(await own.getByRole("button", { name: "Deactivate" }).count()).toBe(0);
  });
});
