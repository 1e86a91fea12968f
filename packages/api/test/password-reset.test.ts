import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, TEST_PASSWORD, type TestHarness } from "../src/testing/harness";
import { authenticate } from "../src/services/auth";
import type { MailMessage } from "../src/mail/mailer";
import { appRouter } from "../src/root";
import { createCallerFactory } from "../src/trpc";
import { hashResetToken, RESET_REQUESTED } from "../src/services/password-reset";

let h: TestHarness;
const sent: MailMessage[] = [];
const NEW_PASSWORD = "N3w-Str0ng-pass!";

beforeAll(async () => {
  h = await createHarness();
  h.deps.mailer = { kind: "smtp", send: async (m) => void sent.push(m) };
  h.deps.publicUrl = "http://app.test";
  h.deps.log = () => {};
});
afterAll(() => h.close());

/** Asks for a link for `email` (no IP: only the per-e-mail limit applies) and answers the token of the mail sent, if any. */
async function request(email: string): Promise<string | undefined> {
  const before = sent.length;
  const answer = await h.caller(null).accounts.requestPasswordReset({ email });
  expect(answer).toEqual({ status: "success", message: RESET_REQUESTED });
  await new Promise((r) => setTimeout(r, 10));
  const mail = sent.slice(before).find((m) => m.to.toLowerCase() === email.toLowerCase());
  return mail?.text.match(/\/reset-password\/([A-Za-z0-9_-]+)/)?.[1];
}

describe("password reset", () => {
  it("answers the same for unknown, inactive and active accounts, and mails only the active one", async () => {
    const active = await h.createUser("Staff");
    const inactive = await h.createUser("Staff");
    await h.deps.db.updateTable("users").set({ active: false }).where("id", "=", inactive.id).execute();
    expect(await request("nobody@example.test")).toBeUndefined();
    expect(await request(inactive.email)).toBeUndefined();
    const token = await request(active.email.toUpperCase());
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent.at(-1)!.text).toContain(`http://app.test/reset-password/${token}`);
  });

  it("stores the token only as its sha256", async () => {
    const user = await h.createUser("Staff");
    const token = (await request(user.email))!;
    const rows = await h.deps.db.selectFrom("passwordResets").selectAll().where("userId", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashResetToken(token));
    expect(rows[0]!.tokenHash).not.toContain(token);
    const minutes = (rows[0]!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it("sets the password once, kills other links and older sessions", async () => {
    const user = await h.createUser("Staff");
    const oldToken = await h.token(user);
    const first = (await request(user.email))!;
    const second = (await request(user.email))!;
    await new Promise((r) => setTimeout(r, 1100)); // session iat has second precision
    await expect(
      h.caller(null).accounts.resetPassword({ token: second, password: NEW_PASSWORD }),
    ).resolves.toMatchObject({
      status: "success",
    });
    await expect(h.caller(null).accounts.resetPassword({ token: second, password: NEW_PASSWORD })).rejects.toThrow(
      "This reset link has already been used.",
    );
    await expect(h.caller(null).accounts.resetPassword({ token: first, password: NEW_PASSWORD })).rejects.toThrow(
      "This reset link has already been used.",
    );
    await expect(h.caller(null).accounts.login({ email: user.email, password: TEST_PASSWORD })).rejects.toThrow(
      "Invalid email or password.",
    );
    await expect(h.caller(null).accounts.login({ email: user.email, password: NEW_PASSWORD })).resolves.toMatchObject({
      token: expect.any(String),
      user: { id: user.id, email: user.email },
    });
    expect(await authenticate(h.deps.db, h.deps.jwtSecret, oldToken)).toBeNull();
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select("action")
      .where("entityId", "=", user.id)
      .where("action", "=", "reset-password")
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("refuses expired and unknown links and weak passwords", async () => {
    const user = await h.createUser("Staff");
    const token = (await request(user.email))!;
    await expect(h.caller(null).accounts.resetPassword({ token, password: "weakpass" })).rejects.toThrow(
      /^Password is weak/,
    );
    await expect(h.caller(null).accounts.resetPassword({ token: "nope", password: NEW_PASSWORD })).rejects.toThrow(
      "This reset link is not valid.",
    );
    await h.deps.db
      .updateTable("passwordResets")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("tokenHash", "=", hashResetToken(token))
      .execute();
    await expect(h.caller(null).accounts.resetPassword({ token, password: NEW_PASSWORD })).rejects.toThrow(
      "This reset link has expired.",
    );
    await expect(h.caller(null).accounts.login({ email: user.email, password: TEST_PASSWORD })).resolves.toMatchObject({
      token: expect.any(String),
      user: { id: user.id, email: user.email },
    });
  });

  it("limits requests per e-mail (5 in 15 minutes) and per IP (20)", async () => {
    const email = "limited@example.test";
    for (let i = 0; i < 5; i += 1) await h.caller(null).accounts.requestPasswordReset({ email });
    await expect(h.caller(null).accounts.requestPasswordReset({ email })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
    const ipCaller = createCallerFactory(appRouter)({ ...h.deps, user: null, clientIp: "192.0.2.7" });
    for (let i = 0; i < 20; i += 1) await ipCaller.accounts.requestPasswordReset({ email: `ip${i}@example.test` });
    await expect(ipCaller.accounts.requestPasswordReset({ email: "ip-last@example.test" })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
  });
});
