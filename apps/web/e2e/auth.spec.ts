// Sign-in, sign-out and route guards in a real browser (SPEC §2.1, §2.3, §2.4, §2.19, §5).
import { beforeAll, expect, it } from "vitest";
import {
  atPath,
  describeBrowser,
  screenshot,
  seen,
  signIn,
  submitSignIn,
  toast,
  useBrowserSuite,
} from "./support/browser";
import type { TestUser } from "./support/server";

const NOT_FOUND_TEXT = "Hmm...this page doesn’t exist. Try searching for something else!";
const SESSION_KEY = "tafsiri-session";

describeBrowser("sign-in and route guards", () => {
  const suite = useBrowserSuite();
  let admin: TestUser;
  let staff: TestUser;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
  });

  it("sends an unauthenticated visitor to /signin and back to the page they asked for after signing in", async () => {
    const page = await suite.newPage("visitor");
    await page.goto("/audiomanagement/audiocontrol");
    await atPath(page, "/signin");
    await screenshot(page, "auth-01-signin");
    await submitSignIn(page, admin.email, admin.password);
    await atPath(page, "/audiomanagement/audiocontrol");
  });

  it("takes an admin to / and a staff member to /Audios after signing in", async () => {
    const adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await atPath(adminPage, "/");
    const staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await atPath(staffPage, "/Audios");
  });

  it("shows the toast 'Login Failed' for a wrong password and stays on /signin", async () => {
    const page = await suite.newPage("visitor");
    await page.goto("/signin");
    await submitSignIn(page, admin.email, "Wr0ng!password");
    await toast(page, "Login Failed");
    expect(new URL(page.url()).pathname).toBe("/signin");
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();
  });

  it("asks for the email and the password when they are left empty", async () => {
    const page = await suite.newPage("visitor");
    await page.goto("/signin");
    await page.getByRole("button", { name: /^sign in$/i }).click();
    await seen(page.getByText("Email is required", { exact: true }));
    await seen(page.getByText("Password is required", { exact: true }));
    expect(new URL(page.url()).pathname).toBe("/signin");
    await screenshot(page, "auth-02-signin-required");
  });

  it("sends staff opening an admin page to /utility/404", async () => {
    const page = await suite.newPage("staff");
    await signIn(page, staff);
    await page.goto("/management/upload");
    await atPath(page, "/utility/404");
    await seen(page.getByText(NOT_FOUND_TEXT, { exact: true }));
  });

  it("shows the not-found page for an unknown path, with a way back to the dashboard", async () => {
    const page = await suite.newPage("visitor");
    await page.goto("/no/such/page");
    await seen(page.getByText(NOT_FOUND_TEXT, { exact: true }));
    await seen(
      page.getByRole("button", { name: "Back To Dashboard" }).or(page.getByRole("link", { name: "Back To Dashboard" })),
    );
    await screenshot(page, "auth-03-not-found");
  });

  it("matches paths case-insensitively and redirects staff from / to /Audios", async () => {
    const page = await suite.newPage("staff");
    await signIn(page, staff);
    await page.goto("/audios");
    await seen(page.getByRole("heading", { name: "Tasks", exact: true }));
    await page.goto("/");
    await atPath(page, "/Audios");
    await seen(page.getByRole("heading", { name: "Tasks", exact: true }));
  });

  it("signs out from the user menu: the session is cleared and the user lands on /signin", async () => {
    const page = await suite.newPage("staff");
    await signIn(page, staff);
    await page.getByRole("button", { name: "User menu" }).click();
    const menu = await seen(page.getByRole("menu"));
    await seen(menu.getByText(staff.username, { exact: true }));
    await seen(menu.getByText("Staff", { exact: true }));
    await screenshot(page, "auth-04-user-menu");
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await atPath(page, "/signin");
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();
    await page.goto("/Audios");
    await atPath(page, "/signin");
  });
});
