import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify from "fastify";
import type { SessionUser } from "@tafsiri/api";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { registerSignInLimit, signInAllowed } from "../../src/plugins/sign-in-limit";
import { createAppHarness, type AppHarness } from "../fixtures/app-harness";

/**
 * Hostile suite, attack: password guessing through tRPC batching. One HTTP request to
 * `/trpc/accounts.login,accounts.login,…?batch=1` carries several sign-ins; each must count
 * against LOGIN_RATE_LIMIT as a sign-in of its own, as if sent one by one, and a request whose
 * sign-ins exceed what is left of the minute is refused whole (429 for every call).
 *
 * Fastify refuses a path parameter over 100 characters (414), so one request holds at most six
 * `accounts.login` calls: 11 attempts take two requests, and the last describe checks the
 * counting of 11 attempts in one request on the limiter itself.
 */

const MESSAGE = "Too many sign-in attempts. Please wait a minute and try again.";
const INVALID = "Invalid email or password.";
const LIMIT = 10;

let h: AppHarness;
let staff: SessionUser;

beforeAll(async () => {
  h = await createAppHarness({ loginRateLimit: LIMIT });
  staff = await h.createUser("Staff");
});
afterAll(() => h.close());

/** `n` accounts.login calls in one batched tRPC request from `ip`. */
function batchedLogin(ip: string, n: number, password = "Wrong-pass1!") {
  const paths = Array.from({ length: n }, () => "accounts.login").join(",");
  const body = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), { email: staff.email, password }]));
  return h.app.inject({ method: "POST", url: `/trpc/${paths}?batch=1`, payload: body, remoteAddress: ip });
}

/** The error message of every call of a batched answer. */
function messages(res: { json<T>(): T }): string[] {
  return res.json<Array<{ error?: { message: string } }>>().map((r) => r.error?.message ?? "no error");
}

const times = (n: number, message: string) => Array.from({ length: n }, () => message);

describe("sign-in batch: several accounts.login calls in one tRPC request", () => {
  it("counts two batches of 6 as 12 attempts: the second batch (attempts 7 to 12) is refused whole", async () => {
    const ip = "10.1.0.1";
    const first = await batchedLogin(ip, 6);
    expect(first.statusCode, first.body).toBe(401);
    expect(messages(first)).toEqual(times(6, INVALID));

    const second = await batchedLogin(ip, 6, TEST_PASSWORD);
    expect(second.statusCode, second.body).toBe(429);
    expect(messages(second)).toEqual(times(6, MESSAGE));
    expect(Number(second.headers["retry-after"])).toBeGreaterThan(0);

    // The minute is used up: a single sign-in, even with the right password, is refused.
    const single = await h.call("POST", "/auth/login", null, { email: staff.email, password: TEST_PASSWORD }, { ip });
    expect(single.statusCode).toBe(429);
    expect(single.json()).toMatchObject({ message: MESSAGE });
  });

  it("counts a batch of 6 as six attempts: four single ones are checked, the 11th is refused", async () => {
    const ip = "10.1.0.2";
    expect((await batchedLogin(ip, 6)).statusCode).toBe(401);
    for (let i = 0; i < LIMIT - 6; i += 1) expect((await batchedLogin(ip, 1)).statusCode).toBe(401);
    const eleventh = await batchedLogin(ip, 1, TEST_PASSWORD);
    expect(eleventh.statusCode).toBe(429);
    expect(messages(eleventh)).toEqual([MESSAGE]);
  });

  it("refuses a whole batch whose calls exceed what is left of the minute", async () => {
    const ip = "10.1.0.3";
    expect((await batchedLogin(ip, 6)).statusCode).toBe(401);
    expect((await batchedLogin(ip, 3)).statusCode).toBe(401);
    const two = await batchedLogin(ip, 2, TEST_PASSWORD);
    expect(two.statusCode).toBe(429);
    expect(messages(two)).toEqual([MESSAGE, MESSAGE]);
  });

  it("checks no password of a request with 11 sign-ins", async () => {
    const ip = "10.1.0.4";
    const eleven = await batchedLogin(ip, 11, TEST_PASSWORD);
    // 414 from Fastify's path length limit today; 429 from the sign-in limit were that limit raised.
    expect([414, 429], eleven.body).toContain(eleven.statusCode);
    expect(eleven.body).not.toContain(INVALID);
    expect(eleven.body).not.toContain("token");
  });

  it("leaves other procedures of a refused IP, and other IPs, alone", async () => {
    const ip = "10.1.0.5";
    expect((await batchedLogin(ip, 6)).statusCode).toBe(401);
    expect((await batchedLogin(ip, 6)).statusCode).toBe(429);
    const token = await h.token(staff);
    const other = await h.app.inject({
      method: "GET",
      url: "/trpc/accounts.me,tasks.list?batch=1&input=%7B%221%22%3A%7B%7D%7D",
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: ip,
    });
    expect(other.statusCode, other.body).toBe(200);
    expect((await batchedLogin("10.1.0.6", 1, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe("sign-in batch: the limiter counts every attempt of one request", () => {
  it("refuses 11 attempts in one request under a limit of 10, and 10 use up the minute", async () => {
    const app = Fastify();
    await registerSignInLimit(app, LIMIT);
    app.post<{ Querystring: { n: string } }>("/attempts", async (req, reply) => ({
      allowed: await signInAllowed(app, req, reply, Number(req.query.n)),
    }));
    await app.ready();
    try {
      const attempt = (ip: string, n: number) =>
        app.inject({ method: "POST", url: `/attempts?n=${n}`, remoteAddress: ip }).then((res) => ({
          allowed: res.json<{ allowed: boolean }>().allowed,
          retryAfter: res.headers["retry-after"],
        }));

      const eleven = await attempt("10.2.0.1", 11);
      expect(eleven.allowed).toBe(false);
      expect(Number(eleven.retryAfter)).toBeGreaterThan(0);
      expect((await attempt("10.2.0.1", 1)).allowed).toBe(false);

      expect((await attempt("10.2.0.2", 10)).allowed).toBe(true);
      expect((await attempt("10.2.0.2", 1)).allowed).toBe(false);
    } finally {
      await app.close();
    }
  });
});
