import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer, RESET_REQUESTED } from "@tafsiri/api";
import { createAppHarness, type AppHarness } from "./fixtures/app-harness";
import { startSmtp } from "./fixtures/smtp-inbox";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";

/** Waits until `check` answers something. */
async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The link's token in a raw message (quoted-printable soft breaks undone). */
function tokenIn(raw: string): string | undefined {
  return raw.replace(/=\r?\n/g, "").match(/http:\/\/app\.test\/reset-password\/([A-Za-z0-9_-]{43})/)?.[1];
}

let h: AppHarness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let outbox: string;

beforeAll(async () => {
  h = await createAppHarness();
  smtp = await startSmtp();
  outbox = await mkdtemp(path.join(os.tmpdir(), "tafsiri-outbox-"));
  h.deps.publicUrl = "http://app.test";
  h.deps.log = () => {};
  h.deps.mailer = createMailer({ smtpUrl: smtp.url, outboxDir: outbox });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await rm(outbox, { recursive: true, force: true });
});

describe("GET /auth/passwordreset/{email} and POST /auth/resetpassword", () => {
  it("mails a working single-use link over SMTP", async () => {
    const user = await h.createUser("Staff");
    const res = await h.call("GET", `/auth/passwordreset/${encodeURIComponent(user.email)}`, null);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "success", message: RESET_REQUESTED });
    const mail = await eventually(() => smtp.received.find((m) => m.to.includes(user.email)));
    const token = tokenIn(mail.raw);
    expect(token).toBeDefined();

    const done = await h.call("POST", "/auth/resetpassword", null, { token, password: "N3w-Str0ng-pass!" });
    expect(done.statusCode).toBe(200);
    expect(
      (await h.call("POST", "/auth/login", null, { email: user.email, password: "N3w-Str0ng-pass!" })).statusCode,
    ).toBe(200);
    expect((await h.call("POST", "/auth/login", null, { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(
      401,
    );
    const again = await h.call("POST", "/auth/resetpassword", null, { token, password: "An0ther-pass!" });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ status: "failed", message: "This reset link has already been used." });
  });

  it("answers an unknown e-mail the same and sends nothing", async () => {
    const before = smtp.received.length;
    const res = await h.call("GET", "/auth/passwordreset/nobody%40example.test", null);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "success", message: RESET_REQUESTED });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(before);
  });

  it("writes an .eml to the outbox without SMTP_URL", async () => {
    const user = await h.createUser("Staff");
    const lines: string[] = [];
    h.deps.mailer = createMailer({ outboxDir: outbox });
    h.deps.log = (line) => lines.push(line);
    try {
      const res = await h.call("GET", `/auth/passwordreset/${encodeURIComponent(user.email)}`, null, undefined, {
        ip: "192.0.2.50",
      });
      expect(res.statusCode).toBe(200);
      const file = await eventually(async () => (await readdir(outbox)).find((f) => f.endsWith(".eml")));
      const raw = await readFile(path.join(outbox, file), "utf8");
      expect(raw).toContain(user.email);
      expect(tokenIn(raw)).toBeDefined();
      expect(lines.some((l) => l.includes("http://app.test/reset-password/"))).toBe(true);
    } finally {
      h.deps.mailer = createMailer({ smtpUrl: smtp.url, outboxDir: outbox });
      h.deps.log = () => {};
    }
  });

  it("answers 429 past 5 requests for one e-mail", async () => {
    const url = "/auth/passwordreset/someone%40example.test";
    for (let i = 0; i < 5; i += 1)
      expect((await h.call("GET", url, null, undefined, { ip: "192.0.2.60" })).statusCode).toBe(200);
    const res = await h.call("GET", url, null, undefined, { ip: "192.0.2.61" });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ status: "failed" });
  });
});
