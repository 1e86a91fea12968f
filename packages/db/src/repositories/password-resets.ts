import type { Executor } from "../connection";

/** A stored password reset link (the token itself is never stored, only its sha256). */
export interface PasswordResetRow {
  id: string;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Stores a reset link for `userId` by the sha256 of its token; throws on a unique violation. */
export async function insertPasswordReset(
  db: Executor,
  values: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insertInto("passwordResets").values(values).execute();
}

/** The reset link with this token hash, locked until the transaction ends, or undefined. */
export function findPasswordResetForUpdate(db: Executor, tokenHash: string): Promise<PasswordResetRow | undefined> {
  return db
    .selectFrom("passwordResets")
    .select(["id", "userId", "expiresAt", "usedAt"])
    .where("tokenHash", "=", tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

/** Marks every unused reset link of `userId` used at `at` (the one just used and any older one). */
export async function usePasswordResets(db: Executor, userId: string, at: Date): Promise<void> {
  await db
    .updateTable("passwordResets")
    .set({ usedAt: at })
    .where("userId", "=", userId)
    .where("usedAt", "is", null)
    .execute();
}

/**
 * Sets a user's password hash, makes `at` its password change time and raises the session version
 * (older session tokens are refused). Answers the new session version, or undefined when there is
 * no such user.
 */
export async function setUserPassword(
  db: Executor,
  userId: string,
  passwordHash: string,
  at: Date,
): Promise<number | undefined> {
  const row = await db
    .updateTable("users")
    .set((eb) => ({ passwordHash, passwordChangedAt: at, sessionVersion: eb("sessionVersion", "+", 1) }))
    .where("id", "=", userId)
    .returning("sessionVersion")
    .executeTakeFirst();
  return row?.sessionVersion;
}
