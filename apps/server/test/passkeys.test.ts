import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import type { SessionUser } from "@tafsiri/api";
import {
  PASSKEY_CHALLENGE_EXPIRED,
  PASSKEY_NAME_TOO_LONG,
  PASSKEY_NEEDS_SIGN_IN,
  PASSKEY_NOT_FOUND,
  PASSKEY_NOT_VERIFIED,
  PASSKEY_TOO_MANY,
  PASSKEY_UNKNOWN,
  PASSKEYS_PER_USER,
} from "@tafsiri/domain";
import { createSoftAuthenticator } from "@tafsiri/api/testing/soft-authenticator";
import {
  hasPasskey,
  passkeyConfirmOptions,
  verifyPasskeyConfirmation,
} from "../../../packages/api/src/services/second-factor/passkeys";
import { createAppHarness, type AppHarness } from "./fixtures/app-harness";

/**
 * Decision 038, passkeys: registration and sign-in with real WebAuthn answers (a software
 * authenticator: ES256 keys, 'none' attestation), over tRPC's HTTP as the web app calls them. And
 * the hostile side: a replayed assertion, a challenge used twice (also at once), a wrong origin or
 * RP ID, enrolment with another account's challenge, an expired challenge, a counter that goes
 * back, no session, an API token, malformed and oversized input, and another person's passkey id.
 */

let h: AppHarness;
let staff: SessionUser;
let other: SessionUser;
let admin: SessionUser;
let staffJwt: string;
let otherJwt: string;
let adminJwt: string;

const RP = { origin: "http://localhost:3000", rpId: "localhost" };
const DEACTIVATED = "Your account has been deactivated. Contact an administrator.";

beforeAll(async () => {
  h = await createAppHarness();
  [staff, other, admin] = [await h.createUser("Staff"), await h.createUser("Staff"), await h.createUser("Admin")];
  [staffJwt, otherJwt, adminJwt] = await Promise.all([h.token(staff), h.token(other), h.token(admin)]);
});
afterAll(() => h.close());

interface TrpcAnswer<T> {
  status: number;
  data?: T;
  message?: string;
}

/** A tRPC mutation over HTTP (as the web app sends it), with `jwt` when given. */
async function mutate<T = unknown>(path: string, jwt: string | null, input?: unknown): Promise<TrpcAnswer<T>> {
  const res = await h.call("POST", `/trpc/${path}`, jwt, input ?? {});
  const body = res.json<{ result?: { data: T }; error?: { message: string } }>();
  return { status: res.statusCode, data: body.result?.data, message: body.error?.message };
}

async function query<T = unknown>(path: string, jwt: string | null): Promise<TrpcAnswer<T>> {
  const res = await h.call("GET", `/trpc/${path}`, jwt);
  const body = res.json<{ result?: { data: T }; error?: { message: string } }>();
  return { status: res.statusCode, data: body.result?.data, message: body.error?.message };
}

type Options = { challenge: string; user: { id: string; name: string; displayName: string } } & Record<string, unknown>;
type Authenticator = ReturnType<typeof createSoftAuthenticator>;

/** Registers a passkey of `jwt`'s user on `device` (named `name`); answers its id. */
async function enrol(jwt: string, device: Authenticator, name?: string): Promise<string> {
  const options = await mutate<Options>("passkeys.registrationOptions", jwt);
  expect(options.status, options.message).toBe(200);
  const res = await mutate<{ passkey: { id: string } }>("passkeys.register", jwt, {
    ...(name === undefined ? {} : { name }),
    response: device.register(options.data!),
  });
  expect(res.status, res.message).toBe(200);
  return res.data!.passkey.id;
}

/** Fresh sign-in options (public). */
async function signInOptions(): Promise<{ challenge: string }> {
  const res = await mutate<{ challenge: string }>("passkeys.signInOptions", null);
  expect(res.status, res.message).toBe(200);
  return res.data!;
}

const countRows = async (table: "passkeys" | "webauthnChallenges") =>
  Number(
    (
      await h.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const audits = (userId: string) =>
  h.deps.db
    .selectFrom("auditLog")
    .select(["action", "entity", "entityId", "detail"])
    .where("actorId", "=", userId)
    .where("entity", "=", "passkey")
    .orderBy("createdAt")
    .execute();

const notices = (userId: string) =>
  h.deps.db
    .selectFrom("notifications")
    .select(["message", "link"])
    .where("recipientId", "=", userId)
    .orderBy("createdAt")
    .execute();

describe("passkeys (decision 038)", () => {
  const laptop = createSoftAuthenticator(RP);
  let laptopPasskeyId: string;

  it("registers a passkey: discoverable, user verification preferred, audited, the owner notified", async () => {
    const options = await mutate<Options>("passkeys.registrationOptions", staffJwt);
    expect(options.status, options.message).toBe(200);
    expect(options.data).toMatchObject({
      rp: { id: "localhost", name: "Tafsiri" },
      user: { name: staff.email, displayName: staff.username },
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
      attestation: "none",
      excludeCredentials: [],
    });
    // The user handle is the account's id, no personal data.
    expect(Buffer.from(options.data!.user.id, "base64url").toString("utf8")).toBe(staff.id);

    const res = await mutate<{ passkey: { id: string; name: string; lastUsedAt: string | null }; message: string }>(
      "passkeys.register",
      staffJwt,
      { name: "  Work laptop ", response: laptop.register(options.data!) },
    );
    expect(res.status, res.message).toBe(200);
    expect(res.data).toMatchObject({
      passkey: { name: "Work laptop", lastUsedAt: null },
      message: "Passkey 'Work laptop' added.",
    });
    laptopPasskeyId = res.data!.passkey.id;

    const row = await h.deps.db
      .selectFrom("passkeys")
      .selectAll()
      .where("id", "=", laptopPasskeyId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ userId: staff.id, credentialId: laptop.credentials[0]!.id, transports: ["internal"] });
    expect(Number(row.counter)).toBe(0);
    expect(await audits(staff.id)).toEqual([
      { action: "passkey.added", entity: "passkey", entityId: laptopPasskeyId, detail: { name: "Work laptop" } },
    ]);
    expect(await notices(staff.id)).toEqual([
      { message: "A passkey ('Work laptop') was added to your account.", link: "/settings/profile" },
    ]);
    expect(await hasPasskey(h.deps.db, staff.id)).toBe(true);
    expect(await hasPasskey(h.deps.db, other.id)).toBe(false);

    // The next registration excludes it (one authenticator, one passkey), and is named 'Passkey 2' by default.
    const again = await mutate<Options & { excludeCredentials: Array<{ id: string }> }>(
      "passkeys.registrationOptions",
      staffJwt,
    );
    expect(again.data!.excludeCredentials.map((c) => c.id)).toEqual([laptop.credentials[0]!.id]);
    const phone = createSoftAuthenticator(RP);
    const second = await mutate<{ passkey: { id: string; name: string } }>("passkeys.register", staffJwt, {
      response: phone.register(again.data!),
    });
    expect(second.data?.passkey.name).toBe("Passkey 2");
    await mutate("passkeys.remove", staffJwt, { passkeyId: second.data!.passkey.id });
  });

  it("signs in with it, no email: the answer is accounts.login's, the session's method is 'passkey'", async () => {
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "preferred", allowCredentials: [] });
    const res = await mutate<{ token: string; user: Record<string, unknown> }>("passkeys.signIn", null, {
      response: laptop.assert(options),
    });
    expect(res.status, res.message).toBe(200);
    expect(Object.keys(res.data!).sort()).toEqual(["token", "user"]);
    expect(res.data!.user).toEqual({
      id: staff.id,
      username: staff.username,
      email: staff.email,
      role: "Staff",
      active: true,
      image: null,
    });
    expect(decodeJwt(res.data!.token)).toMatchObject({ sub: staff.id, amr: "passkey" });
    const me = await query<{ id: string }>("accounts.me", res.data!.token);
    expect(me.data?.id).toBe(staff.id);

    const list = await query<{ passkeys: Array<{ id: string; name: string; createdAt: string; lastUsedAt: string }> }>(
      "passkeys.list",
      staffJwt,
    );
    expect(list.data!.passkeys).toEqual([
      expect.objectContaining({ id: laptopPasskeyId, name: "Work laptop", lastUsedAt: expect.any(String) }),
    ]);
    const row = await h.deps.db
      .selectFrom("passkeys")
      .select("counter")
      .where("id", "=", laptopPasskeyId)
      .executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
  });

  it("a replayed assertion is refused, and a challenge answers once, also when two answers race", async () => {
    const options = await signInOptions();
    const assertion = laptop.assert(options);
    expect((await mutate("passkeys.signIn", null, { response: assertion })).status).toBe(200);
    // The same answer again: its challenge is gone.
    expect(await mutate("passkeys.signIn", null, { response: assertion })).toMatchObject({
      status: 401,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    // A second, freshly signed answer to the used challenge.
    expect(await mutate("passkeys.signIn", null, { response: laptop.assert(options) })).toMatchObject({
      status: 401,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    // Two answers to one challenge at once: one signs in.
    const racing = await signInOptions();
    const [a, b] = [laptop.assert(racing), laptop.assert(racing)];
    const answers = await Promise.all([
      mutate("passkeys.signIn", null, { response: b }),
      mutate("passkeys.signIn", null, { response: a }),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 401]);
  });

  it("a counter that goes back (a cloned authenticator) is refused", async () => {
    const options = await signInOptions();
    laptop.credentials[0]!.counter -= 3;
    expect(await mutate("passkeys.signIn", null, { response: laptop.assert(options) })).toMatchObject({
      status: 401,
      message: PASSKEY_NOT_VERIFIED,
    });
    laptop.credentials[0]!.counter += 10;
  });

  it("a wrong origin or RP ID is refused, and uses its challenge up", async () => {
    const options = await signInOptions();
    expect(
      await mutate("passkeys.signIn", null, {
        response: laptop.assert(options, undefined, { origin: "https://tafsiri.example.net" }),
      }),
    ).toMatchObject({ status: 401, message: PASSKEY_NOT_VERIFIED });
    expect(await mutate("passkeys.signIn", null, { response: laptop.assert(options) })).toMatchObject({
      status: 401,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    const other = await signInOptions();
    expect(
      await mutate("passkeys.signIn", null, {
        response: laptop.assert(other, undefined, { rpId: "example.net" }),
      }),
    ).toMatchObject({ status: 401, message: PASSKEY_NOT_VERIFIED });

    // Registration from another site stores nothing.
    const before = await countRows("passkeys");
    const reg = await mutate<Options>("passkeys.registrationOptions", staffJwt);
    const phishing = createSoftAuthenticator({ origin: "https://tafsiri.example.net", rpId: "localhost" });
    expect(await mutate("passkeys.register", staffJwt, { response: phishing.register(reg.data!) })).toMatchObject({
      status: 400,
      message: PASSKEY_NOT_VERIFIED,
    });
    expect(await countRows("passkeys")).toBe(before);
  });

  it("refuses enrolment with another account's challenge, and a user id in the input changes nothing", async () => {
    const before = await countRows("passkeys");
    // The other staff member's options, answered while signed in as `staff`.
    const theirs = await mutate<Options>("passkeys.registrationOptions", otherJwt);
    const device = createSoftAuthenticator(RP);
    expect(await mutate("passkeys.register", staffJwt, { response: device.register(theirs.data!) })).toMatchObject({
      status: 400,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    expect(await countRows("passkeys")).toBe(before);
    // A userId beside the answer is no part of the input: the passkey is the caller's own.
    const own = await mutate<Options>("passkeys.registrationOptions", otherJwt);
    const res = await mutate<{ passkey: { id: string } }>("passkeys.register", otherJwt, {
      userId: staff.id,
      response: device.register(own.data!),
    });
    expect(res.status, res.message).toBe(200);
    const row = await h.deps.db
      .selectFrom("passkeys")
      .select("userId")
      .where("id", "=", res.data!.passkey.id)
      .executeTakeFirstOrThrow();
    expect(row.userId).toBe(other.id);
  });

  it("refuses an expired challenge, an unknown passkey, a wrong user handle and a deactivated account", async () => {
    const options = await signInOptions();
    await h.deps.db
      .updateTable("webauthnChallenges")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("challenge", "=", options.challenge)
      .execute();
    expect(await mutate("passkeys.signIn", null, { response: laptop.assert(options) })).toMatchObject({
      status: 401,
      message: PASSKEY_CHALLENGE_EXPIRED,
    });

    const stranger = createSoftAuthenticator(RP);
    stranger.register({ challenge: "x", user: { id: "eA", name: "x", displayName: "x" } });
    expect(await mutate("passkeys.signIn", null, { response: stranger.assert(await signInOptions()) })).toMatchObject({
      status: 401,
      message: PASSKEY_UNKNOWN,
    });

    const forged = laptop.assert(await signInOptions());
    forged.response.userHandle = Buffer.from(other.id).toString("base64url");
    expect(await mutate("passkeys.signIn", null, { response: forged })).toMatchObject({
      status: 401,
      message: PASSKEY_NOT_VERIFIED,
    });

    const leaver = await h.createUser("Staff");
    const device = createSoftAuthenticator(RP);
    await enrol(await h.token(leaver), device);
    await h.deps.db.updateTable("users").set({ active: false }).where("id", "=", leaver.id).execute();
    expect(await mutate("passkeys.signIn", null, { response: device.assert(await signInOptions()) })).toMatchObject({
      status: 401,
      message: DEACTIVATED,
    });
  });

  it("needs a session, and not an API token", async () => {
    expect((await query("passkeys.list", null)).status).toBe(401);
    expect((await mutate("passkeys.registrationOptions", null)).status).toBe(401);
    expect((await mutate("passkeys.rename", null, { passkeyId: laptopPasskeyId, name: "x" })).status).toBe(401);
    expect((await mutate("passkeys.remove", null, { passkeyId: laptopPasskeyId })).status).toBe(401);
    const { token } = await h.caller(staff).apiTokens.create({
      name: "script",
      scope: "write",
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(await mutate("passkeys.registrationOptions", token)).toMatchObject({
      status: 403,
      message: PASSKEY_NEEDS_SIGN_IN,
    });
    expect(await mutate("passkeys.remove", token, { passkeyId: laptopPasskeyId })).toMatchObject({
      status: 403,
      message: PASSKEY_NEEDS_SIGN_IN,
    });
  });

  it("refuses malformed and oversized input, changing nothing", async () => {
    const before = { passkeys: await countRows("passkeys"), audits: (await audits(staff.id)).length };
    const reg = await mutate<Options>("passkeys.registrationOptions", staffJwt);
    const good = createSoftAuthenticator(RP).register(reg.data!);
    const bad: unknown[] = [
      {},
      { response: null },
      { response: { ...good, type: "password" } },
      { response: { ...good, id: "not base64url!" } },
      { response: { ...good, id: "A".repeat(5000) } },
      { response: { ...good, response: { ...good.response, attestationObject: "A".repeat(20_000) } } },
      {
        response: {
          ...good,
          response: { ...good.response, clientDataJSON: Buffer.from("not json").toString("base64url") },
        },
      },
      { response: { ...good, response: { ...good.response, attestationObject: "AAAA" } } },
      { name: "n".repeat(65), response: good },
    ];
    for (const input of bad) {
      const res = await mutate("passkeys.register", staffJwt, input);
      expect(res.status, JSON.stringify(input).slice(0, 120)).toBe(400);
      expect(res.message).not.toMatch(/\n\s+at |TypeError|SyntaxError/);
    }
    expect((await mutate("passkeys.register", staffJwt, { name: "n".repeat(65), response: good })).message).toBe(
      PASSKEY_NAME_TOO_LONG,
    );
    for (const input of [
      {},
      { response: { id: 1 } },
      { response: { ...laptop.assert(await signInOptions()), id: "" } },
    ]) {
      expect((await mutate("passkeys.signIn", null, input)).status).toBe(400);
    }
    expect((await mutate("passkeys.rename", staffJwt, { passkeyId: "nope", name: "x" })).status).toBe(400);
    expect((await mutate("passkeys.rename", staffJwt, { passkeyId: laptopPasskeyId, name: "   " })).status).toBe(400);
    expect(await countRows("passkeys")).toBe(before.passkeys);
    expect((await audits(staff.id)).length).toBe(before.audits);
  });

  it("another person's passkey id answers 404 on rename and remove, and stays as it was", async () => {
    const before = await h.deps.db
      .selectFrom("passkeys")
      .selectAll()
      .where("id", "=", laptopPasskeyId)
      .executeTakeFirstOrThrow();
    for (const jwt of [otherJwt, adminJwt]) {
      expect(await mutate("passkeys.rename", jwt, { passkeyId: laptopPasskeyId, name: "mine now" })).toMatchObject({
        status: 404,
        message: PASSKEY_NOT_FOUND,
      });
      expect(await mutate("passkeys.remove", jwt, { passkeyId: laptopPasskeyId })).toMatchObject({
        status: 404,
        message: PASSKEY_NOT_FOUND,
      });
    }
    const missing = "00000000-0000-4000-8000-000000000038";
    expect((await mutate("passkeys.remove", staffJwt, { passkeyId: missing })).status).toBe(404);
    expect(
      await h.deps.db.selectFrom("passkeys").selectAll().where("id", "=", laptopPasskeyId).executeTakeFirstOrThrow(),
    ).toEqual(before);
    expect((await query<{ passkeys: unknown[] }>("passkeys.list", otherJwt)).data!.passkeys).not.toContainEqual(
      expect.objectContaining({ id: laptopPasskeyId }),
    );
  });

  it("confirms who a person is with their own passkey only (purpose 'confirm')", async () => {
    const options = await passkeyConfirmOptions(h.deps, staff.id);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([laptop.credentials[0]!.id]);
    await verifyPasskeyConfirmation(h.deps, staff.id, laptop.assert(options));
    // Used: not twice.
    await expect(verifyPasskeyConfirmation(h.deps, staff.id, laptop.assert(options))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    // Another person's passkey, on a challenge made for this one.
    const othersDevice = createSoftAuthenticator(RP);
    await enrol(otherJwt, othersDevice);
    const mine = await passkeyConfirmOptions(h.deps, staff.id);
    await expect(verifyPasskeyConfirmation(h.deps, staff.id, othersDevice.assert(mine))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: PASSKEY_NOT_VERIFIED,
    });
    // A sign-in challenge is no confirmation challenge, nor one made for someone else.
    await expect(
      verifyPasskeyConfirmation(h.deps, staff.id, laptop.assert(await signInOptions())),
    ).rejects.toMatchObject({
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    const theirs = await passkeyConfirmOptions(h.deps, other.id);
    await expect(verifyPasskeyConfirmation(h.deps, staff.id, laptop.assert(theirs))).rejects.toMatchObject({
      message: PASSKEY_CHALLENGE_EXPIRED,
    });
    // No passkey, no options.
    await expect(passkeyConfirmOptions(h.deps, admin.id)).rejects.toMatchObject({ message: PASSKEY_NOT_FOUND });
  });

  it("renames and removes one's own passkey: audited, the removal notified; a removed passkey signs in no more", async () => {
    expect(await mutate("passkeys.rename", staffJwt, { passkeyId: laptopPasskeyId, name: "Old laptop" })).toMatchObject(
      {
        status: 200,
        data: { message: "Passkey renamed to 'Old laptop'." },
      },
    );
    expect(await mutate("passkeys.remove", staffJwt, { passkeyId: laptopPasskeyId })).toMatchObject({
      status: 200,
      data: { message: "Passkey 'Old laptop' removed." },
    });
    expect((await audits(staff.id)).filter((a) => a.entityId === laptopPasskeyId)).toEqual([
      { action: "passkey.added", entity: "passkey", entityId: laptopPasskeyId, detail: { name: "Work laptop" } },
      {
        action: "passkey.renamed",
        entity: "passkey",
        entityId: laptopPasskeyId,
        detail: { name: "Old laptop", from: "Work laptop" },
      },
      { action: "passkey.removed", entity: "passkey", entityId: laptopPasskeyId, detail: { name: "Old laptop" } },
    ]);
    expect((await notices(staff.id)).at(-1)).toEqual({
      message: "A passkey ('Old laptop') was removed from your account.",
      link: "/settings/profile",
    });
    expect(await mutate("passkeys.signIn", null, { response: laptop.assert(await signInOptions()) })).toMatchObject({
      status: 401,
      message: PASSKEY_UNKNOWN,
    });

    // The Logs page has a sentence for each.
    const logs = await h.caller(admin).logs.list({ actorId: staff.id });
    const sentences = logs.items.filter((e) => e.entity === "passkey").map((e) => e.sentence);
    expect(sentences).toEqual(
      expect.arrayContaining([
        "added the passkey 'Work laptop'",
        "renamed the passkey 'Work laptop' to 'Old laptop'",
        "removed the passkey 'Old laptop'",
      ]),
    );
  });

  it(`holds at most ${PASSKEYS_PER_USER} passkeys per account`, async () => {
    const collector = await h.createUser("Staff");
    await h.deps.db
      .insertInto("passkeys")
      .values(
        Array.from({ length: PASSKEYS_PER_USER }, (_, i) => ({
          userId: collector.id,
          credentialId: `collector-${i}`,
          publicKey: new Uint8Array([1]),
          deviceType: "singleDevice" as const,
          name: `Key ${i}`,
        })),
      )
      .execute();
    expect(await mutate("passkeys.registrationOptions", await h.token(collector))).toMatchObject({
      status: 400,
      message: PASSKEY_TOO_MANY,
    });
  });

  it("expired challenges are cleaned up when a new one is made", async () => {
    await h.deps.db
      .updateTable("webauthnChallenges")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .execute();
    await signInOptions();
    expect(await countRows("webauthnChallenges")).toBe(1);
  });
});
