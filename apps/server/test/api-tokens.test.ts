import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@tafsiri/api";
import { API_TOKEN_NEEDS_SIGN_IN, API_TOKEN_NO_EXPIRY_ADMINS_ONLY, API_TOKEN_READ_ONLY } from "@tafsiri/domain";
import { createAppHarness, type AppHarness } from "./fixtures/app-harness";
import { liveClient, listen, waitUntil, type LiveClient } from "./fixtures/live-client";

/**
 * Decision 036, API tokens: a person's `tfs_` tokens act as them over REST, tRPC and the
 * WebSocket within their scope, until revoked, expired, or ended with the owner's sessions; only
 * their hash is stored; tokens never manage tokens; every change is in the audit log.
 */

let h: AppHarness;
let baseUrl: string;
let admin: SessionUser;
let staff: SessionUser;
let adminJwt: string;
let staffJwt: string;
const clients: LiveClient[] = [];

beforeAll(async () => {
  h = await createAppHarness();
  baseUrl = await listen(h.app);
  admin = await h.createUser("Admin");
  staff = await h.createUser("Staff");
  adminJwt = await h.token(admin);
  staffJwt = await h.token(staff);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await h.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Creates a token over tRPC's HTTP with `jwt`; answers the token and its id. */
async function createToken(
  jwt: string,
  input: { name: string; scope: "read" | "write"; expiresAt: string | null },
): Promise<{ token: string; id: string }> {
  const res = await h.call("POST", "/trpc/apiTokens.create", jwt, input);
  expect(res.statusCode, res.body).toBe(200);
  const out = res.json<{ result: { data: { token: string; view: { id: string } } } }>().result.data;
  return { token: out.token, id: out.view.id };
}

/** The message of a tRPC error answer. */
const trpcMessage = (body: string) => (JSON.parse(body) as { error: { message: string } }).error.message;

describe("API tokens (decision 036)", () => {
  it("a write token acts as its owner over REST and tRPC, is stored only as a hash, and records its last use", async () => {
    const { token, id } = await createToken(staffJwt, { name: "pipeline", scope: "write", expiresAt: inDays(30) });
    expect(token).toMatch(/^tfs_[A-Za-z0-9_-]{40}$/);
    const stored = await h.deps.db.selectFrom("apiTokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.hint).toBe(token.slice(0, 8));

    const profile = await h.call("GET", `/auth/profile/${staff.id}`, token);
    expect(profile.statusCode, profile.body).toBe(200);
    const me = await h.call("GET", "/trpc/accounts.me", token);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json<{ result: { data: { id: string } } }>().result.data.id).toBe(staff.id);

    const used = await h.deps.db.selectFrom("apiTokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(used.lastUsedAt).not.toBeNull();
    expect(used.lastUsedIp).toBe("127.0.0.1");

    const mine = await h.caller(staff).apiTokens.mine();
    expect(mine.tokens.find((t) => t.id === id)).toMatchObject({ name: "pipeline", state: "active", scope: "write" });
    expect(JSON.stringify(mine)).not.toContain(token);
  });

  it("a read-only token reads but changes nothing: 403 on REST writes and on mutations", async () => {
    const { token } = await createToken(staffJwt, { name: "reader", scope: "read", expiresAt: inDays(90) });
    expect((await h.call("GET", "/trpc/accounts.me", token)).statusCode).toBe(200);
    const rest = await h.call("POST", `/api/submissions/${staff.id}/comments`, token, { comment: "x" });
    expect(rest.statusCode).toBe(403);
    expect(rest.body).toContain(API_TOKEN_READ_ONLY);
    const mutation = await h.call("POST", "/trpc/notifications.markAllRead", token, {});
    expect(mutation.statusCode).toBe(403);
    expect(trpcMessage(mutation.body)).toBe(API_TOKEN_READ_ONLY);
  });

  it("a staff token on an admin path is refused as its owner is", async () => {
    const { token } = await createToken(staffJwt, { name: "staff", scope: "write", expiresAt: inDays(30) });
    expect((await h.call("GET", "/api/participants", token)).statusCode).toBe(403);
    expect((await h.call("GET", "/trpc/apiTokens.all", token)).statusCode).toBe(403);
  });

  it("a token never manages tokens nor turns into a session", async () => {
    const { token, id } = await createToken(staffJwt, { name: "no-escalation", scope: "write", expiresAt: inDays(30) });
    const create = await h.call("POST", "/trpc/apiTokens.create", token, {
      name: "child",
      scope: "write",
      expiresAt: inDays(30),
    });
    expect(create.statusCode).toBe(403);
    expect(trpcMessage(create.body)).toBe(API_TOKEN_NEEDS_SIGN_IN);
    expect((await h.call("POST", "/trpc/apiTokens.revoke", token, { tokenId: id })).statusCode).toBe(403);
    const renew = await h.call("POST", "/trpc/accounts.renewSession", token, {});
    expect(renew.statusCode).toBe(403);
  });

  it("refuses bad input and other people's tokens, changing nothing", async () => {
    const noExpiry = await h.call("POST", "/trpc/apiTokens.create", staffJwt, {
      name: "forever",
      scope: "write",
      expiresAt: null,
    });
    expect(noExpiry.statusCode).toBe(400);
    expect(trpcMessage(noExpiry.body)).toBe(API_TOKEN_NO_EXPIRY_ADMINS_ONLY);
    const past = await h.call("POST", "/trpc/apiTokens.create", staffJwt, {
      name: "past",
      scope: "read",
      expiresAt: inDays(-1),
    });
    expect(past.statusCode).toBe(400);
    const long = await h.call("POST", "/trpc/apiTokens.create", staffJwt, {
      name: "x".repeat(101),
      scope: "read",
      expiresAt: inDays(1),
    });
    expect(long.statusCode).toBe(400);
    const scope = await h.call("POST", "/trpc/apiTokens.create", staffJwt, {
      name: "admin",
      scope: "admin",
      expiresAt: inDays(1),
    });
    expect(scope.statusCode).toBe(400);
    expect(
      (await h.call("POST", "/trpc/apiTokens.create", null, { name: "a", scope: "read", expiresAt: null })).statusCode,
    ).toBe(401);

    const other = await h.createUser("Staff");
    const { id } = await createToken(await h.token(other), { name: "theirs", scope: "read", expiresAt: inDays(5) });
    const revoke = await h.call("POST", "/trpc/apiTokens.revoke", staffJwt, { tokenId: id });
    expect(revoke.statusCode).toBe(403);
    expect((await h.call("POST", "/trpc/apiTokens.revoke", staffJwt, { tokenId: "not-an-id" })).statusCode).toBe(400);
    expect(
      (await h.call("POST", "/trpc/apiTokens.revoke", staffJwt, { tokenId: "00000000-0000-4000-8000-000000000000" }))
        .statusCode,
    ).toBe(404);
    const theirs = await h.caller(other).apiTokens.mine();
    expect(theirs.tokens[0]!.state).toBe("active");
    // An admin's token may never expire.
    const forever = await createToken(adminJwt, { name: "monitoring", scope: "read", expiresAt: null });
    expect((await h.call("GET", "/trpc/accounts.me", forever.token)).statusCode).toBe(200);
  });

  it("revoking ends a token at once, closing its WebSocket; an admin sees and revokes anyone's; both audited", async () => {
    const { token, id } = await createToken(staffJwt, { name: "live", scope: "read", expiresAt: inDays(30) });
    const live = liveClient(baseUrl, token);
    clients.push(live);
    await h.deps.events.idle();
    await live.subscribe();

    const all = await h.caller(admin).apiTokens.all({ page: 1, limit: 100 });
    expect(all.tokens.find((t) => t.id === id)).toMatchObject({ owner: { id: staff.id }, name: "live" });
    // A page past the end is empty but still counts every token.
    const past = await h.caller(admin).apiTokens.all({ page: 50, limit: 100 });
    expect(past.tokens).toEqual([]);
    expect(past.total).toBe(all.total);
    expect(all.total).toBeGreaterThan(0);
    const res = await h.call("POST", "/trpc/apiTokens.revoke", adminJwt, { tokenId: id });
    expect(res.statusCode, res.body).toBe(200);
    await waitUntil(() => live.closeCodes.includes(4401), "the token's socket's close", 2_000);
    expect((await h.call("GET", "/trpc/accounts.me", token)).statusCode).toBe(401);
    expect((await h.call("GET", `/auth/profile/${staff.id}`, token)).statusCode).toBe(401);

    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select(["action", "actorId"])
      .where("entity", "=", "api-token")
      .where("entityId", "=", id)
      .orderBy("createdAt")
      .execute();
    expect(audit).toEqual([
      { action: "create", actorId: staff.id },
      { action: "revoke", actorId: admin.id },
    ]);
  });

  it("an expired token, a deactivated owner's and one from before 'Sign out everywhere' answer 401", async () => {
    const expired = await createToken(staffJwt, { name: "old", scope: "read", expiresAt: inDays(1) });
    await h.deps.db
      .updateTable("apiTokens")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", expired.id)
      .execute();
    expect((await h.call("GET", "/trpc/accounts.me", expired.token)).statusCode).toBe(401);

    const leaver = await h.createUser("Staff");
    const leaverToken = await createToken(await h.token(leaver), { name: "l", scope: "read", expiresAt: inDays(3) });
    expect((await h.call("GET", "/trpc/accounts.me", leaverToken.token)).statusCode).toBe(200);
    await h.caller(admin).accounts.setActive({ userId: leaver.id, active: false });
    expect((await h.call("GET", "/trpc/accounts.me", leaverToken.token)).statusCode).toBe(401);

    const signedOut = await h.createUser("Staff");
    const before = await createToken(await h.token(signedOut), { name: "s", scope: "read", expiresAt: inDays(3) });
    expect((await h.call("POST", "/auth/signouteverywhere", adminJwt, { userId: signedOut.id })).statusCode).toBe(200);
    expect((await h.call("GET", "/trpc/accounts.me", before.token)).statusCode).toBe(401);
    // A made-up token of the right shape is refused too.
    expect((await h.call("GET", "/trpc/accounts.me", `tfs_${"a".repeat(40)}`)).statusCode).toBe(401);
  });
});
