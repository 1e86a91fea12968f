import { createHash, randomBytes } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import {
  normalizeSecondFactorCode,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_LOCK_MS,
  SECOND_FACTOR_MALFORMED_CODE,
  SECOND_FACTOR_MAX_FAILURES,
  SECOND_FACTOR_WINDOW_MS,
  SECOND_FACTOR_WRONG_CODE,
  secondFactorCodeKind,
  secondFactorLockedMessage,
  TOTP_ALREADY_ON,
  TOTP_DISABLE_NEEDS_PROOF,
  TOTP_DISABLE_WRONG_PASSWORD,
  TOTP_DRIFT_STEPS,
  TOTP_LAST_ADMIN_FACTOR,
  TOTP_NOT_ON,
  TOTP_NOT_STARTED,
  TOTP_PERIOD_SECONDS,
} from "@tafsiri/domain";
import type { Executor } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { userHasPasskey } from "@tafsiri/db/repositories/passkeys";
import { findPasswordHash } from "@tafsiri/db/repositories/users";
import {
  confirmTotpFactor,
  countUnusedRecoveryCodes,
  deleteOldSecondFactorFailures,
  deleteSecondFactor,
  findTotpFactor,
  hasConfirmedTotp,
  insertSecondFactorFailure,
  lockTotpFactor,
  recentSecondFactorFailures,
  replaceRecoveryCodes,
  setTotpLastUsedStep,
  upsertPendingTotp,
  useRecoveryCode,
} from "@tafsiri/db/repositories/totp";
import type { AppDeps, CallSession, SessionUser } from "../../context";
import { AppError } from "../../errors/app-error";
import { publishAfter } from "../../live/record";
import { notifyUser } from "../notifications";
import { requirePasswordSession } from "../api-tokens";
import { verifyPassword } from "../auth";

/**
 * Decision 038, the second factor of accounts without a passkey: an authenticator app (TOTP,
 * RFC 6238 with otplib's defaults: SHA-1, 6 digits, 30 s, one step of drift either way) and 10
 * single-use recovery codes (SHA-256 only is kept). A code's time step at or before the last one
 * used is refused (no replay); 10 wrong codes in 15 minutes per account or per address lock the
 * codes for 15 minutes. Every enrolment, removal, wrong code, lockout and recovery-code use is
 * audited (entity 'user', the account's id; a wrong code and a lockout with no actor) and the person is told in their bell.
 */

/** The audit log's entity of every entry below (the account; its id is the account's), so the Logs page names it. */
const AUDIT_ENTITY = "user";
/** Where the second factor's notifications lead: the Profile page that manages it (the web app's paths.profile). */
const SECOND_FACTOR_LINK = "/settings/profile";
/** How long a wrong code is kept: as long as it can count toward a lock (the window, then the lock). */
const FAILURES_KEPT_MS = SECOND_FACTOR_WINDOW_MS + SECOND_FACTOR_LOCK_MS;
/** The issuer an authenticator app shows when the programme has no name of its own. */
const DEFAULT_ISSUER = "Tafsiri";

/** What the person's bell says after each change to their second factor. */
const NOTICE = {
  enrolled: "An authenticator app was added to your account. If this was not you, tell an administrator now.",
  removed: "The authenticator app was removed from your account. If this was not you, tell an administrator now.",
  regenerated: "New recovery codes were made for your account; the old ones no longer work.",
  recoveryUsed: (left: number) =>
    `A recovery code was used to sign in to your account (${left} left). If this was not you, tell an administrator now.`,
  failed: "A wrong authenticator code was entered for your account. If this was not you, change your password.",
  locked: "Too many wrong authenticator codes were entered for your account: codes are refused for 15 minutes.",
} as const;

/** The SHA-256 of a (normalised) recovery code, hex: what is stored and looked up. */
function recoveryCodeHash(code: string): string {
  return createHash("sha256").update(code, "utf8").digest("hex");
}

/** 10 new recovery codes, 'xxxxx-xxxxx' in lowercase base32 (50 random bits each). */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const letters = [...randomBytes(10)].map((b) => RECOVERY_CODE_ALPHABET[b & 31]).join("");
    return `${letters.slice(0, 5)}-${letters.slice(5)}`;
  });
}

/** The time step `code` is the app's code for, now (±1 step), after `afterStep`; null when it is none of them. */
async function matchingStep(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/** One notification for the account's owner, in the caller's transaction. */
function tell(trx: Executor, userId: string, message: string) {
  return notifyUser(trx, { recipientId: userId, senderId: null, message, link: SECOND_FACTOR_LINK, audioId: null });
}

/** Decision 038: whether `userId` has a confirmed authenticator app (an unfinished enrolment asks for nothing). */
export function hasTotp(db: Executor, userId: string): Promise<boolean> {
  return hasConfirmedTotp(db, userId);
}

/** The Profile's 'Two-factor authentication' section: whether the app is on, since when, and recovery codes left. */
interface SecondFactorStatus {
  enrolled: boolean;
  confirmedAt: string | null;
  recoveryCodesLeft: number;
}

/** Decision 038: the caller's own second-factor status. */
export async function totpStatus(deps: AppDeps, user: SessionUser): Promise<SecondFactorStatus> {
  const factor = await findTotpFactor(deps.db, user.id);
  const enrolled = factor?.confirmedAt != null;
  return {
    enrolled,
    confirmedAt: enrolled ? new Date(factor!.confirmedAt!).toISOString() : null,
    recoveryCodesLeft: enrolled ? await countUnusedRecoveryCodes(deps.db, user.id) : 0,
  };
}

/**
 * Decision 038: starts adding an authenticator app to the caller's account: a new secret (20
 * random bytes, base32), kept unconfirmed (it asks for nothing until a code confirms it; a new
 * start replaces an unconfirmed one). Answers the secret to type, the `otpauth://` URI (issuer the
 * programme's name, label the account's e-mail) and that URI as a QR code (SVG). Throws FORBIDDEN
 * for an API token, CONFLICT TOTP_ALREADY_ON when an app is already on.
 */
export async function startTotpEnrolment(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
): Promise<{ secret: string; uri: string; qrSvg: string }> {
  requirePasswordSession(session);
  if (await hasConfirmedTotp(deps.db, user.id)) throw new AppError("CONFLICT", TOTP_ALREADY_ON);
  const secret = generateSecret();
  await upsertPendingTotp(deps.db, user.id, secret);
  const issuer = deps.programmeName?.trim() || DEFAULT_ISSUER;
  const uri = generateURI({ issuer, label: user.email, secret });
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrSvg };
}

/**
 * Decision 038: turns the caller's authenticator app on with one valid code of the secret
 * startTotpEnrolment gave, and makes 10 recovery codes, answered this once (only their SHA-256
 * is kept). Audited ('totp.enrolled'), the person notified. Throws FORBIDDEN for an API token,
 * BAD_REQUEST TOTP_NOT_STARTED with no enrolment started, CONFLICT TOTP_ALREADY_ON, BAD_REQUEST
 * SECOND_FACTOR_MALFORMED_CODE or SECOND_FACTOR_WRONG_CODE.
 */
export async function confirmTotpEnrolment(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
  rawCode: string,
): Promise<{ recoveryCodes: string[]; message: string }> {
  requirePasswordSession(session);
  const code = normalizeSecondFactorCode(rawCode);
  if (secondFactorCodeKind(code) !== "totp") throw new AppError("BAD_REQUEST", SECOND_FACTOR_MALFORMED_CODE);
  const recoveryCodes = newRecoveryCodes();
  const change = deps.db.transaction().execute(async (trx) => {
    const factor = await lockTotpFactor(trx, user.id);
    if (!factor) throw new AppError("BAD_REQUEST", TOTP_NOT_STARTED);
    if (factor.confirmedAt) throw new AppError("CONFLICT", TOTP_ALREADY_ON);
    const step = await matchingStep(factor.secret, code, null);
    if (step === null) throw new AppError("BAD_REQUEST", SECOND_FACTOR_WRONG_CODE);
    await confirmTotpFactor(trx, user.id, step, new Date());
    await replaceRecoveryCodes(trx, user.id, recoveryCodes.map(recoveryCodeHash));
    await insertAuditEntry(trx, user.id, "totp.enrolled", AUDIT_ENTITY, user.id, {
      recoveryCodes: RECOVERY_CODE_COUNT,
    });
    await tell(trx, user.id, NOTICE.enrolled);
  });
  await publishAfter(deps, change);
  return {
    recoveryCodes,
    message: "Two-factor authentication is on. Save your recovery codes now: they are not shown again.",
  };
}

/**
 * Checks the proof disabling or regenerating needs: a current code (checkSecondFactorCode: it
 * counts when wrong) or, failing that, the account's password. Throws BAD_REQUEST
 * TOTP_DISABLE_NEEDS_PROOF with neither, UNAUTHORIZED TOTP_DISABLE_WRONG_PASSWORD, and what
 * checkSecondFactorCode throws.
 */
async function requireProof(
  deps: AppDeps,
  user: SessionUser,
  proof: { code?: string | undefined; password?: string | undefined; clientIp?: string | undefined },
): Promise<void> {
  if (proof.code) {
    await checkSecondFactorCode(deps, { userId: user.id, code: proof.code, clientIp: proof.clientIp });
    return;
  }
  if (!proof.password) throw new AppError("BAD_REQUEST", TOTP_DISABLE_NEEDS_PROOF);
  const hash = await findPasswordHash(deps.db, user.id);
  if (hash === undefined || !(await verifyPassword(hash, proof.password)))
    throw new AppError("UNAUTHORIZED", TOTP_DISABLE_WRONG_PASSWORD);
}

/**
 * Decision 038: turns the caller's authenticator app off and deletes their recovery codes, given a
 * current code (or a recovery code) or the account's password. Audited ('totp.removed'), the
 * person notified. Throws FORBIDDEN for an API token, BAD_REQUEST TOTP_NOT_ON, FORBIDDEN
 * TOTP_LAST_ADMIN_FACTOR for an admin without a passkey while REQUIRE_ADMIN_SECOND_FACTOR is on
 * (their last factor), requireProof's errors.
 */
export async function disableTotp(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
  proof: { code?: string | undefined; password?: string | undefined; clientIp?: string | undefined },
): Promise<{ message: string }> {
  requirePasswordSession(session);
  if (!(await hasConfirmedTotp(deps.db, user.id))) throw new AppError("BAD_REQUEST", TOTP_NOT_ON);
  if (deps.requireAdminSecondFactor && user.role === "Admin" && !(await userHasPasskey(deps.db, user.id))) {
    throw new AppError("FORBIDDEN", TOTP_LAST_ADMIN_FACTOR);
  }
  await requireProof(deps, user, proof);
  const change = deps.db.transaction().execute(async (trx) => {
    const factor = await lockTotpFactor(trx, user.id);
    if (!factor?.confirmedAt) return;
    await deleteSecondFactor(trx, user.id);
    await insertAuditEntry(trx, user.id, "totp.removed", AUDIT_ENTITY, user.id, {
      proof: proof.code ? "code" : "password",
    });
    await tell(trx, user.id, NOTICE.removed);
  });
  await publishAfter(deps, change);
  return { message: "Two-factor authentication is off." };
}

/**
 * Decision 038: replaces the caller's recovery codes with 10 new ones, answered this once (the
 * old ones stop working). Audited ('recovery-codes.generated'), the person notified. Throws
 * FORBIDDEN for an API token, BAD_REQUEST TOTP_NOT_ON.
 */
export async function regenerateRecoveryCodes(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
): Promise<{ recoveryCodes: string[]; message: string }> {
  requirePasswordSession(session);
  const recoveryCodes = newRecoveryCodes();
  const change = deps.db.transaction().execute(async (trx) => {
    const factor = await lockTotpFactor(trx, user.id);
    if (!factor?.confirmedAt) throw new AppError("BAD_REQUEST", TOTP_NOT_ON);
    await replaceRecoveryCodes(trx, user.id, recoveryCodes.map(recoveryCodeHash));
    await insertAuditEntry(trx, user.id, "recovery-codes.generated", AUDIT_ENTITY, user.id, {
      recoveryCodes: RECOVERY_CODE_COUNT,
    });
    await tell(trx, user.id, NOTICE.regenerated);
  });
  await publishAfter(deps, change);
  return { recoveryCodes, message: "New recovery codes made. Save them now: they are not shown again." };
}

/**
 * Until when the codes of `userId`, or from `ip`, are locked (null: they are not): when the 10
 * newest wrong codes of either fall within 15 minutes, for 15 minutes after the newest. Wrong codes
 * are not counted while locked, so a lock ends on time.
 */
async function lockedUntil(db: Executor, userId: string, ip: string | null, now: Date): Promise<Date | null> {
  const recent = await recentSecondFactorFailures(db, {
    userId,
    ip,
    since: new Date(now.getTime() - FAILURES_KEPT_MS),
    nth: SECOND_FACTOR_MAX_FAILURES,
  });
  let until: Date | null = null;
  for (const times of [recent.account, recent.address]) {
    if (times.length < SECOND_FACTOR_MAX_FAILURES) continue;
    const newest = times[0]!.getTime();
    const oldest = times[SECOND_FACTOR_MAX_FAILURES - 1]!.getTime();
    const end = newest + SECOND_FACTOR_LOCK_MS;
    if (newest - oldest <= SECOND_FACTOR_WINDOW_MS && end > now.getTime() && (!until || end > until.getTime()))
      until = new Date(end);
  }
  return until;
}

/**
 * Decision 038, THE check of a second-factor code, for password sign-in and re-authentication:
 * `code` is the account's authenticator code (now, ±1 step, a step after the last one used: a
 * replayed code is refused) or one of its unused recovery codes (then used up: audited
 * 'recovery-code.used', the person notified). Spaces and case do not matter. One transaction
 * holding the factor's row lock, so two uses of one code at once cannot both pass.
 * A wrong, malformed, replayed or other account's code is recorded (audited 'code.failed', the
 * person notified; the 10th in 15 minutes also 'second-factor.locked') and throws UNAUTHORIZED
 * SECOND_FACTOR_WRONG_CODE (BAD_REQUEST SECOND_FACTOR_MALFORMED_CODE for a malformed one); while
 * the account or the address `clientIp` is locked it throws TOO_MANY_REQUESTS saying when to try
 * again, checking nothing. Answers which kind of code passed.
 */
export async function checkSecondFactorCode(
  deps: AppDeps,
  input: { userId: string; code: string; clientIp?: string | undefined },
): Promise<"totp" | "recovery-code"> {
  const ip = input.clientIp ?? null;
  const code = normalizeSecondFactorCode(input.code);
  const kind = secondFactorCodeKind(code);
  const outcome = deps.db.transaction().execute(async (trx) => {
    const now = new Date();
    const factor = await lockTotpFactor(trx, input.userId);
    const until = await lockedUntil(trx, input.userId, ip, now);
    if (until) return { passed: null, until } as const;
    if (factor?.confirmedAt && kind === "totp") {
      const step = await matchingStep(factor.secret, code, factor.lastUsedStep);
      if (step !== null) {
        await setTotpLastUsedStep(trx, input.userId, step);
        return { passed: "totp" } as const;
      }
    }
    if (factor?.confirmedAt && kind === "recovery-code") {
      if (await useRecoveryCode(trx, input.userId, recoveryCodeHash(code), now)) {
        const left = await countUnusedRecoveryCodes(trx, input.userId);
        await insertAuditEntry(trx, input.userId, "recovery-code.used", AUDIT_ENTITY, input.userId, { left, ip });
        await tell(trx, input.userId, NOTICE.recoveryUsed(left));
        return { passed: "recovery-code" } as const;
      }
    }
    await insertSecondFactorFailure(trx, { userId: input.userId, ip, at: now });
    await deleteOldSecondFactorFailures(trx, input.userId, new Date(now.getTime() - FAILURES_KEPT_MS));
    await insertAuditEntry(trx, null, "code.failed", AUDIT_ENTITY, input.userId, { kind, ip });
    await tell(trx, input.userId, NOTICE.failed);
    const lockedNow = await lockedUntil(trx, input.userId, ip, now);
    if (lockedNow) {
      await insertAuditEntry(trx, null, "second-factor.locked", AUDIT_ENTITY, input.userId, {
        ip,
        until: lockedNow.toISOString(),
      });
      await tell(trx, input.userId, NOTICE.locked);
    }
    return { passed: null, until: null } as const;
  });
  const result = await publishAfter(deps, outcome);
  if (result.passed) return result.passed;
  if (result.until) {
    throw new AppError("TOO_MANY_REQUESTS", secondFactorLockedMessage(result.until.getTime() - Date.now()));
  }
  if (kind === null) throw new AppError("BAD_REQUEST", SECOND_FACTOR_MALFORMED_CODE);
  throw new AppError("UNAUTHORIZED", SECOND_FACTOR_WRONG_CODE);
}
