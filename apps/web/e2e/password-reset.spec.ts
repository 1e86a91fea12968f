// SPEC §2.5: password reset against a real SMTP server started by the test.
// Request on /reset-password → the mail arrives with the link → the link's page sets a Strong
// password → 'Success' and /signin → the new password signs in, the old does not → the reused
// link shows 'Error' with the reason. An unknown e-mail gets the same answer and no mail.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSmtp, type ReceivedMail } from "../../server/test/fixtures/smtp-inbox";
import { createMailer } from "@tafsiri/api";
import {
  atPath,
  describeBrowser,
  screenshot,
  seen,
  submitSignIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import type { TestUser } from "./support/server";

const MESSAGE = "If an account exists for that e-mail, a reset link has been sent.";
const NEW_PASSWORD = "N3w-Str0ng-pass!";

describeBrowser("password reset by e-mail", () => {
  const suite = useBrowserSuite();
  let received: ReceivedMail[] = [];
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let user: TestUser;

  beforeAll(async () => {
    smtp = await startSmtp();
    received = smtp.received;
    const deps = suite.server.harness.deps;
    deps.mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "/nonexistent" });
    deps.publicUrl = suite.server.baseURL;
    deps.log = () => {};
    user = await suite.server.createUser("Staff");
  });
  afterAll(() => smtp.close());

  it("requests a link, sets a new password, and refuses the reused link", async () => {
    const page = await suite.newPage("user");
    await page.goto("/reset-password");
    await seen(page.getByRole("heading", { name: "Reset your password" }));
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel("Email", { exact: true }).fill("nobody@example.test");
    await page.getByRole("button", { name: "Request password Reset" }).click();
    await toast(page, MESSAGE);
    await toastsGone(page);

    await page.getByLabel("Email", { exact: true }).fill(user.email);
    await page.getByRole("button", { name: "Request password Reset" }).click();
    await toast(page, MESSAGE);
    await seen(page.getByRole("status").filter({ hasText: MESSAGE }));
    await screenshot(page, "password-reset-01-requested");

    await expect.poll(() => received.some((m) => m.to.includes(user.email)), { timeout: 10_000 }).toBe(true);
    expect(received.filter((m) => m.to.includes("nobody@example.test"))).toEqual([]);
    const mail = received.find((m) => m.to.includes(user.email));
    const link = mail?.raw
      .replace(/=\r?\n/g, "")
      .match(/http:\/\/127\.0\.0\.1:\d+\/reset-password\/[A-Za-z0-9_-]{43}/)?.[0];
    expect(link).toBeDefined();

    await page.goto(link!);
    await seen(page.getByRole("heading", { name: "Choose a new password" }));
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password", { exact: true }).fill(NEW_PASSWORD);
    await seen(page.getByText("Strong", { exact: true }));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "password-reset-02-new-password");
    await page.getByRole("button", { name: "Set new password" }).click();
    await toast(page, "Success");
    await atPath(page, "/signin");
    await screenshot(page, "password-reset-03-success");
    await toastsGone(page);

    await submitSignIn(page, user.email, user.password);
    await toast(page, "Login Failed");
    await toastsGone(page);
    await submitSignIn(page, user.email, NEW_PASSWORD);
    await page.waitForURL((url) => url.pathname.toLowerCase() !== "/signin");

    const again = await suite.newPage("reuse");
    await again.goto(link!);
    await again.getByLabel("New password", { exact: true }).fill("An0ther-pass!");
    await again.getByLabel("Confirm new password", { exact: true }).fill("An0ther-pass!");
    await again.getByRole("button", { name: "Set new password" }).click();
    const error = await toast(again, "Error");
    await expect(error.textContent()).resolves.toContain("This reset link has already been used.");
    await screenshot(again, "password-reset-04-reused");
  });
});
