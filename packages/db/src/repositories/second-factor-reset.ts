import type { Executor } from "../connection";

/**
 * Decision 038, an admin's reset of another user's second factor: deletes `userId`'s
 * authenticator app, recovery codes and passkeys in the caller's transaction. Answers how many
 * passkeys went and whether an app was on.
 */
export async function removeSecondFactors(trx: Executor, userId: string): Promise<{ totp: boolean; passkeys: number }> {
  const totp = await trx.deleteFrom("totpFactors").where("userId", "=", userId).executeTakeFirst();
  await trx.deleteFrom("recoveryCodes").where("userId", "=", userId).execute();
  const passkeys = await trx.deleteFrom("passkeys").where("userId", "=", userId).executeTakeFirst();
  return { totp: totp.numDeletedRows > 0n, passkeys: Number(passkeys.numDeletedRows) };
}
