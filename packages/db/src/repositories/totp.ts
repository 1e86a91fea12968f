import type { Transaction } from "kysely";
import type { DB } from "../schema";
import type { Executor } from "../connection";

/**
 * The second factor's rows (decision 038): a user's TOTP factor, their recovery codes (SHA-256
 * only) and the wrong codes counted for the lockout.
 */

/** A user's TOTP factor as the services read it (the last used step as a number). */
interface TotpFactorRow {
  userId: string;
  secret: string;
  confirmedAt: Date | null;
  lastUsedStep: number | null;
}

function factorOf(row: { userId: string; secret: string; confirmedAt: Date | null; lastUsedStep: string | null }) {
  return { ...row, lastUsedStep: row.lastUsedStep === null ? null : Number(row.lastUsedStep) };
}

/** `userId`'s TOTP factor (confirmed or not), or undefined. */
export async function findTotpFactor(db: Executor, userId: string): Promise<TotpFactorRow | undefined> {
  const row = await db
    .selectFrom("totpFactors")
    .select(["userId", "secret", "confirmedAt", "lastUsedStep"])
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row && factorOf(row);
}

/**
 * `userId`'s TOTP factor, its row locked until the transaction ends, so two uses of one code
 * cannot both pass (the second waits, then sees the step the first recorded).
 */
export async function lockTotpFactor(trx: Transaction<DB>, userId: string): Promise<TotpFactorRow | undefined> {
  const row = await trx
    .selectFrom("totpFactors")
    .select(["userId", "secret", "confirmedAt", "lastUsedStep"])
    .where("userId", "=", userId)
    .forUpdate()
    .executeTakeFirst();
  return row && factorOf(row);
}

/** Whether `userId` has a confirmed TOTP factor. */
export async function hasConfirmedTotp(db: Executor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("totpFactors")
    .select("userId")
    .where("userId", "=", userId)
    .where("confirmedAt", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores a new unconfirmed secret for `userId`, replacing an unconfirmed one (never a confirmed one). */
export async function upsertPendingTotp(db: Executor, userId: string, secret: string): Promise<void> {
  await db
    .insertInto("totpFactors")
    .values({ userId, secret })
    .onConflict((oc) =>
      oc.column("userId").doUpdateSet({ secret, lastUsedStep: null }).where("totpFactors.confirmedAt", "is", null),
    )
    .execute();
}

/** Marks `userId`'s factor confirmed at `at`, recording `step` as used. */
export async function confirmTotpFactor(db: Executor, userId: string, step: number, at: Date): Promise<void> {
  await db
    .updateTable("totpFactors")
    .set({ confirmedAt: at, lastUsedStep: step })
    .where("userId", "=", userId)
    .execute();
}

/** Records `step` as the last one used by `userId`'s factor. */
export async function setTotpLastUsedStep(db: Executor, userId: string, step: number): Promise<void> {
  await db.updateTable("totpFactors").set({ lastUsedStep: step }).where("userId", "=", userId).execute();
}

/** Removes `userId`'s TOTP factor and every recovery code. */
export async function deleteSecondFactor(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom("recoveryCodes").where("userId", "=", userId).execute();
  await db.deleteFrom("totpFactors").where("userId", "=", userId).execute();
}

/** Replaces `userId`'s recovery codes with the ones whose hashes are given. */
export async function replaceRecoveryCodes(db: Executor, userId: string, codeHashes: string[]): Promise<void> {
  await db.deleteFrom("recoveryCodes").where("userId", "=", userId).execute();
  if (codeHashes.length === 0) return;
  await db
    .insertInto("recoveryCodes")
    .values(codeHashes.map((codeHash) => ({ userId, codeHash })))
    .execute();
}

/** How many of `userId`'s recovery codes are unused. */
export async function countUnusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom("recoveryCodes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("userId", "=", userId)
    .where("usedAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks `userId`'s unused recovery code of hash `codeHash` used at `at`; true when one was
 * (a used code, or another account's, marks nothing). One conditional UPDATE: of two uses at
 * once, only one changes the row.
 */
export async function useRecoveryCode(db: Executor, userId: string, codeHash: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("recoveryCodes")
    .set({ usedAt: at })
    .where("userId", "=", userId)
    .where("codeHash", "=", codeHash)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a wrong code for `userId` (when known) from `ip` (when known) at `at`. */
export async function insertSecondFactorFailure(
  db: Executor,
  failure: { userId: string | null; ip: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto("secondFactorFailures")
    .values({ userId: failure.userId, ip: failure.ip, createdAt: failure.at })
    .execute();
}

/** Deletes `userId`'s wrong codes older than `before` (they no longer count), so the table stays small. */
export async function deleteOldSecondFactorFailures(db: Executor, userId: string, before: Date): Promise<void> {
  await db.deleteFrom("secondFactorFailures").where("userId", "=", userId).where("createdAt", "<", before).execute();
}

/**
 * The wrong codes since `since` of account `userId` and of address `ip`: how many, and when the
 * `nth` newest of each was (the lock runs from it), so a lock's end can be told.
 */
export async function recentSecondFactorFailures(
  db: Executor,
  query: { userId: string; ip: string | null; since: Date; nth: number },
): Promise<{ account: Date[]; address: Date[] }> {
  const account = await db
    .selectFrom("secondFactorFailures")
    .select("createdAt")
    .where("userId", "=", query.userId)
    .where("createdAt", ">=", query.since)
    .orderBy("createdAt", "desc")
    .limit(query.nth)
    .execute();
  const address =
    query.ip === null
      ? []
      : await db
          .selectFrom("secondFactorFailures")
          .select("createdAt")
          .where("ip", "=", query.ip)
          .where("createdAt", ">=", query.since)
          .orderBy("createdAt", "desc")
          .limit(query.nth)
          .execute();
  return { account: account.map((r) => new Date(r.createdAt)), address: address.map((r) => new Date(r.createdAt)) };
}
