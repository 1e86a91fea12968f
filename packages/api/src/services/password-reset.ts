import { createHash, randomBytes } from "node:crypto";
import type { Database } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { findUserByEmail } from "@tafsiri/db/repositories/users";
import {
  findPasswordResetForUpdate,
  insertPasswordReset,
  setUserPassword,
  usePasswordResets,
} from "@tafsiri/db/repositories/password-resets";
import type { AppDeps } from "../context";
import { AppError } from "../errors/app-error";
import { hashPassword } from "./auth";
import { assertStrongPassword } from "./accounts";
import { publishAfter, recordEvent } from "../live/record";
import { sessionEndedEvent } from "../live/session-events";

/** The one answer to every reset request, whatever the address (no account enumeration). */
export const RESET_REQUESTED = "If an account exists for that e-mail, a reset link has been sent.";
const RESET_DONE = "Your password has been reset. Sign in with your new password.";
const RESET_EXPIRED = "This reset link has expired.";
const RESET_USED = "This reset link has already been used.";
const RESET_INVALID = "This reset link is not valid.";
const TOO_MANY_RESETS = "Too many password reset requests. Please wait 15 minutes and try again.";

/** How long a reset link lasts. */
const RESET_LIFETIME_MS = 60 * 60 * 1000;
/** Reset requests allowed per e-mail address, and per IP, in one window. */
const RESETS_PER_EMAIL = 5;
const RESETS_PER_IP = 20;
const RESET_WINDOW_MS = 15 * 60 * 1000;

/** The sha256 (hex) of a reset token: what the database keeps. */
export function hashResetToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Counts requests per key in fixed windows, in memory (one process). */
class WindowCounter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}
  /** Counts one request for `key`; false once past the limit of the current window. */
  take(key: string, now: number): boolean {
    if (this.hits.size > 10_000) {
      for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
    }
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.max;
  }
}

/** One pair of counters per database (per app), so tests with fresh databases start afresh. */
const limits = new WeakMap<Database, { email: WindowCounter; ip: WindowCounter }>();

function limitsFor(db: Database) {
  let found = limits.get(db);
  if (!found) {
    found = {
      email: new WindowCounter(RESETS_PER_EMAIL, RESET_WINDOW_MS),
      ip: new WindowCounter(RESETS_PER_IP, RESET_WINDOW_MS),
    };
    limits.set(db, found);
  }
  return found;
}

/** The reset page's address for `token` (SPEC §2.5). */
function resetLink(publicUrl: string | undefined, token: string): string {
  const base = (publicUrl ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
  return `${base}/reset-password/${token}`;
}

/**
 * SPEC §2.5, §7.1 GET /auth/passwordreset/{email}: answers the same message whatever the address.
 * For an active account, stores a new single-use link (sha256 of a random 32-byte token, 60 minutes)
 * and e-mails it (deps.mailer) without waiting for the mail server; failures are logged. A token is
 * made and hashed for every address so the answer takes about as long either way.
 * Throws TOO_MANY_REQUESTS past RESETS_PER_EMAIL per address or RESETS_PER_IP per IP in 15 minutes.
 */
export async function requestPasswordReset(
  deps: AppDeps & { clientIp?: string | undefined },
  email: string,
): Promise<{ status: "success"; message: string }> {
  const address = email.trim().toLowerCase();
  const now = Date.now();
  const limit = limitsFor(deps.db);
  const ipAllowed = deps.clientIp === undefined || limit.ip.take(deps.clientIp, now);
  if (!ipAllowed || !limit.email.take(address, now)) throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_RESETS);

  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashResetToken(token);
  const user = address ? await findUserByEmail(deps.db, address) : undefined;
  if (user?.active) {
    await insertPasswordReset(deps.db, { userId: user.id, tokenHash, expiresAt: new Date(now + RESET_LIFETIME_MS) });
    const link = resetLink(deps.publicUrl, token);
    const log = deps.log ?? console.log;
    if (!deps.mailer || deps.mailer.kind === "outbox") log(`Password reset link for ${user.email}: ${link}`);
    if (deps.mailer) {
      const mailer = deps.mailer;
      void mailer
        .send({
          to: user.email,
          subject: "Reset your Tafsiri password",
          text: `Hello ${user.username},\n\nSomeone asked to reset the password of your Tafsiri account. To choose a new password, open this link within 60 minutes:\n\n${link}\n\nThe link works once. If you did not ask for this, ignore this e-mail; your password stays as it is.\n`,
        })
        .catch((error: unknown) =>
          log(`Password reset mail to ${user.email} failed: ${error instanceof Error ? error.message : String(error)}`),
        );
    }
  }
  return { status: "success", message: RESET_REQUESTED };
}

/**
 * Sets a new password from a reset link: the password must be Strong (BAD_REQUEST 'Password is
 * weak. …'), the link known (BAD_REQUEST 'This reset link is not valid.'), unused ('This reset link
 * has already been used.') and unexpired ('This reset link has expired.'). Marks this and every
 * other outstanding link of the user used, makes now the password change time, raises the session
 * version (every older session token is refused and the user's open sockets close: decision 012)
 * and writes an audit entry ('reset-password'), in one transaction.
 */
export async function resetPassword(
  deps: AppDeps,
  token: string,
  password: string,
): Promise<{ status: "success"; message: string }> {
  assertStrongPassword(password);
  const passwordHash = await hashPassword(password);
  const tokenHash = hashResetToken(token);
  const change = deps.db.transaction().execute(async (trx) => {
    const link = await findPasswordResetForUpdate(trx, tokenHash);
    if (!link) throw new AppError("BAD_REQUEST", RESET_INVALID);
    if (link.usedAt) throw new AppError("BAD_REQUEST", RESET_USED);
    if (link.expiresAt.getTime() <= Date.now()) throw new AppError("BAD_REQUEST", RESET_EXPIRED);
    const now = new Date();
    const sessionVersion = await setUserPassword(trx, link.userId, passwordHash, now);
    if (sessionVersion === undefined) throw new AppError("BAD_REQUEST", RESET_INVALID);
    await usePasswordResets(trx, link.userId, now);
    await insertAuditEntry(trx, link.userId, "reset-password", "user", link.userId);
    await recordEvent(trx, sessionEndedEvent(link.userId, sessionVersion));
  });
  await publishAfter(deps, change);
  return { status: "success", message: RESET_DONE };
}
