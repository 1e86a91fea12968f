import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import {
  defaultPasskeyName,
  PASSKEY_ALREADY_REGISTERED,
  PASSKEY_CHALLENGE_EXPIRED,
  PASSKEY_NEEDS_SIGN_IN,
  PASSKEY_NOT_FOUND,
  PASSKEY_NOT_VERIFIED,
  PASSKEY_TOO_MANY,
  PASSKEYS_PER_USER,
  WEBAUTHN_CHALLENGE_TTL_MS,
} from "@tafsiri/domain";
import type { Executor } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  consumeChallenge,
  countPasskeys,
  deletePasskey,
  findPasskey,
  findPasskeyByCredential,
  insertPasskey,
  listCredentialIds,
  listPasskeys,
  lockPasskeyOwner,
  renamePasskey,
  userHasPasskey,
} from "@tafsiri/db/repositories/passkeys";
import type { AppDeps, CallSession, Context, SessionUser } from "../../context";
import { AppError } from "../../errors/app-error";
import { publishAfter } from "../../live/record";
import type { PublicUser } from "../../schemas/accounts";
import { DEACTIVATED_LOGIN, getOwnAccount } from "../accounts";
import { notifyUser } from "../notifications";
import { startSession } from "../session-start";
import {
  authenticationOptions,
  challengeOf,
  newChallenge,
  relyingParty,
  storeChallenge,
  userHandleOf,
  verifyAssertion,
} from "./passkey-ceremony";

/**
 * Decision 038, passkeys: WebAuthn registration and authentication through @simplewebauthn/server.
 * The relying party is `deps.webauthn` (WEBAUTHN_RP_ID, WEBAUTHN_ORIGIN). Each ceremony's challenge
 * is stored (`webauthn_challenges`) for 5 minutes and deleted by the transaction that checks the
 * answer, whether the answer verifies or not: an answer is checked once. Discoverable credentials
 * are asked for (resident key required), so 'Sign in with a passkey' needs no email; user
 * verification is preferred. A sign-in refuses a deactivated account as the password does.
 */

/** Where the notifications about a person's passkeys lead: their Profile (decision 038). */
const PROFILE_LINK = "/settings/profile";

/** A passkey as its owner's list shows it. */
export interface PasskeyView {
  id: string;
  name: string;
  /** 'multiDevice' for a synced passkey, 'singleDevice' for one bound to its authenticator. */
  deviceType: "singleDevice" | "multiDevice";
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Refuses a call made with an API token: passkeys are a person's own, managed from a session. */
function requireSignedInSession(session: CallSession | null | undefined): void {
  if (session?.apiToken) throw new AppError("FORBIDDEN", PASSKEY_NEEDS_SIGN_IN);
}

function viewOf(row: Awaited<ReturnType<typeof listPasskeys>>[number]): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
  };
}

/** Tells `userId` of a change to their passkeys (the bell), in the change's transaction. */
function notifyOwner(trx: Executor, userId: string, message: string) {
  return notifyUser(trx, { recipientId: userId, senderId: null, message, link: PROFILE_LINK, audioId: null });
}

/** Decision 038: whether `userId` holds a passkey (a second factor of its own). */
export function hasPasskey(db: Executor, userId: string): Promise<boolean> {
  return userHasPasskey(db, userId);
}

/** Decision 038: the caller's passkeys, oldest first. */
export async function listOwnPasskeys(deps: AppDeps, user: SessionUser): Promise<{ passkeys: PasskeyView[] }> {
  return { passkeys: (await listPasskeys(deps.db, user.id)).map(viewOf) };
}

/**
 * Decision 038: the options of a new passkey for the caller (navigator.credentials.create): a
 * discoverable credential (resident key required), user verification preferred, their own passkeys
 * excluded (one authenticator, one passkey), valid 5 minutes. Throws FORBIDDEN with an API token,
 * BAD_REQUEST PASSKEY_TOO_MANY at 20 passkeys.
 */
export async function passkeyRegistrationOptions(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  requireSignedInSession(session);
  const rp = relyingParty(deps);
  const own = await listCredentialIds(deps.db, user.id);
  if (own.length >= PASSKEYS_PER_USER) throw new AppError("BAD_REQUEST", PASSKEY_TOO_MANY);
  const challenge = newChallenge();
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userName: user.email,
    userDisplayName: user.username,
    userID: userHandleOf(user.id),
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: WEBAUTHN_CHALLENGE_TTL_MS,
    attestationType: "none",
    excludeCredentials: own.map((c) => ({ id: c.credentialId, transports: c.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await storeChallenge(deps.db, options.challenge, "register", user.id);
  return options;
}

/**
 * Decision 038: registers the caller's new passkey from the authenticator's answer to
 * passkeyRegistrationOptions, named `name` (else 'Passkey N'). The answer's challenge must be one
 * made for the caller, unused and under 5 minutes old (it is used up either way); origin and RP ID
 * must be the server's. Audited ('passkey.added'), the owner notified. Throws FORBIDDEN with an API
 * token, BAD_REQUEST PASSKEY_CHALLENGE_EXPIRED, PASSKEY_NOT_VERIFIED or PASSKEY_TOO_MANY, CONFLICT
 * PASSKEY_ALREADY_REGISTERED.
 */
export async function registerPasskey(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
  input: { name?: string | undefined; response: RegistrationResponseJSON },
): Promise<{ passkey: PasskeyView; message: string }> {
  requireSignedInSession(session);
  const rp = relyingParty(deps);
  const challenge = challengeOf(input.response.response.clientDataJSON);
  type Outcome =
    { ok: true; id: string; name: string } | { ok: false; code: "BAD_REQUEST" | "CONFLICT"; message: string };
  const refused = (message: string): Outcome => ({ ok: false, code: "BAD_REQUEST", message });
  const change = deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    if (!(await consumeChallenge(trx, challenge, "register", user.id, new Date())))
      return refused(PASSKEY_CHALLENGE_EXPIRED);
    const verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: false,
    }).catch(() => null);
    if (!verified?.verified) return refused(PASSKEY_NOT_VERIFIED);
    const info = verified.registrationInfo;
    await lockPasskeyOwner(trx, user.id);
    const held = await countPasskeys(trx, user.id);
    if (held >= PASSKEYS_PER_USER) return refused(PASSKEY_TOO_MANY);
    if (await findPasskeyByCredential(trx, info.credential.id))
      return { ok: false, code: "CONFLICT", message: PASSKEY_ALREADY_REGISTERED };
    const name = input.name ?? defaultPasskeyName(held);
    const id = await insertPasskey(trx, {
      userId: user.id,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: info.credential.transports ?? input.response.response.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name,
    });
    await insertAuditEntry(trx, user.id, "passkey.added", "passkey", id, { name });
    await notifyOwner(trx, user.id, `A passkey ('${name}') was added to your account.`);
    return { ok: true, id, name };
  });
  const outcome = await publishAfter(deps, change);
  if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
  const passkey = (await listPasskeys(deps.db, user.id)).find((p) => p.id === outcome.id)!;
  return { passkey: viewOf(passkey), message: `Passkey '${outcome.name}' added.` };
}

/**
 * Decision 038: the options of a sign-in with a passkey (navigator.credentials.get, or the email
 * field's autofill): no credential listed (the person picks one of the site's), user verification
 * preferred, valid 5 minutes.
 */
export async function passkeySignInOptions(deps: AppDeps): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(deps);
  const options = await authenticationOptions(rp.rpId, []);
  await storeChallenge(deps.db, options.challenge, "sign-in", null);
  return options;
}

/**
 * Decision 038: signs in with a passkey's answer to passkeySignInOptions: starts a session whose
 * method is 'passkey' and answers `{ token, user }` as accounts.login does. Throws UNAUTHORIZED
 * PASSKEY_CHALLENGE_EXPIRED (unknown, used or old challenge), PASSKEY_UNKNOWN (no account holds
 * the credential), PASSKEY_NOT_VERIFIED (wrong origin or RP ID, bad signature, a counter not above
 * the last), or the deactivated account's message of the password sign-in.
 */
export async function signInWithPasskey(
  ctx: Context,
  response: AuthenticationResponseJSON,
): Promise<{ token: string; user: PublicUser }> {
  const outcome = await verifyAssertion(ctx, "sign-in", null, response);
  if ("refused" in outcome) throw new AppError("UNAUTHORIZED", outcome.refused);
  const owner = outcome.passkey.owner;
  if (!owner.active) throw new AppError("UNAUTHORIZED", DEACTIVATED_LOGIN);
  const { token } = await startSession(ctx, owner, "passkey", ctx);
  return { token, user: await getOwnAccount(ctx.db, owner) };
}

/**
 * Decision 038: the options of a confirmation of who `userId` is (re-authentication before a
 * sensitive action): an assertion of one of their own passkeys, valid 5 minutes. Throws
 * BAD_REQUEST PASSKEY_NOT_FOUND when they hold none.
 */
export async function passkeyConfirmOptions(
  deps: AppDeps,
  userId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(deps);
  const own = await listCredentialIds(deps.db, userId);
  if (own.length === 0) throw new AppError("BAD_REQUEST", PASSKEY_NOT_FOUND);
  const options = await authenticationOptions(rp.rpId, own);
  await storeChallenge(deps.db, options.challenge, "confirm", userId);
  return options;
}

/**
 * Decision 038: checks `userId`'s answer to passkeyConfirmOptions (one of their own passkeys, the
 * challenge made for them, unused and under 5 minutes old; used up either way) and records the
 * passkey's use. Throws FORBIDDEN PASSKEY_CHALLENGE_EXPIRED or PASSKEY_NOT_VERIFIED (another's
 * passkey, a bad signature or origin): not 401, since the caller's session stays valid.
 */
export async function verifyPasskeyConfirmation(
  deps: AppDeps,
  userId: string,
  response: AuthenticationResponseJSON,
): Promise<void> {
  const outcome = await verifyAssertion(deps, "confirm", userId, response);
  if ("refused" in outcome) throw new AppError("FORBIDDEN", outcome.refused);
}

/**
 * Decision 038: renames the caller's passkey `passkeyId` (audited 'passkey.renamed'). Another
 * person's passkey answers NOT_FOUND PASSKEY_NOT_FOUND, as a missing one does. Throws FORBIDDEN
 * with an API token.
 */
export async function renameOwnPasskey(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
  input: { passkeyId: string; name: string },
): Promise<{ message: string }> {
  requireSignedInSession(session);
  await deps.db.transaction().execute(async (trx) => {
    const passkey = await findPasskey(trx, input.passkeyId);
    if (!passkey || passkey.userId !== user.id) throw new AppError("NOT_FOUND", PASSKEY_NOT_FOUND);
    await renamePasskey(trx, input.passkeyId, input.name);
    await insertAuditEntry(trx, user.id, "passkey.renamed", "passkey", input.passkeyId, {
      name: input.name,
      from: passkey.name,
    });
  });
  return { message: `Passkey renamed to '${input.name}'.` };
}

/**
 * Decision 038: removes the caller's passkey `passkeyId`: it signs in no more. Audited
 * ('passkey.removed'), the owner notified. Another person's passkey answers NOT_FOUND
 * PASSKEY_NOT_FOUND, as a missing one does. Throws FORBIDDEN with an API token.
 */
export async function removeOwnPasskey(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
  passkeyId: string,
): Promise<{ message: string }> {
  requireSignedInSession(session);
  const change = deps.db.transaction().execute(async (trx) => {
    const passkey = await findPasskey(trx, passkeyId);
    if (!passkey || passkey.userId !== user.id) throw new AppError("NOT_FOUND", PASSKEY_NOT_FOUND);
    if (!(await deletePasskey(trx, passkeyId))) throw new AppError("NOT_FOUND", PASSKEY_NOT_FOUND);
    await insertAuditEntry(trx, user.id, "passkey.removed", "passkey", passkeyId, { name: passkey.name });
    await notifyOwner(trx, user.id, `A passkey ('${passkey.name}') was removed from your account.`);
    return passkey.name;
  });
  const name = await publishAfter(deps, change);
  return { message: `Passkey '${name}' removed.` };
}
