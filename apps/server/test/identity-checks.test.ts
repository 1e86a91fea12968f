import { afterAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { totpCode } from "@tafsiri/api/testing/totp";
import {
  REAUTH_REQUIRED,
  REAUTH_REQUIRED_MESSAGE,
  SECOND_FACTOR_ENROLMENT_MESSAGE,
  SECOND_FACTOR_ENROLMENT_REQUIRED,
} from "@tafsiri/domain";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { signSessionToken } from "@tafsiri/api/testing/services";
import type { SessionUser } from "@tafsiri/api";
import { createAppHarness } from "./fixtures/app-harness";
import { allProcedures, trpcCall } from "./fixtures/hostile-world";

/**
 * Decision 038: sessions as rows (how each signed in), admins required to have a second factor
 * (an admin session with a password alone reaches nothing but enrolment and sign-out, on tRPC and
 * on every REST path), and re-authentication before sensitive actions (a check older than 10
 * minutes asks again; one within does not).
 */

const h = await createAppHarness({ loginRateLimit: 10_000 });
afterAll(() => h.close());
h.deps.requireAdminSecondFactor = true;

/** The procedures an admin who must enrol may still call (their metadata says `beforeEnrolment`). */
const BEFORE_ENROLMENT = [
  "accounts.me",
  "accounts.renewSession",
  "passkeys.list",
  "passkeys.registrationOptions",
  "passkeys.register",
  "sessions.confirmIdentity",
  "sessions.passkeyChallenge",
  "sessions.signOut",
  "totp.confirm",
  "totp.start",
  "totp.status",
].sort();
/** Their REST paths. */
const REST_BEFORE_ENROLMENT = ["POST /auth/renew", "POST /auth/signout", "POST /auth/confirm-identity"];

const now = () => Math.floor(Date.now() / 1000);

/** Signs `user` in over REST (`otp` when given); answers the token. */
async function signIn(user: SessionUser, otp?: string, ip = "198.51.100.7"): Promise<string> {
  const res = await h.app.inject({
    method: "POST",
    url: "/auth/login",
    remoteAddress: ip,
    headers: { "content-type": "application/json", "user-agent": "identity-checks test" },
    payload: JSON.stringify({ email: user.email, password: TEST_PASSWORD, ...(otp ? { otp } : {}) }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ token: string }>().token;
}

/** A token of `user` whose session last checked who they are `minutesAgo` minutes ago. */
async function checkedAgo(user: SessionUser, minutesAgo: number): Promise<string> {
  const signIn = {
    id: crypto.randomUUID(),
    method: "password+totp" as const,
    verifiedAt: new Date(Date.now() - minutesAgo * 60_000),
  };
  const subject = { id: user.id, role: user.role, sessionVersion: 1 };
  return (await signSessionToken(h.deps.jwtSecret, subject, undefined, signIn)).token;
}

/** Turns TOTP on for `token`'s account; answers the secret. */
async function enrolTotp(token: string): Promise<string> {
  const started = await trpcCall(h, token, "totp.start", {});
  expect(started.status, started.body).toBe(200);
  const secret = (started.data as { secret: string }).secret;
  const confirmed = await trpcCall(h, token, "totp.confirm", { code: await totpCode(secret, now()) });
  expect(confirmed.status, confirmed.body).toBe(200);
  return secret;
}

describe("an admin without a second factor (REQUIRE_ADMIN_SECOND_FACTOR on)", () => {
  it("is stopped at enrolment: no tRPC procedure but enrolment, own account and sign-out answers", async () => {
    const admin = await h.createUser("Admin");
    const token = await signIn(admin);
    expect(decodeJwt(token)).toMatchObject({ amr: "password" });

    const allowed: string[] = [];
    for (const { path, type } of allProcedures()) {
      if (type === "subscription") continue;
      // A mutation's body must be JSON to reach the procedure at all.
      const input = type === "mutation" ? {} : undefined;
      const anonymous = await trpcCall(h, null, path, input);
      if (anonymous.status !== 401) continue; // public: it needs no session at all
      const res = await trpcCall(h, token, path, input);
      if (res.error?.data.code === "FORBIDDEN" && res.error.message === SECOND_FACTOR_ENROLMENT_MESSAGE) {
        expect((res.error.data as { reason?: string }).reason).toBe(SECOND_FACTOR_ENROLMENT_REQUIRED);
        continue;
      }
      allowed.push(path);
    }
    expect(allowed.sort()).toEqual(BEFORE_ENROLMENT);
  });

  it("and no REST path but those answers for that session", async () => {
    const admin = await h.createUser("Admin");
    const token = await signIn(admin);
    const doc = (await h.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    // Every operation that takes a session's Bearer token (signed file links and /healthz take none).
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => (op.security ?? []).length > 0)
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
    expect(operations.length).toBeGreaterThan(60);
    const answered: string[] = [];
    for (const { method, path } of operations) {
      const url = path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000038");
      const res = await h.app.inject({ method: method as "GET", url, headers: { authorization: `Bearer ${token}` } });
      const body = res.headers["content-type"]?.toString().includes("json") ? res.json<{ reason?: string }>() : {};
      if (res.statusCode === 403 && body.reason === SECOND_FACTOR_ENROLMENT_REQUIRED) continue;
      answered.push(`${method} ${path}`);
    }
    expect(answered.sort()).toEqual([...REST_BEFORE_ENROLMENT].sort());
  });

  it("gets everything once enrolled: the session's token says so, and sign-in asks for the code", async () => {
    const admin = await h.createUser("Admin");
    const token = await signIn(admin);
    const secret = await enrolTotp(token);
    // The code of the next step (the enrolment used this one; a used step never passes again).
    const strong = await signIn(admin, await totpCode(secret, now() + 30));
    expect(decodeJwt(strong)).toMatchObject({ amr: "password+totp" });
    const res = await trpcCall(h, strong, "accounts.list", {});
    expect(res.status, res.body).toBe(200);
    // Staff are never asked.
    const staff = await h.createUser("Staff");
    expect((await trpcCall(h, await signIn(staff), "tasks.list", {})).status).toBe(200);
  });

  it("answers the whole app when the requirement is off", async () => {
    const admin = await h.createUser("Admin");
    const token = await signIn(admin);
    h.deps.requireAdminSecondFactor = false;
    try {
      expect((await trpcCall(h, token, "accounts.list", {})).status).toBe(200);
    } finally {
      h.deps.requireAdminSecondFactor = true;
    }
  });
});

describe("re-authentication before sensitive actions", () => {
  it("exporting the dataset 11 minutes after the last check asks again; within 10 minutes it does not", async () => {
    const admin = await h.createUser("Admin");
    const stale = await h.call("POST", "/api/exports", await checkedAgo(admin, 11), {});
    expect(stale.statusCode, stale.body).toBe(403);
    expect(stale.json()).toMatchObject({ message: REAUTH_REQUIRED_MESSAGE, reason: REAUTH_REQUIRED });
    const overTrpc = await trpcCall(h, await checkedAgo(admin, 11), "exports.create", {});
    expect(overTrpc.error?.message).toBe(REAUTH_REQUIRED_MESSAGE);
    expect(await h.deps.db.selectFrom("exports").select("id").execute()).toHaveLength(0);

    const fresh = await h.call("POST", "/api/exports", await checkedAgo(admin, 9), {});
    expect(fresh.statusCode, fresh.body).toBe(202);
  });

  it("confirming with a code gives a token that passes, and the other sensitive actions ask too", async () => {
    const admin = await h.createUser("Admin");
    const token = await signIn(admin);
    h.deps.requireAdminSecondFactor = false;
    try {
      const secret = await enrolTotp(token);
      const stale = await checkedAgo(admin, 11);
      const attempts = [
        await h.call("POST", "/api/webhooks", stale, {
          url: "https://example.org/hook",
          eventTypes: ["audio.uploaded"],
        }),
        await h.call("POST", "/auth/register", stale, {
          username: "newadmin",
          email: "newadmin@example.test",
          password: "Str0ng-pass!",
          role: "Admin",
          adminpassword: TEST_PASSWORD,
        }),
        await h.call("GET", "/api/backups/tafsiri-backup-2026-12-07T05-10-00.000Z.zip/download", stale),
        await h.call("GET", "/api/participants/00000000-0000-4000-8000-000000000038/consent-document", stale),
      ];
      for (const res of attempts) expect(res.json(), res.body).toMatchObject({ reason: REAUTH_REQUIRED });
      const tokenAttempt = await trpcCall(h, stale, "apiTokens.create", {
        name: "pipeline",
        scope: "read",
        expiresAt: null,
      });
      expect(tokenAttempt.error?.message).toBe(REAUTH_REQUIRED_MESSAGE);

      const confirmed = await h.call("POST", "/auth/confirm-identity", stale, {
        code: await totpCode(secret, now() + 30),
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const again = confirmed.json<{ token: string }>().token;
      const made = await trpcCall(h, again, "apiTokens.create", { name: "pipeline", scope: "read", expiresAt: null });
      expect(made.status, made.body).toBe(200);
      // The password no longer proves who someone with a second factor is.
      const byPassword = await h.call("POST", "/auth/confirm-identity", stale, { password: TEST_PASSWORD });
      expect(byPassword.statusCode, byPassword.body).toBe(400);
    } finally {
      h.deps.requireAdminSecondFactor = true;
    }
  });

  it("an account without a second factor confirms with its password; a wrong one is refused", async () => {
    const staff = await h.createUser("Staff");
    const stale = await checkedAgo(staff, 30);
    const wrong = await h.call("POST", "/auth/confirm-identity", stale, { password: "not-it" });
    expect(wrong.statusCode, wrong.body).toBe(401);
    const none = await h.call("POST", "/auth/confirm-identity", stale, {});
    expect(none.statusCode, none.body).toBe(400);
    const both = await h.call("POST", "/auth/confirm-identity", stale, { password: TEST_PASSWORD, code: "123456" });
    expect(both.statusCode, both.body).toBe(400);
    const right = await h.call("POST", "/auth/confirm-identity", stale, { password: TEST_PASSWORD });
    expect(right.statusCode, right.body).toBe(200);
    const claims = decodeJwt(right.json<{ token: string }>().token);
    expect(Math.abs((claims.vat as number) - now())).toBeLessThan(5);
    expect((await h.call("POST", "/auth/confirm-identity", null, { password: TEST_PASSWORD })).statusCode).toBe(401);
  });
});

describe("the sessions list", () => {
  it("shows how each running session signed in; sign-out and 'Sign out everywhere' take them off", async () => {
    const staff = await h.createUser("Staff");
    const first = await signIn(staff, undefined, "198.51.100.20");
    const second = await signIn(staff, undefined, "198.51.100.21");
    const list = await h.call("GET", "/auth/sessions", second);
    expect(list.statusCode, list.body).toBe(200);
    const sessions = list.json<{
      sessions: Array<{ method: string; ip: string; current: boolean; userAgent: string }>;
    }>().sessions;
    expect(sessions.map((s) => [s.method, s.ip, s.current])).toEqual([
      ["password", "198.51.100.21", true],
      ["password", "198.51.100.20", false],
    ]);
    expect(sessions[0]!.userAgent).toBe("identity-checks test");

    expect((await h.call("POST", "/auth/signout", first)).statusCode).toBe(200);
    expect((await h.call("GET", "/auth/sessions", second)).json<{ sessions: unknown[] }>().sessions).toHaveLength(1);

    const admin = await h.createUser("Admin");
    const adminToken = await h.token(admin);
    expect((await h.call("POST", "/auth/signouteverywhere", adminToken, { userId: staff.id })).statusCode).toBe(200);
    const third = await signIn(staff);
    const after = (await h.call("GET", "/auth/sessions", third)).json<{ sessions: unknown[] }>().sessions;
    expect(after).toHaveLength(1);
  });

  it("never shows another user's sessions", async () => {
    const a = await h.createUser("Staff");
    const b = await h.createUser("Staff");
    await signIn(a, undefined, "203.0.113.9");
    const listed = (await h.call("GET", "/auth/sessions", await signIn(b))).json<{
      sessions: Array<{ ip: string }>;
    }>().sessions;
    expect(listed.map((s) => s.ip)).not.toContain("203.0.113.9");
    expect((await h.call("GET", "/auth/sessions", null)).statusCode).toBe(401);
  });
});

describe("an admin resets another user's second factor", () => {
  it("removes their app, codes and passkeys, signs them out everywhere, audits and tells them", async () => {
    const staff = await h.createUser("Staff");
    const staffToken = await signIn(staff);
    h.deps.requireAdminSecondFactor = false;
    const admin = await h.createUser("Admin");
    const adminToken = await h.token(admin);
    try {
      await enrolTotp(staffToken);
      const res = await h.call("POST", "/auth/reset-second-factor", adminToken, { userId: staff.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(await h.deps.db.selectFrom("totpFactors").where("userId", "=", staff.id).execute()).toEqual([]);
      expect(await h.deps.db.selectFrom("recoveryCodes").where("userId", "=", staff.id).execute()).toEqual([]);
      expect((await h.call("GET", "/auth/sessions", staffToken)).statusCode).toBe(401);
      const audit = await h.deps.db
        .selectFrom("auditLog")
        .select(["action", "actorId"])
        .where("entityId", "=", staff.id)
        .where("action", "=", "reset-second-factor")
        .execute();
      expect(audit).toEqual([{ action: "reset-second-factor", actorId: admin.id }]);
      const told = await h.deps.db
        .selectFrom("notifications")
        .select("message")
        .where("recipientId", "=", staff.id)
        .execute();
      expect(told.map((n) => n.message).join(" ")).toContain("An administrator removed your passkeys");
      // Signing in again needs no code now.
      await signIn(staff);

      // Hostile: staff may not, an admin may not reset their own, an unknown user is 404.
      expect(
        (await h.call("POST", "/auth/reset-second-factor", await h.token(staff), { userId: admin.id })).statusCode,
      ).toBe(403);
      expect((await h.call("POST", "/auth/reset-second-factor", adminToken, { userId: admin.id })).statusCode).toBe(
        400,
      );
      const unknown = { userId: "00000000-0000-4000-8000-000000000038" };
      expect((await h.call("POST", "/auth/reset-second-factor", adminToken, unknown)).statusCode).toBe(404);
      expect((await h.call("POST", "/auth/reset-second-factor", adminToken, { userId: "nope" })).statusCode).toBe(400);
      expect((await h.call("POST", "/auth/reset-second-factor", null, { userId: staff.id })).statusCode).toBe(401);
      const stale = await checkedAgo(admin, 11);
      const asked = await h.call("POST", "/auth/reset-second-factor", stale, { userId: staff.id });
      expect(asked.json()).toMatchObject({ reason: REAUTH_REQUIRED });
    } finally {
      h.deps.requireAdminSecondFactor = true;
    }
  });
});
