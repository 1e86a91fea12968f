import { randomUUID } from "node:crypto";
import { signSessionToken, type TokenSubject } from "../services/auth";

/**
 * A session token for tests and benchmarks, as after a full sign-in checked just now (decision 038:
 * `amr` password+totp, `vat` now), without a sessions row. Tests of re-authentication and of the
 * admins' required second factor sign their own with signSessionToken.
 */
export async function signTestToken(
  secret: Uint8Array,
  subject: TokenSubject,
  lifetimeSeconds?: number,
): Promise<string> {
  const signIn = { id: randomUUID(), method: "password+totp" as const, verifiedAt: new Date() };
  return (await signSessionToken(secret, subject, lifetimeSeconds, signIn)).token;
}
