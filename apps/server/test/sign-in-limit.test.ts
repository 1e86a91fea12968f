import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@tafsiri/api";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { loadSettings } from "../src/settings";
import { createAppHarness, type AppHarness } from "./fixtures/app-harness";

const MESSAGE = "Too many sign-in attempts. Please wait a minute and try again.";

let h: AppHarness;
let staff: SessionUser;
let token: string;

beforeAll(async () => {
  h = await createAppHarness();
  staff = await h.createUser("Staff");
  token = await h.token(staff);
});
afterAll(() => h.close());

/** One REST sign-in attempt from `ip`. */
function restLogin(ip: string, password = "Wrong-pass1!") {
  return h.call("POST", "/auth/login", null, { email: staff.email, password }, { ip });
}

/** One tRPC sign-in attempt from `ip` at `url` (a single call unless the url says batch). */
function trpcLogin(
  ip: string,
  url = "/trpc/accounts.login",
  body: unknown = { email: staff.email, password: "Wrong-pass1!" },
) {
  return h.app.inject({ method: "POST", url, payload: body as object, remoteAddress: ip });
}

describe("sign-in rate limit (LOGIN_RATE_LIMIT, default 10 per IP per minute)", () => {
  it("answers the 11th POST /auth/login within a minute with 429 and the message, even with the right password", async () => {
    const ip = "10.0.0.1";
    for (let i = 0; i < 9; i += 1) expect((await restLogin(ip)).statusCode).toBe(401);
    expect((await restLogin(ip, TEST_PASSWORD)).statusCode).toBe(200);

    const limited = await restLogin(ip, TEST_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ status: "failed", success: false, message: MESSAGE });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(60);

    // The same IP still reaches every other route, REST and tRPC.
    expect((await h.call("GET", "/auth/staff", token, undefined, { ip })).statusCode).toBe(200);
    expect((await h.call("GET", "/api/tasks", token, undefined, { ip })).statusCode).toBe(200);
    expect((await h.call("GET", "/healthz", null, undefined, { ip })).statusCode).toBe(200);
    const trpcQuery = await h.app.inject({
      method: "GET",
      url: "/trpc/tasks.list?input=%7B%7D",
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: ip,
    });
    expect(trpcQuery.statusCode, trpcQuery.body).toBe(200);

    // Another IP is counted on its own.
    expect((await restLogin("10.0.0.2", TEST_PASSWORD)).statusCode).toBe(200);
  });

  it("limits tRPC accounts.login too, single or batched, with the message in the tRPC error", async () => {
    const ip = "10.0.0.3";
    for (let i = 0; i < 10; i += 1) expect((await trpcLogin(ip)).statusCode).toBe(401);

    const limited = await trpcLogin(ip, "/trpc/accounts.login", { email: staff.email, password: TEST_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      error: { message: MESSAGE, data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 } },
    });

    const batched = await trpcLogin(ip, "/trpc/accounts.login,accounts.login?batch=1", {
      0: { email: staff.email, password: TEST_PASSWORD },
      1: { email: staff.email, password: TEST_PASSWORD },
    });
    expect(batched.statusCode).toBe(429);
    const results = batched.json<Array<{ error: { message: string } }>>();
    expect(results.map((r) => r.error.message)).toEqual([MESSAGE, MESSAGE]);

    const other = await h.app.inject({
      method: "GET",
      url: "/trpc/tasks.list?input=%7B%7D",
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: ip,
    });
    expect(other.statusCode, other.body).toBe(200);
  });

  it("counts REST and tRPC sign-ins of one IP together", async () => {
    const ip = "10.0.0.4";
    for (let i = 0; i < 5; i += 1) expect((await restLogin(ip)).statusCode).toBe(401);
    for (let i = 0; i < 5; i += 1) expect((await trpcLogin(ip)).statusCode).toBe(401);
    expect((await restLogin(ip, TEST_PASSWORD)).statusCode).toBe(429);
    expect((await trpcLogin(ip)).statusCode).toBe(429);
  });
});

describe("LOGIN_RATE_LIMIT setting", () => {
  it("defaults to 10 and accepts a positive whole number", () => {
    expect(loadSettings({}).LOGIN_RATE_LIMIT).toBe(10);
    expect(loadSettings({ LOGIN_RATE_LIMIT: "3" }).LOGIN_RATE_LIMIT).toBe(3);
    expect(() => loadSettings({ LOGIN_RATE_LIMIT: "0" })).toThrow(/LOGIN_RATE_LIMIT/);
    expect(() => loadSettings({ LOGIN_RATE_LIMIT: "lots" })).toThrow(/LOGIN_RATE_LIMIT/);
  });

  it("is what the app enforces", async () => {
    const strict = await createAppHarness({ loginRateLimit: 2 });
    try {
      const user = await strict.createUser("Staff");
      const attempt = () => strict.call("POST", "/auth/login", null, { email: user.email, password: TEST_PASSWORD });
      expect((await attempt()).statusCode).toBe(200);
      expect((await attempt()).statusCode).toBe(200);
      const third = await attempt();
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ message: MESSAGE });
    } finally {
      await strict.close();
    }
  });
});
