import { decodeJwt } from "jose";

/** The longest a token goes without renewal while the app is used: one hour. */
const RENEW_AFTER_MS = 60 * 60 * 1000;

/** When a session token should be renewed and when it expires (ms since the epoch). */
export interface TokenTimes {
  renewAt: number;
  expiresAt: number;
}

/**
 * The renewal time of a session token, one hour after it was issued or a quarter of its lifetime
 * when that is shorter (a short SESSION_IDLE_DAYS), and its expiry. Null for a token that does
 * not decode or carries no iat/exp (the server will refuse it and the app signs out).
 */
export function tokenTimes(token: string): TokenTimes | null {
  try {
    const { iat, exp } = decodeJwt(token);
    if (typeof iat !== "number" || typeof exp !== "number" || exp <= iat) return null;
    return { renewAt: iat * 1000 + Math.min(RENEW_AFTER_MS, ((exp - iat) * 1000) / 4), expiresAt: exp * 1000 };
  } catch {
    return null;
  }
}
