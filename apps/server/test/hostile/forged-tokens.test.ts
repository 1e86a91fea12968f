import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { SignJWT, base64url, decodeJwt, type JWTPayload } from "jose";
import type { SessionUser } from "@tafsiri/api";
import { createAppHarness, failed, type AppHarness } from "../fixtures/app-harness";
import { listen, rawConnect } from "../fixtures/live-client";

/**
 * Hostile suite, attack: forged session tokens. Each token below differs from a valid one in
 * one way only (its algorithm, key, claims or signature); each must answer 401 'You must be
 * signed in.' over REST and be refused by the WebSocket.
 */

/** What the server puts in every token it signs (packages/api/src/services/auth.ts). */
const ISSUER = "tafsiri";
const AUDIENCE = "tafsiri-api";

let h: AppHarness;
let baseUrl: string;
let staff: SessionUser;
let version: number;

beforeAll(async () => {
  h = await createAppHarness();
  baseUrl = await listen(h.app);
  staff = await h.createUser("Staff");
  version = decodeJwt(await h.token(staff)).sv as number;
});
afterAll(() => h.close());

const now = () => Math.floor(Date.now() / 1000);

/** A valid token's claims for `staff`, with `changes` applied (an `undefined` value drops the claim). */
function claims(changes: Record<string, unknown> = {}): JWTPayload {
  const base: Record<string, unknown> = {
    sub: staff.id,
    role: "Staff",
    sv: version,
    iat: now(),
    exp: now() + 3_600,
    iss: ISSUER,
    aud: AUDIENCE,
    ...changes,
  };
  return Object.fromEntries(Object.entries(base).filter(([, value]) => value !== undefined));
}

/** Signs `payload` with HS256 and `key` (the server's own unless another is given). */
function sign(payload: JWTPayload, key: Uint8Array = h.deps.jwtSecret): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key);
}

const encode = (value: unknown) => base64url.encode(JSON.stringify(value));

/** GET /auth/profile/{staff} with `token`. */
function profile(token: string) {
  return h.call("GET", `/auth/profile/${staff.id}`, token);
}

/** The token is refused over REST (401 'You must be signed in.') and by the WebSocket. */
async function expectRefused(token: string): Promise<void> {
  const res = await profile(token);
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json()).toEqual(failed("You must be signed in."));

  const socket = await rawConnect(baseUrl, { token });
  expect(socket.messages.length).toBeGreaterThan(0);
  for (const message of socket.messages) {
    expect(message).toMatchObject({ error: { message: "You must be signed in.", data: { code: "UNAUTHORIZED" } } });
  }
  expect(socket.closeCode).not.toBeNull();
}

describe("forged tokens", () => {
  it("(the baseline: a token with exactly these claims, signed with the key, is accepted)", async () => {
    const token = await sign(claims());
    expect((await profile(token)).statusCode).toBe(200);
    const socket = await rawConnect(baseUrl, { token }, 500);
    expect(socket.messages).toEqual([{ id: 1, result: { type: "started" } }]);
    expect(socket.closeCode).toBeNull();
  });

  it("alg none: an unsigned token", async () => {
    await expectRefused(`${encode({ alg: "none", typ: "JWT" })}.${encode(claims())}.`);
  });

  it("wrong key: signed with another secret", async () => {
    await expectRefused(await sign(claims(), new TextEncoder().encode(randomBytes(32).toString("hex"))));
  });

  it("expired: exp in the past", async () => {
    await expectRefused(await sign(claims({ iat: now() - 7_200, exp: now() - 3_600 })));
  });

  it("tampered payload: a staff token whose role was changed to Admin", async () => {
    const [header, , signature] = (await sign(claims())).split(".");
    await expectRefused(`${header}.${encode(claims({ role: "Admin" }))}.${signature}`);
  });

  it("missing exp: a token that never expires", async () => {
    await expectRefused(await sign(claims({ exp: undefined })));
  });

  it("missing iat", async () => {
    await expectRefused(await sign(claims({ iat: undefined })));
  });

  it("iat in the future: issued an hour from now", async () => {
    await expectRefused(await sign(claims({ iat: now() + 3_600, exp: now() + 7_200 })));
  });

  it("wrong issuer", async () => {
    await expectRefused(await sign(claims({ iss: "someone-else" })));
  });

  it("missing issuer", async () => {
    await expectRefused(await sign(claims({ iss: undefined })));
  });

  it("wrong audience", async () => {
    await expectRefused(await sign(claims({ aud: "another-api" })));
  });

  it("missing audience", async () => {
    await expectRefused(await sign(claims({ aud: undefined })));
  });

  it("missing sv: no session version", async () => {
    await expectRefused(await sign(claims({ sv: undefined })));
  });
});
