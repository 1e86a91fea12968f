import type { Insertable } from "kysely";
import type { Executor } from "../connection";
import type { PasskeyTables, WebauthnChallengePurpose } from "../schema-passkeys";
import type { Role } from "../statuses";

/** A passkey as its owner's list shows it (decision 038): never its key. */
export interface PasskeyListRow {
  id: string;
  name: string;
  deviceType: "singleDevice" | "multiDevice";
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What verifying an assertion needs of a passkey: its key and counter, and its owner's state. */
export interface PasskeyCredentialRow {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  owner: { id: string; username: string; email: string; role: Role; active: boolean; sessionVersion: number };
}

/** Stores a challenge to be used once before `expiresAt`. */
export async function insertChallenge(
  db: Executor,
  row: { challenge: string; userId: string | null; purpose: WebauthnChallengePurpose; expiresAt: Date },
): Promise<void> {
  await db.insertInto("webauthnChallenges").values(row).execute();
}

/** Deletes the challenges that expired before `now` (a new challenge's insert cleans up after old ones). */
export async function deleteExpiredChallenges(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom("webauthnChallenges").where("expiresAt", "<=", now).execute();
}

/**
 * Deletes challenge `challenge` made for `purpose` and `userId` (null: a sign-in, made for nobody)
 * and answers whether it was there and still valid at `now`. In the verifying transaction, so two
 * answers to one challenge cannot both use it: the second finds it gone.
 */
export async function consumeChallenge(
  db: Executor,
  challenge: string,
  purpose: WebauthnChallengePurpose,
  userId: string | null,
  now: Date,
): Promise<boolean> {
  const row = await db
    .deleteFrom("webauthnChallenges")
    .where("challenge", "=", challenge)
    .where("purpose", "=", purpose)
    .where((eb) => (userId === null ? eb("userId", "is", null) : eb("userId", "=", userId)))
    .returning("expiresAt")
    .executeTakeFirst();
  return row !== undefined && new Date(row.expiresAt).getTime() > now.getTime();
}

/** Locks user `userId`'s row, so two registrations of one account count its passkeys one after the other. */
export async function lockPasskeyOwner(db: Executor, userId: string): Promise<void> {
  await db.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
}

/** How many passkeys `userId` holds. */
export async function countPasskeys(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom("passkeys")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("userId", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether `userId` holds at least one passkey. */
export async function userHasPasskey(db: Executor, userId: string): Promise<boolean> {
  const row = await db.selectFrom("passkeys").select("id").where("userId", "=", userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** `userId`'s passkeys, oldest first. */
export function listPasskeys(db: Executor, userId: string): Promise<PasskeyListRow[]> {
  return db
    .selectFrom("passkeys")
    .select(["id", "name", "deviceType", "backedUp", "createdAt", "lastUsedAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}

/** The credential ids and transports of `userId`'s passkeys (a ceremony's allow or exclude list). */
export function listCredentialIds(
  db: Executor,
  userId: string,
): Promise<Array<{ credentialId: string; transports: string[] }>> {
  return db.selectFrom("passkeys").select(["credentialId", "transports"]).where("userId", "=", userId).execute();
}

/** Stores a new passkey; answers its id. */
export async function insertPasskey(db: Executor, row: Insertable<PasskeyTables["passkeys"]>): Promise<string> {
  const inserted = await db.insertInto("passkeys").values(row).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

/** The passkey whose credential id is `credentialId`, with its owner; undefined when none. */
export async function findPasskeyByCredential(
  db: Executor,
  credentialId: string,
): Promise<PasskeyCredentialRow | undefined> {
  const row = await db
    .selectFrom("passkeys as p")
    .innerJoin("users as u", "u.id", "p.userId")
    .select([
      "p.id",
      "p.userId",
      "p.credentialId",
      "p.publicKey",
      "p.counter",
      "p.transports",
      "u.username",
      "u.email",
      "u.role",
      "u.active",
      "u.sessionVersion",
    ])
    .where("p.credentialId", "=", credentialId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.userId,
    credentialId: row.credentialId,
    publicKey: Uint8Array.from(row.publicKey),
    counter: Number(row.counter),
    transports: row.transports,
    owner: {
      id: row.userId,
      username: row.username,
      email: row.email,
      role: row.role,
      active: row.active,
      sessionVersion: row.sessionVersion,
    },
  };
}

/**
 * Records a use of passkey `id` at `at`: the counter it reported, and whether it is backed up now.
 * Only while its counter is still below `counter` or both are 0 (passkeys that keep no counter),
 * so of two uses of one reading only one counts; answers whether it did.
 */
export async function recordPasskeyUse(
  db: Executor,
  id: string,
  use: { counter: number; backedUp: boolean; at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable("passkeys")
    .set({ counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.at })
    .where("id", "=", id)
    .where((eb) => (use.counter === 0 ? eb("counter", "=", 0) : eb("counter", "<", use.counter)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Passkey `id`'s owner and name; undefined when there is none. */
export function findPasskey(db: Executor, id: string): Promise<{ userId: string; name: string } | undefined> {
  return db.selectFrom("passkeys").select(["userId", "name"]).where("id", "=", id).executeTakeFirst();
}

/** Renames passkey `id`. */
export async function renamePasskey(db: Executor, id: string, name: string): Promise<void> {
  await db.updateTable("passkeys").set({ name }).where("id", "=", id).execute();
}

/** Deletes passkey `id`; answers whether it was there. */
export async function deletePasskey(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom("passkeys").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
