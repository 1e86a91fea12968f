/**
 * Passkeys (decision 038): the limits and messages shared by the server (which enforces them) and
 * the Profile's Passkeys section (which shows them).
 */

/** The longest name a passkey may be given. */
export const PASSKEY_NAME_MAX_LENGTH = 64;

/** Passkeys one account may hold at once. */
export const PASSKEYS_PER_USER = 20;

/** How long a registration, sign-in or confirmation may take, from its options to its answer, ms: 5 minutes. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60_000;

export const PASSKEY_NAME_REQUIRED = "Give the passkey a name.";
export const PASSKEY_NAME_TOO_LONG = `A passkey's name may be at most ${PASSKEY_NAME_MAX_LENGTH} characters.`;
export const PASSKEY_TOO_MANY = `An account may hold at most ${PASSKEYS_PER_USER} passkeys. Remove one first.`;
export const PASSKEY_NOT_FOUND = "Passkey not found.";
export const PASSKEY_ALREADY_REGISTERED = "This passkey is already registered.";
/** A ceremony whose challenge is unknown, already used or older than 5 minutes. */
export const PASSKEY_CHALLENGE_EXPIRED = "This passkey request has expired or was already used. Please try again.";
/** A registration or assertion that does not verify (wrong origin, bad signature, replayed counter…). */
export const PASSKEY_NOT_VERIFIED = "The passkey could not be verified. Please try again.";
/** A sign-in with a credential no account holds (removed, or made for another site). */
export const PASSKEY_UNKNOWN = "This passkey is not registered here. Sign in with your email and password.";
export const PASSKEY_NEEDS_SIGN_IN = "Passkeys are managed only when signed in, not with an API token.";
/** What the web app says when the person cancels the browser's passkey prompt (not an error). */
export const PASSKEY_CANCELLED = "Passkey request cancelled.";

/** The name a passkey gets when its owner gives none: 'Passkey 3' for their third. */
export function defaultPasskeyName(existing: number): string {
  return `Passkey ${existing + 1}`;
}
