import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, decodeJwt } from "jose";
import type { SessionUser } from "@tafsiri/api";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { createAppHarness, failed, type AppHarness } from "./fixtures/app-harness";
import { liveClient, listen, rawConnect, waitUntil, type LiveClient } from "./fixtures/live-client";
import { loadSettings } from "../src/settings";

/**
 * Sessions that can be ended (decision 012): every token carries its user's session version;
 * 'Sign out everywhere', a new password, deactivation and reactivation raise it, after which the
 * older tokens answer 401 and the user's open sockets close within a second; tokens are renewed
 * while the app is used and a socket closes when its token expires unless it was renewed.
 */

let h: AppHarness;
let baseUrl: string;
let admin: SessionUser;
let adminToken: string;
const clients: LiveClient[] = [];

beforeAll(async () => {
  h = await createAppHarness({ loginRateLimit: 1_000 });
  baseUrl = await listen(h.app);
  admin = await h.createUser("Admin");
  adminToken = await h.token(admin);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await h.close();
});

/** Signs in over REST as the web app does; answers the token. */
async function signIn(user: SessionUser, password = TEST_PASSWORD): Promise<string> {
  const res = await h.call("POST", "/auth/login", null, { email: user.email, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ token: string }>().token;
}

/** A live client with `token`, subscribed to events.onEvent. */
async function subscribedWith(token: string): Promise<LiveClient> {
  const client = liveClient(baseUrl, token);
  clients.push(client);
  await h.deps.events.idle();
  await client.subscribe();
  return client;
}

/** The status of GET /auth/profile/{id} with `token`: 200 while the session is valid, 401 once ended. */
async function profileStatus(user: SessionUser, token: string): Promise<number> {
  return (await h.call("GET", `/auth/profile/${user.id}`, token)).statusCode;
}

async function sessionVersion(user: SessionUser): Promise<number> {
  const row = await h.deps.db
    .selectFrom("users")
    .select("sessionVersion")
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  return row.sessionVersion;
}

describe("'Sign out everywhere' (decision 012)", () => {
  it("refuses every token of the user and closes their sockets within a second; others stay signed in", async () => {
    const staff = await h.createUser("Staff");
    const other = await h.createUser("Staff");
    const [first, second, otherToken] = [await signIn(staff), await signIn(staff), await signIn(other)];
    const staffLive = await subscribedWith(first);
    const otherLive = await subscribedWith(otherToken);

    const res = await h.call("POST", "/auth/signouteverywhere", adminToken, { userId: staff.id });
    const ended = Date.now();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: "success",
      success: true,
      message: `${staff.username} has been signed out everywhere.`,
    });

    await waitUntil(() => staffLive.closeCodes.includes(4401), "the staff socket's close", 1_000);
    expect(Date.now() - ended).toBeLessThan(1_000);
    expect(staffLive.ofKind("session.ended")).toHaveLength(1);
    expect(staffLive.errors).toEqual([
      { code: "UNAUTHORIZED", message: "Your session has ended. Please sign in again." },
    ]);
    expect(await profileStatus(staff, first)).toBe(401);
    expect(await profileStatus(staff, second)).toBe(401);
    await expect(liveClient(baseUrl, second).trpc.accounts.me.query()).rejects.toMatchObject({
      message: "You must be signed in.",
      data: { code: "UNAUTHORIZED", httpStatus: 401 },
    });
    const refused = await rawConnect(baseUrl, { token: first });
    expect(refused.messages[0]).toMatchObject({ id: null, error: { message: "You must be signed in." } });

    // Another user's socket and token are untouched; the user signs in again.
    expect(otherLive.closeCodes).toEqual([]);
    expect(otherLive.errors).toEqual([]);
    expect(await profileStatus(other, otherToken)).toBe(200);
    expect(await profileStatus(staff, await signIn(staff))).toBe(200);

    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select(["actorId", "action", "entity"])
      .where("entityId", "=", staff.id)
      .where("action", "=", "sign-out-everywhere")
      .execute();
    expect(audit).toEqual([{ actorId: admin.id, action: "sign-out-everywhere", entity: "user" }]);
  });

  it("is for admins only and refuses bad ids, changing nothing", async () => {
    const staff = await h.createUser("Staff");
    const target = await h.createUser("Staff");
    const staffToken = await signIn(staff);
    const targetToken = await signIn(target);
    const before = await sessionVersion(target);

    const cases: Array<[token: string | null, body: unknown, status: number, message: string]> = [
      [staffToken, { userId: target.id }, 403, "Only administrators may do this."],
      [null, { userId: target.id }, 401, "You must be signed in."],
      [adminToken, {}, 400, "A user id is required."],
      [adminToken, { userId: "not-an-id" }, 400, "Unknown id."],
      [adminToken, { userId: "3f2c9a1e-7b3d-4e6f-8a0c-1d2e3f4a5b6c" }, 404, "User not found."],
      [adminToken, { userId: "x".repeat(100_000) }, 400, "Unknown id."],
    ];
    for (const [token, body, status, message] of cases) {
      const res = await h.call("POST", "/auth/signouteverywhere", token, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual(failed(message));
    }
    await expect(
      liveClient(baseUrl, staffToken).trpc.accounts.endSessions.mutate({ userId: target.id }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await sessionVersion(target)).toBe(before);
    expect(await profileStatus(target, targetToken)).toBe(200);
  });
});

describe("what else ends a session", () => {
  it("a new password set by an admin ends the user's sessions; an edit without one does not", async () => {
    const staff = await h.createUser("Staff");
    const token = await signIn(staff);
    const live = await subscribedWith(token);
    const edit = (password?: string) =>
      h.call("PUT", "/auth/editprofile", adminToken, {
        userId: staff.id,
        username: staff.username,
        email: staff.email,
        role: "Staff",
        adminpassword: TEST_PASSWORD,
        ...(password === undefined ? {} : { password }),
      });

    expect((await edit()).statusCode).toBe(200);
    expect(await profileStatus(staff, token)).toBe(200);

    // Hashing the new password takes its time; the socket closes within a second of the answer.
    expect((await edit("N3w-Str0ng-pass!")).statusCode).toBe(200);
    await waitUntil(() => live.closeCodes.includes(4401), "the socket's close", 1_000);
    expect(await profileStatus(staff, token)).toBe(401);
    expect(await profileStatus(staff, await signIn(staff, "N3w-Str0ng-pass!"))).toBe(200);
  });

  it("refuses a token issued without a session version (before sessions could be ended)", async () => {
    const staff = await h.createUser("Staff");
    const legacy = await new SignJWT({ role: "Staff" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(staff.id)
      .setIssuedAt()
      .setExpirationTime("12h")
      .sign(h.deps.jwtSecret);
    expect(await profileStatus(staff, legacy)).toBe(401);
  });
});

describe("renewing a session", () => {
  it("answers a fresh token for the same session, valid SESSION_IDLE_DAYS from now", async () => {
    const staff = await h.createUser("Staff");
    const token = await signIn(staff);
    const signedIn = decodeJwt(token);
    expect(signedIn.exp! - signedIn.iat!).toBe(30 * 24 * 60 * 60);

    await new Promise((resolve) => setTimeout(resolve, 1_100)); // a later second for iat
    const res = await h.call("POST", "/auth/renew", token);
    expect(res.statusCode, res.body).toBe(200);
    const renewed = res.json<{ token: string; expiresAt: string }>();
    const claims = decodeJwt(renewed.token);
    expect(claims.sub).toBe(staff.id);
    expect(claims.sv).toBe(signedIn.sv);
    expect(claims.exp!).toBeGreaterThan(signedIn.exp!);
    expect(new Date(renewed.expiresAt).getTime()).toBe(claims.exp! * 1000);
    expect(await profileStatus(staff, renewed.token)).toBe(200);
    expect(await profileStatus(staff, token)).toBe(200);

    // Ending the session ends the renewed token too, and it cannot be renewed any more.
    await h.call("POST", "/auth/signouteverywhere", adminToken, { userId: staff.id });
    expect(await profileStatus(staff, renewed.token)).toBe(401);
    const again = await h.call("POST", "/auth/renew", renewed.token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(failed("You must be signed in."));
    expect((await h.call("POST", "/auth/renew", null)).json()).toEqual(failed("You must be signed in."));
  });

  it("closes a socket when its token expires, unless the client renewed it", async () => {
    const staff = await h.createUser("Staff");
    h.deps.sessionLifetimeSeconds = 2;
    try {
      // Not renewed: closed (4401) once the token expires, within its 2 s.
      const unrenewed = await signIn(staff);
      const expiresAt = decodeJwt(unrenewed).exp! * 1000;
      const closed = await rawConnect(baseUrl, { token: unrenewed }, 4_000);
      expect(closed.closeCode).toBe(4401);
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
      expect(Date.now()).toBeLessThan(expiresAt + 1_000);

      // Renewed half-way: the socket outlives the first token and closes when the renewed one expires.
      const token = await signIn(staff);
      const firstExpiry = decodeJwt(token).exp! * 1000;
      const outcome = rawConnect(baseUrl, { token }, 8_000);
      await new Promise((resolve) => setTimeout(resolve, 900));
      const renewed = (await h.call("POST", "/auth/renew", token)).json<{ token: string }>().token;
      const secondExpiry = decodeJwt(renewed).exp! * 1000;
      expect(secondExpiry).toBeGreaterThan(firstExpiry);
      const { closeCode } = await outcome;
      expect(closeCode).toBe(4401);
      expect(Date.now()).toBeGreaterThanOrEqual(secondExpiry);
      expect(Date.now()).toBeLessThan(secondExpiry + 1_000);
    } finally {
      delete h.deps.sessionLifetimeSeconds;
    }
  });
});

describe("SESSION_IDLE_DAYS", () => {
  it("defaults to 30 days and refuses what is not a positive number of days", () => {
    expect(loadSettings({}).SESSION_IDLE_DAYS).toBe(30);
    expect(loadSettings({ SESSION_IDLE_DAYS: "0.5" }).SESSION_IDLE_DAYS).toBe(0.5);
    expect(() => loadSettings({ SESSION_IDLE_DAYS: "0" })).toThrow(/SESSION_IDLE_DAYS must be a positive number/);
    expect(() => loadSettings({ SESSION_IDLE_DAYS: "forever" })).toThrow(/SESSION_IDLE_DAYS/);
  });
});
