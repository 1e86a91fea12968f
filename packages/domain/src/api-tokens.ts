/**
 * API tokens (decision 036): what a person may create for a script, shared by the server (which
 * enforces it) and the web form (which shows it).
 */

/** Every API token starts with this, so secret scanners and people can tell one at a glance. */
export const API_TOKEN_PREFIX = "tfs_";

/** What a token may do: read only (GET on REST, queries on tRPC), or also change things. */
export const API_TOKEN_SCOPES = ["read", "write"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** The expiries the form offers, in days; a chosen date is the other choice (none: admins only). */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

/** The latest expiry a token may have, in days from now. */
export const API_TOKEN_MAX_DAYS = 366 * 2;

export const API_TOKEN_NAME_MAX_LENGTH = 100;

/** Tokens one person may hold at once (revoked and expired ones do not count). */
export const API_TOKENS_PER_USER = 50;

export const API_TOKEN_NAME_REQUIRED = "Give the token a name.";
export const API_TOKEN_NAME_TOO_LONG = `A token's name may be at most ${API_TOKEN_NAME_MAX_LENGTH} characters.`;
export const API_TOKEN_EXPIRY_PAST = "The expiry must be a day after today.";
export const API_TOKEN_EXPIRY_TOO_FAR = `The expiry may be at most ${API_TOKEN_MAX_DAYS} days from today.`;
export const API_TOKEN_NO_EXPIRY_ADMINS_ONLY = "Only admins may create a token that never expires.";
export const API_TOKEN_READ_ONLY = "This API token is read-only: it cannot change anything.";
export const API_TOKEN_NEEDS_SIGN_IN = "API tokens are managed only when signed in with a password, not with a token.";
export const API_TOKEN_TOO_MANY = `You may hold at most ${API_TOKENS_PER_USER} active tokens. Revoke one first.`;

/**
 * The problem with a token's expiry, or null when it is allowed: `expiresAt` null (never) only for
 * an admin, else after `now` and at most API_TOKEN_MAX_DAYS ahead.
 */
export function apiTokenExpiryProblem(expiresAt: Date | null, isAdmin: boolean, now: Date): string | null {
  if (expiresAt === null) return isAdmin ? null : API_TOKEN_NO_EXPIRY_ADMINS_ONLY;
  if (expiresAt.getTime() <= now.getTime()) return API_TOKEN_EXPIRY_PAST;
  if (expiresAt.getTime() > now.getTime() + API_TOKEN_MAX_DAYS * 86_400_000) return API_TOKEN_EXPIRY_TOO_FAR;
  return null;
}

/** Whether `token` looks like an API token (its prefix), rather than a session JWT. */
export function isApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}
