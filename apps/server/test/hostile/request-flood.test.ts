import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { SessionUser } from "@tafsiri/api";
import { loadSettings } from "../../src/settings";
import { createAppHarness, failed, type AppHarness } from "../fixtures/app-harness";

/**
 * Hostile suite (decision 013), attack: one client floods the API to starve the rest. Each signed-in user
 * gets RATE_LIMIT_PER_USER requests a minute over REST, tRPC and file links together, each
 * client address RATE_LIMIT_PER_ADDRESS for requests without a session; past them 429 with
 * Retry-After. Forged tokens and spoofed forwarding headers do not buy a fresh budget.
 */

const PER_USER = 5;
const PER_ADDRESS = 4;
const TOO_MANY = "Too many requests. Please wait a moment and try again.";

/** A signed-in request: the caller's own profile over REST. */
const profile = (h: AppHarness, user: SessionUser, token: string, ip?: string) =>
  h.call("GET", `/auth/profile/${user.id}`, token, undefined, ip ? { ip } : {});

/** A request without a session (answered 401 while under the limit). */
const anonymous = (h: AppHarness, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  h.call("GET", `/auth/profile/${randomUUID()}`, null, undefined, opts);

/** The seconds a 429 says to wait: within the minute's window. */
function expectRetryAfter(res: { headers: Record<string, unknown> }) {
  const seconds = Number(res.headers["retry-after"]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(60);
}

describe("a request flood", () => {
  let h: AppHarness;
  let staff: SessionUser;
  let other: SessionUser;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    h = await createAppHarness({ requestLimits: { perUser: PER_USER, perAddress: PER_ADDRESS } });
    staff = await h.createUser("Staff");
    other = await h.createUser("Staff");
    token = await h.token(staff);
    otherToken = await h.token(other);
  });
  afterAll(() => h.close());

  it("answers a signed-in user's requests past RATE_LIMIT_PER_USER with 429 and Retry-After, over REST and tRPC together", async () => {
    for (let i = 0; i < PER_USER - 1; i += 1) expect((await profile(h, staff, token)).statusCode).toBe(200);
    // The last allowed one goes over tRPC: both count against the same budget.
    const trpc = () =>
      h.app.inject({
        method: "GET",
        url: `/trpc/notifications.list?input=${encodeURIComponent("{}")}`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await trpc()).statusCode).toBe(200);

    const rest = await profile(h, staff, token);
    expect(rest.statusCode).toBe(429);
    expect(rest.json()).toEqual(failed(TOO_MANY));
    expectRetryAfter(rest);

    const refused = await trpc();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { message: TOO_MANY, data: { code: "TOO_MANY_REQUESTS" } } });
    expectRetryAfter(refused);

    // Another user from the same address, and requests without a session, are not held back.
    expect((await profile(h, other, otherToken)).statusCode).toBe(200);
    expect((await anonymous(h)).statusCode).toBe(401);
  });

  it("counts a user's requests from every address together", async () => {
    const user = await h.createUser("Staff");
    const userToken = await h.token(user);
    for (let i = 0; i < PER_USER; i += 1) {
      expect((await profile(h, user, userToken, `10.0.0.${i + 1}`)).statusCode).toBe(200);
    }
    expect((await profile(h, user, userToken, "10.0.0.99")).statusCode).toBe(429);
  });

  it("answers requests without a session past RATE_LIMIT_PER_ADDRESS with 429, whatever X-Forwarded-For says", async () => {
    const ip = "192.0.2.10";
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      const res = await anonymous(h, { ip, headers: { "x-forwarded-for": `198.51.100.${i}` } });
      expect(res.statusCode).toBe(401);
    }
    for (const spoofed of ["198.51.100.200", "203.0.113.7, 198.51.100.1"]) {
      const res = await anonymous(h, {
        ip,
        headers: { "x-forwarded-for": spoofed, "x-real-ip": spoofed, forwarded: `for=${spoofed}` },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(failed(TOO_MANY));
      expectRetryAfter(res);
    }
    // File links are requests without a session too.
    const file = await h.call("GET", "/files/audios/x.wav?expires=1&signature=x", null, undefined, { ip });
    expect(file.statusCode).toBe(429);
    // Another address is not held back.
    expect((await anonymous(h, { ip: "192.0.2.11" })).statusCode).toBe(401);
  });

  it("counts a forged token as no session: it neither escapes the address limit nor spends its victim's budget", async () => {
    const victim = await h.createUser("Staff");
    const victimToken = await h.token(victim);
    const ip = "192.0.2.20";
    const forged = () =>
      new SignJWT({ role: "Staff", sv: 0 })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(victim.id)
        .setIssuer("tafsiri")
        .setAudience("tafsiri-api")
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode(randomUUID() + randomUUID()));
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      expect((await h.call("GET", `/auth/profile/${victim.id}`, await forged(), undefined, { ip })).statusCode).toBe(
        401,
      );
    }
    expect((await h.call("GET", `/auth/profile/${victim.id}`, await forged(), undefined, { ip })).statusCode).toBe(429);
    // The victim still has the whole of their minute.
    for (let i = 0; i < PER_USER; i += 1) expect((await profile(h, victim, victimToken)).statusCode).toBe(200);
  });
});

describe("behind a trusted proxy (TRUST_PROXY)", () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness({
      requestLimits: { perUser: PER_USER, perAddress: PER_ADDRESS },
      trustProxy: "127.0.0.1",
    });
  });
  afterAll(() => h.close());

  it("counts each forwarded client on its own, and only when the proxy is the one listed", async () => {
    const via = (client: string, ip = "127.0.0.1") => anonymous(h, { ip, headers: { "x-forwarded-for": client } });
    for (let i = 0; i < PER_ADDRESS; i += 1) expect((await via("203.0.113.1")).statusCode).toBe(401);
    expect((await via("203.0.113.1")).statusCode).toBe(429);
    expect((await via("203.0.113.2")).statusCode).toBe(401);
    // A client that is not the trusted proxy cannot pick its address with the header.
    for (let i = 0; i < PER_ADDRESS; i += 1)
      expect((await via(`203.0.113.${10 + i}`, "192.0.2.30")).statusCode).toBe(401);
    expect((await via("203.0.113.50", "192.0.2.30")).statusCode).toBe(429);
  });
});

describe("RATE_LIMIT_PER_USER, RATE_LIMIT_PER_ADDRESS and TRUST_PROXY settings", () => {
  it("default to 600 and 1200 a minute and no trusted proxy; 0 turns a limit off; a negative number is refused", () => {
    const defaults = loadSettings({});
    expect([defaults.RATE_LIMIT_PER_USER, defaults.RATE_LIMIT_PER_ADDRESS, defaults.TRUST_PROXY]).toEqual([
      600,
      1200,
      undefined,
    ]);
    expect(loadSettings({ RATE_LIMIT_PER_USER: "0" }).RATE_LIMIT_PER_USER).toBe(0);
    expect(() => loadSettings({ RATE_LIMIT_PER_ADDRESS: "-1" })).toThrow(/RATE_LIMIT_PER_ADDRESS/);
  });
});
