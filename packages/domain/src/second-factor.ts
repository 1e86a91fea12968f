/**
 * Decision 038, the second factor of a password sign-in: an authenticator app's 6-digit code
 * (TOTP, RFC 6238) or a single-use recovery code. Formats, messages and limits shared by the
 * server (which enforces them) and the web app (which shows them).
 */

/** The error code (tRPC `error.data.reason`, REST `reason`) of a password sign-in that needs a code next. */
export const SECOND_FACTOR_REQUIRED = "SECOND_FACTOR_REQUIRED";
/** Decision 038's 401 message for a password sign-in without `otp` on an account with a second factor. */
export const SECOND_FACTOR_REQUIRED_MESSAGE = "Enter the 6-digit code from your authenticator app, or a recovery code.";
/** A code that is neither the app's current code (unused) nor an unused recovery code of the account. */
export const SECOND_FACTOR_WRONG_CODE = "That code is not right, or was used already. Check it and try again.";
/** A code that is neither 6 digits nor a recovery code's shape. */
export const SECOND_FACTOR_MALFORMED_CODE =
  "Enter the 6 digits your authenticator app shows, or a recovery code such as abcde-12345.";
export const TOTP_NOT_STARTED = "Start adding an authenticator app first.";
export const TOTP_ALREADY_ON = "An authenticator app is already on for your account. Turn it off first.";
export const TOTP_NOT_ON = "No authenticator app is on for your account.";
export const TOTP_DISABLE_NEEDS_PROOF = "Enter a code from your authenticator app, a recovery code or your password.";
export const TOTP_DISABLE_WRONG_PASSWORD = "That password is not right.";
export const TOTP_LAST_ADMIN_FACTOR =
  "Admins must keep a second factor. Add a passkey before turning off the authenticator app.";

/** Seconds per code (otplib's default). */
export const TOTP_PERIOD_SECONDS = 30;
/** Steps of clock drift accepted either way. */
export const TOTP_DRIFT_STEPS = 1;

/** Recovery codes made at once, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** The letters of a recovery code: lowercase base32 (RFC 4648, no 0, 1, 8 or 9 to confuse). */
export const RECOVERY_CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** A recovery code's shape: two groups of 5 base32 letters, e.g. 'k7dqm-3xw2a'. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-[a-z2-7]{5}$/;
const TOTP_PATTERN = /^\d{6}$/;

/** Wrong codes per account, or per address, within SECOND_FACTOR_WINDOW_MS that lock the codes. */
export const SECOND_FACTOR_MAX_FAILURES = 10;
/** The window the wrong codes are counted in, ms: 15 minutes. */
export const SECOND_FACTOR_WINDOW_MS = 15 * 60_000;
/** How long the codes stay locked after the 10th wrong one, ms: 15 minutes. */
export const SECOND_FACTOR_LOCK_MS = 15 * 60_000;

/** The 429 message once too many wrong codes were tried, naming how long to wait. */
export function secondFactorLockedMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many wrong codes. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** What a typed code is: the app's 6 digits, a recovery code, or neither (after normalizeSecondFactorCode). */
export function secondFactorCodeKind(code: string): "totp" | "recovery-code" | null {
  if (TOTP_PATTERN.test(code)) return "totp";
  if (RECOVERY_CODE_PATTERN.test(code)) return "recovery-code";
  return null;
}

/**
 * A typed code as checked: spaces removed (apps show '123 456'), a recovery code lowercased and
 * given its dash when typed without one ('K7DQM3XW2A' → 'k7dqm-3xw2a').
 */
export function normalizeSecondFactorCode(code: string): string {
  const compact = code.replace(/\s+/g, "");
  if (/^\d+$/.test(compact)) return compact;
  const lower = compact.toLowerCase();
  if (/^[a-z2-7]{10}$/.test(lower)) return `${lower.slice(0, 5)}-${lower.slice(5)}`;
  return lower;
}
