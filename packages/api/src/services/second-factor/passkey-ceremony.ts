import { randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import {
  PASSKEY_CHALLENGE_EXPIRED,
  PASSKEY_NOT_VERIFIED,
  PASSKEY_UNKNOWN,
  WEBAUTHN_CHALLENGE_TTL_MS,
} from "@tafsiri/domain";
import type { Executor } from "@tafsiri/db";
import type { WebauthnChallengePurpose } from "@tafsiri/db/schema-passkeys";
import {
  consumeChallenge,
  deleteExpiredChallenges,
  findPasskeyByCredential,
  insertChallenge,
  recordPasskeyUse,
  type PasskeyCredentialRow,
} from "@tafsiri/db/repositories/passkeys";
import type { AppDeps } from "../../context";
import { AppError } from "../../errors/app-error";

/**
 * Decision 038: the parts of every WebAuthn ceremony (registration, sign-in, confirmation) that
 * passkeys.ts shares: the relying party, challenges (random, stored 5 minutes, used once) and the
 * check of an assertion.
 */

const NOT_SET_UP = "Passkeys are not set up on this server.";

/** The relying party of `deps`; throws SERVICE_UNAVAILABLE when the server has none. */
export function relyingParty(deps: Pick<AppDeps, "webauthn">): NonNullable<AppDeps["webauthn"]> {
  if (!deps.webauthn) throw new AppError("SERVICE_UNAVAILABLE", NOT_SET_UP);
  return deps.webauthn;
}

/** The WebAuthn user handle of a user: their id's UTF-8 bytes (no personal data). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(userId));
}

/** Stores `challenge` for `purpose` (and `userId`) for 5 minutes, deleting expired ones first. */
export async function storeChallenge(
  db: Executor,
  challenge: string,
  purpose: WebauthnChallengePurpose,
  userId: string | null,
): Promise<void> {
  const now = new Date();
  await deleteExpiredChallenges(db, now);
  await insertChallenge(db, {
    challenge,
    purpose,
    userId,
    expiresAt: new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS),
  });
}

/** A fresh random challenge, 32 bytes as base64url. */
export function newChallenge(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The challenge an answer signed, read from its clientDataJSON (verification checks it again);
 * BAD_REQUEST PASSKEY_NOT_VERIFIED when it cannot be read.
 */
export function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    if (typeof data.challenge === "string" && data.challenge !== "") return data.challenge;
  } catch {
    // Not base64url JSON: refused below.
  }
  throw new AppError("BAD_REQUEST", PASSKEY_NOT_VERIFIED);
}

/** Options of an assertion of any of `credentials` (none listed: the browser offers every passkey of the site). */
export async function authenticationOptions(
  rpId: string,
  credentials: Array<{ credentialId: string; transports: string[] }>,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rpId,
    allowCredentials: credentials.map((c) => ({ id: c.credentialId, transports: c.transports })),
    challenge: isoBase64URL.toBuffer(newChallenge()),
    timeout: WEBAUTHN_CHALLENGE_TTL_MS,
    userVerification: "preferred",
  });
}

/**
 * Verifies an assertion (`response`) against its stored challenge of `purpose` (for `userId`, or
 * nobody: a sign-in), in one transaction that uses the challenge up whatever the outcome: the
 * credential must be registered (and `userId`'s when given), its user handle (when sent) its
 * owner's, its signature good over the server's origin and RP ID, and its counter above the stored
 * one (or both 0). Records the use (counter, last used). Answers the passkey, or what refused it.
 */
export async function verifyAssertion(
  deps: AppDeps,
  purpose: "sign-in" | "confirm",
  userId: string | null,
  response: AuthenticationResponseJSON,
): Promise<{ passkey: PasskeyCredentialRow } | { refused: string }> {
  const rp = relyingParty(deps);
  const challenge = challengeOf(response.response.clientDataJSON);
  return deps.db.transaction().execute(async (trx) => {
    const now = new Date();
    if (!(await consumeChallenge(trx, challenge, purpose, userId, now))) return { refused: PASSKEY_CHALLENGE_EXPIRED };
    const passkey = await findPasskeyByCredential(trx, response.id);
    if (!passkey || (userId !== null && passkey.userId !== userId))
      return { refused: userId === null ? PASSKEY_UNKNOWN : PASSKEY_NOT_VERIFIED };
    const handle = response.response.userHandle;
    if (handle && handle !== isoBase64URL.fromBuffer(userHandleOf(passkey.userId))) {
      return { refused: PASSKEY_NOT_VERIFIED };
    }
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: { id: passkey.credentialId, publicKey: passkey.publicKey, counter: passkey.counter },
      requireUserVerification: false,
    }).catch(() => null);
    if (!verified?.verified) return { refused: PASSKEY_NOT_VERIFIED };
    const info = verified.authenticationInfo;
    const counted = await recordPasskeyUse(trx, passkey.id, {
      counter: info.newCounter,
      backedUp: info.credentialBackedUp,
      at: now,
    });
    if (!counted) return { refused: PASSKEY_NOT_VERIFIED };
    return { passkey };
  });
}
