import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { decodeJwt } from "jose";
import type { SessionUser } from "@tafsiri/api";
import { signToken } from "@tafsiri/api/testing/services";
import { SESSION_ENDED_CLOSE_CODE } from "@tafsiri/domain";
import { createAppHarness, type AppHarness } from "../fixtures/app-harness";
import { liveClient, listen, rawConnect, waitUntil, type LiveClient, type RawOutcome } from "../fixtures/live-client";

/**
 * Hostile suite, attack: the live-events WebSocket (/trpc) without a valid session: no token,
 * a malformed or forged token, a token in the wrong place, an expired token; and a socket that
 * outlives its session: its token expiring while it is open (closed 4401), its user deactivated
 * (closed 4403) or signed out everywhere (closed 4401). A refused connection gets one UNAUTHORIZED
 * 'You must be signed in.' and is closed by the server with 4401, the code of an ended session, so
 * clients stop reconnecting with a token that cannot succeed (before the fix it was closed with no
 * code, 1005, and tRPC's client reconnected forever); it never gets a single event.
 */

const SIGN_IN_REQUIRED = "You must be signed in.";

let h: AppHarness;
let baseUrl: string;
let admin: SessionUser;
let adminToken: string;
const clients: LiveClient[] = [];

beforeAll(async () => {
  h = await createAppHarness();
  baseUrl = await listen(h.app);
  admin = await h.createUser("Admin");
  adminToken = await h.token(admin);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await h.close();
});

/** The session version of `user` as stored (carried in their tokens). */
async function versionOf(user: SessionUser): Promise<number> {
  const row = await h.deps.db
    .selectFrom("users")
    .select("sessionVersion")
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  return row.sessionVersion;
}

/** A refused connection: only UNAUTHORIZED 'You must be signed in.' came back, and the server closed the socket with 4401. */
function expectRefused(outcome: RawOutcome, what: string) {
  expect(outcome.messages.length, what).toBeGreaterThan(0);
  for (const message of outcome.messages) {
    expect(message, what).toMatchObject({ error: { message: SIGN_IN_REQUIRED, data: { code: "UNAUTHORIZED" } } });
    expect(message.result, what).toBeUndefined();
  }
  expect(outcome.closeCode, `${what}: the server closes the socket with 4401`).toBe(SESSION_ENDED_CLOSE_CODE);
}

/** A live client of `user`, subscribed to events.onEvent. */
async function subscribed(token: string): Promise<LiveClient> {
  const client = liveClient(baseUrl, token);
  clients.push(client);
  await h.deps.events.idle();
  await client.subscribe();
  return client;
}

describe("connecting without a valid session is refused", () => {
  it("no connectionParams at all", async () => {
    expectRefused(await rawConnect(baseUrl, null), "no connectionParams");
  });

  it("connectionParams without a token, or with an empty one", async () => {
    expectRefused(await rawConnect(baseUrl, {}), "{}");
    expectRefused(await rawConnect(baseUrl, { token: "" }), "empty token");
  });

  it("a token that is not a JWT, a truncated one, and one signed with another key", async () => {
    const staff = await h.createUser("Staff");
    const valid = await h.token(staff);
    const otherKey = new TextEncoder().encode(randomBytes(32).toString("hex"));
    const cases: Record<string, string> = {
      garbage: "not-a-token",
      truncated: valid.slice(0, -4),
      "payload only": valid.split(".")[1]!,
      "another key": await signToken(otherKey, { id: staff.id, role: "Staff", sessionVersion: await versionOf(staff) }),
      "Bearer prefix": `Bearer ${valid}`,
    };
    for (const [what, token] of Object.entries(cases)) expectRefused(await rawConnect(baseUrl, { token }), what);
  });

  it("a token in the URL instead of connectionParams is not read", async () => {
    const staff = await h.createUser("Staff");
    const token = await h.token(staff);
    const outcome = await new Promise<RawOutcome>((resolve, reject) => {
      const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/trpc?token=${encodeURIComponent(token)}`);
      const result: RawOutcome = { messages: [], closeCode: null };
      const timer = setTimeout(() => {
        ws.terminate();
        resolve(result);
      }, 3_000);
      ws.on("open", () =>
        ws.send(JSON.stringify({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } })),
      );
      ws.on("message", (data) => result.messages.push(JSON.parse(String(data)) as RawOutcome["messages"][number]));
      ws.on("close", (code) => {
        clearTimeout(timer);
        result.closeCode = code;
        resolve(result);
      });
      ws.on("error", reject);
    });
    expectRefused(outcome, "token in the URL");
  });

  it("an expired token", async () => {
    const staff = await h.createUser("Staff");
    const token = await signToken(
      h.deps.jwtSecret,
      { id: staff.id, role: "Staff", sessionVersion: await versionOf(staff) },
      1,
    );
    await new Promise((resolve) => setTimeout(resolve, decodeJwt(token).exp! * 1000 - Date.now() + 50));
    expectRefused(await rawConnect(baseUrl, { token }), "expired");
  });

  it("a deactivated user's token, and an ended session's token", async () => {
    const deactivated = await h.createUser("Staff");
    const deactivatedToken = await h.token(deactivated);
    expect(
      (await h.call("POST", "/api/update-status", adminToken, { userId: deactivated.id, status: "deactivate" }))
        .statusCode,
    ).toBe(200);
    expectRefused(await rawConnect(baseUrl, { token: deactivatedToken }), "deactivated");

    const ended = await h.createUser("Staff");
    const endedToken = await h.token(ended);
    expect((await h.call("POST", "/auth/signouteverywhere", adminToken, { userId: ended.id })).statusCode).toBe(200);
    expectRefused(await rawConnect(baseUrl, { token: endedToken }), "signed out everywhere");
  });

  it("a refused connection is closed with 4401 (not 1005), so the client stops reconnecting", async () => {
    const deactivated = await h.createUser("Staff");
    const token = await h.token(deactivated);
    await h.call("POST", "/api/update-status", adminToken, { userId: deactivated.id, status: "deactivate" });
    for (const [what, params] of [
      ["no token", {}],
      ["a garbage token", { token: "not-a-token" }],
      ["a deactivated user's token", { token }],
    ] as const) {
      const outcome = await rawConnect(baseUrl, params);
      expect(outcome.closeCode, what).toBe(SESSION_ENDED_CLOSE_CODE);
      expect(outcome.messages, what).toEqual([
        { id: null, error: expect.objectContaining({ message: SIGN_IN_REQUIRED }) as unknown },
      ]);
    }
  });

  it("(the control: a valid token opens a subscription that stays open)", async () => {
    const staff = await h.createUser("Staff");
    const outcome = await rawConnect(baseUrl, { token: await h.token(staff) }, 500);
    expect(outcome.messages).toEqual([{ id: 1, result: { type: "started" } }]);
    expect(outcome.closeCode).toBeNull();
  });
});

describe("an open socket does not outlive its session", () => {
  it("is closed with 4401 when its token expires", async () => {
    const staff = await h.createUser("Staff");
    const token = await signToken(
      h.deps.jwtSecret,
      { id: staff.id, role: "Staff", sessionVersion: await versionOf(staff) },
      2,
    );
    const expiresAt = decodeJwt(token).exp! * 1000;
    const outcome = await rawConnect(baseUrl, { token }, 5_000);
    expect(outcome.messages[0]).toEqual({ id: 1, result: { type: "started" } });
    expect(outcome.closeCode).toBe(4401);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(Date.now()).toBeLessThan(expiresAt + 1_000);
  });

  it("is closed with 4403 when its user is deactivated, and the token is refused from then on", async () => {
    const staff = await h.createUser("Staff");
    const token = await h.token(staff);
    const live = await subscribed(token);
    const res = await h.call("POST", "/api/update-status", adminToken, { userId: staff.id, status: "deactivate" });
    expect(res.statusCode, res.body).toBe(200);
    await waitUntil(() => live.closeCodes.includes(4403), "the socket's 4403 close", 2_000);
    expect(live.errors).toEqual([{ code: "UNAUTHORIZED", message: "Your account has been deactivated." }]);
    expectRefused(await rawConnect(baseUrl, { token }), "the deactivated user's token afterwards");
  });

  it("is closed with 4401 when the user is signed out everywhere", async () => {
    const staff = await h.createUser("Staff");
    const token = await h.token(staff);
    const live = await subscribed(token);
    const res = await h.call("POST", "/auth/signouteverywhere", adminToken, { userId: staff.id });
    expect(res.statusCode, res.body).toBe(200);
    await waitUntil(() => live.closeCodes.includes(4401), "the socket's 4401 close", 2_000);
    expect(live.errors).toEqual([{ code: "UNAUTHORIZED", message: "Your session has ended. Please sign in again." }]);
    expectRefused(await rawConnect(baseUrl, { token }), "the ended session's token afterwards");
  });
});
