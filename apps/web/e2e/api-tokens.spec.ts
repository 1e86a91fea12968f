// Decision 036, API tokens. A staff member opens 'API tokens' from the user menu, creates a read and
// write token (shown once, with its warning), uses it over REST from outside the browser, and
// revokes it behind a confirmation: the next call with it answers 401. An admin sees every
// person's tokens. Keyboard only; axe finds nothing serious.
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { describeBrowser, screenshot, seen, signIn, toast, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

describeBrowser("API tokens: created once, used over REST, revoked", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let admin: TestUser;
  let page: Page;
  let token: string;

  /** GET /auth/profile/{staff} with `bearer`, from outside the browser, as a script would. */
  const profileStatus = async (bearer: string) =>
    (
      await fetch(`${suite.server.baseURL}/auth/profile/${staff.id}`, {
        headers: { authorization: `Bearer ${bearer}` },
      })
    ).status;

  step("a staff member creates a token from the user menu; it is shown once", async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    page = await suite.newPage("staff");
    await signIn(page, staff);
    await page.getByRole("button", { name: /User menu/ }).focus();
    await page.keyboard.press("Enter");
    await seen(page.getByRole("menuitem", { name: "API tokens" }));
    // Radix focuses the menu's first item.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("API tokens");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/settings/tokens");
    await seen(page.getByText("You have no tokens yet."));

    // The form says what is missing before it sends anything.
    await page.getByRole("button", { name: "Create token" }).focus();
    await page.keyboard.press("Enter");
    await seen(page.getByText("Give the token a name."));
    expect(await page.getByRole("option", { name: "Never" }).count()).toBe(0);

    await page.getByLabel("Name").focus();
    await page.keyboard.type("lab pipeline");
    await page.getByRole("radio", { name: "Read and write" }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Create token" }).focus();
    await page.keyboard.press("Enter");
    await toast(page, "Token created. Copy it now: it is not shown again.");
    token = await page.getByRole("textbox", { name: "New token" }).inputValue();
    expect(token).toMatch(/^tfs_/);
    const row = page.getByRole("region", { name: "Your API tokens" }).getByRole("row", { name: /lab pipeline/ });
    await seen(row.getByText("Read and write"));
    await seen(row.getByText(`${token.slice(0, 8)}…`));
    await screenshot(page, "api-tokens");
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Done" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.getByRole("textbox", { name: "New token" }).count()).toBe(0);
    await page.reload();
    await seen(row);
    expect(await page.content()).not.toContain(token);
  });

  step("the token works over REST, and an admin sees it among every token", async () => {
    expect(await profileStatus(token)).toBe(200);
    const adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await adminPage.goto("/settings/tokens");
    const every = adminPage.getByRole("region", { name: "Every person's API tokens" });
    await seen(every.getByRole("row", { name: new RegExp(`lab pipeline ${staff.username}`) }));
    // Admins may choose a token that never expires, with a warning.
    await adminPage.getByLabel("Expires").selectOption("never");
    await seen(adminPage.getByRole("note").filter({ hasText: "never expires" }));
    expect(await seriousAxeViolations(adminPage)).toEqual([]);
    await adminPage.close();
  });

  step("revoking asks first, then the token is refused at once", async () => {
    await page.getByRole("button", { name: "Revoke lab pipeline" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "Revoke 'lab pipeline'?" });
    await seen(dialog);
    await dialog.getByRole("button", { name: "Revoke" }).focus();
    await page.keyboard.press("Enter");
    await toast(page, "The token 'lab pipeline' was revoked.");
    await seen(page.getByRole("region", { name: "Your API tokens" }).getByText("Revoked"));
    expect(await profileStatus(token)).toBe(401);
  });
});
