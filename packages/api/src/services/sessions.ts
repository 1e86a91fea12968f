import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { endSession as endSessionRow, runningSessions } from "@tafsiri/db/repositories/sessions";
import { removeSecondFactors } from "@tafsiri/db/repositories/second-factor-reset";
import { findPasswordHash, findSessionUser, raiseSessionVersion } from "@tafsiri/db/repositories/users";
import { CONFIRM_WITH_ONE_PROOF, PROFILE_PATH, type SignInMethod } from "@tafsiri/domain";
import type { AppDeps, CallSession, SessionUser } from "../context";
import { AppError, SIGN_IN_REQUIRED } from "../errors/app-error";
import { publishAfter, recordEvent } from "../live/record";
import { requireAdmin } from "./access";
import { reissueSession } from "./session-start";
import { USER_NOT_FOUND } from "./accounts";
import { sessionEndedEvent } from "../live/session-events";
import { requirePasswordSession } from "./api-tokens";
import { notifyUser } from "./notifications";
import { verifyPassword } from "./auth";
import { hasPasskey, verifyPasskeyConfirmation } from "./second-factor/passkeys";
import { checkSecondFactorCode, hasTotp } from "./second-factor/totp";

/**
 * Sessions that can be ended (decision 012). Every token carries its user's session version;
 * raising the version (deactivation, reactivation, a password change or reset, 'Sign out
 * everywhere') makes every older token refused over HTTP, and the event recorded with it closes
 * the user's open WebSockets (apps/server/src/live/socket-session.ts).
 */

/**
 * 'Sign out everywhere' on an account's card (admin): raises the user's session
 * version, so every token they hold is refused (HTTP 401) and their open WebSockets close within
 * a second; audited ('sign-out-everywhere'). An admin may end their own sessions too.
 * Throws FORBIDDEN for non-admins, NOT_FOUND 'User not found.'. Returns the sentence the admin
 * is shown: `{ message: 'amina has been signed out everywhere.' }`.
 */
export async function endSessions(deps: AppDeps, admin: SessionUser, userId: string): Promise<{ message: string }> {
  requireAdmin(admin);
  const change = deps.db.transaction().execute(async (trx) => {
    const raised = await raiseSessionVersion(trx, userId);
    if (raised === undefined) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
    await insertAuditEntry(trx, admin.id, "sign-out-everywhere", "user", userId);
    await recordEvent(trx, sessionEndedEvent(userId, raised.sessionVersion));
    return raised.username;
  });
  const username = await publishAfter(deps, change);
  return { message: `${username} has been signed out everywhere.` };
}

/**
 * A fresh token for the caller's session (same user and session version),
 * valid for SESSION_IDLE_DAYS from now (the same session row, sign-in method and last check of who
 * the person is: decision 038); the web app renews while it is used, so a session ends
 * only by Sign Out, by being ended, or after SESSION_IDLE_DAYS without use. Records a
 * 'session.renewed' event so the user's open sockets stay open until the new expiry.
 * Throws UNAUTHORIZED 'You must be signed in.' without a token session, FORBIDDEN
 * API_TOKEN_NEEDS_SIGN_IN for an API token (decision 036).
 * Returns `{ token, expiresAt }` (ISO time).
 */
export async function renewSession(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
): Promise<{ token: string; expiresAt: string }> {
  if (!session) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  // Decision 036: an API token never turns into a session token (a read-only one would gain writes).
  requirePasswordSession(session);
  const { token, expiresAt } = await reissueSession(
    deps,
    { id: user.id, role: user.role, sessionVersion: session.version },
    session,
  );
  const change = deps.db.transaction().execute((trx) =>
    recordEvent(trx, {
      audience: "user",
      recipientId: user.id,
      kind: "session.renewed",
      payload: { sessionVersion: session.version, expiresAt: expiresAt.toISOString() },
    }),
  );
  await publishAfter(deps, change);
  return { token, expiresAt: expiresAt.toISOString() };
}

/** The most sessions the sessions list shows. */
const SESSIONS_LISTED = 50;

/** A running session as the Profile's sessions list shows it (decision 038). */
export interface SessionView {
  id: string;
  method: SignInMethod;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** True for the session this call came from. */
  current: boolean;
}

/**
 * Decision 038: the caller's running sessions (signed in since their last 'Sign out everywhere' or
 * password change, not signed out, not expired), newest first, at most 50: how each signed in
 * (password, password + TOTP or recovery code, passkey), from where, when, last renewed.
 */
export async function listOwnSessions(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
): Promise<{ sessions: SessionView[] }> {
  const version = session?.version ?? (await findSessionUser(deps.db, user.id))?.sessionVersion ?? 0;
  const rows = await runningSessions(deps.db, user.id, version, SESSIONS_LISTED);
  return {
    sessions: rows.map((row) => ({
      id: row.id,
      method: row.method,
      ip: row.ip,
      userAgent: row.userAgent,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      current: row.id === session?.signIn?.id,
    })),
  };
}

/**
 * Decision 038: Sign Out: marks the caller's session row signed out (the web app forgets its token
 * too). A token without a session row (made before sessions were rows) changes nothing. Throws
 * FORBIDDEN API_TOKEN_NEEDS_SIGN_IN for an API token. Answers `{ message: 'Signed out.' }`.
 */
export async function signOutSession(
  deps: AppDeps,
  user: SessionUser,
  session: CallSession | null | undefined,
): Promise<{ message: string }> {
  if (!session) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  requirePasswordSession(session);
  if (session.signIn) await endSessionRow(deps.db, session.signIn.id, user.id);
  return { message: "Signed out." };
}

/** How the caller proves who they are again (decision 038): one of a passkey, a code, or the password. */
export interface IdentityProof {
  passkey?: AuthenticationResponseJSON | undefined;
  code?: string | undefined;
  password?: string | undefined;
}

/** 'The password is not right.': a wrong password when confirming who you are. */
const WRONG_PASSWORD = "The password is not right.";
/** The password alone no longer proves who someone with a second factor is. */
const USE_SECOND_FACTOR = "Use your passkey or a code from your authenticator app: this account has a second factor.";

/**
 * Decision 038, re-authentication: checks `proof` (one of the caller's passkeys answering the
 * challenge of passkeyConfirmOptions; a TOTP or recovery code through checkSecondFactorCode, with
 * its limits; or, only for an account with neither, the password) and answers a new token for the
 * same session whose last check is now, so sensitive actions pass for the next 10 minutes. An
 * admin who signed in with a password alone and proves a factor they already hold counts as
 * signed in with it. Throws UNAUTHORIZED without a session, FORBIDDEN API_TOKEN_NEEDS_SIGN_IN for
 * an API token, FORBIDDEN with the passkey's refusal, UNAUTHORIZED/TOO_MANY_REQUESTS with the
 * code's, UNAUTHORIZED 'The password is not right.', BAD_REQUEST when the password is offered by an
 * account with a second factor. Audited ('identity.confirmed').
 */
export async function confirmIdentity(
  deps: AppDeps & { clientIp?: string | undefined },
  user: SessionUser,
  session: CallSession | null | undefined,
  proof: IdentityProof,
): Promise<{ token: string; expiresAt: string }> {
  if (!session) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  requirePasswordSession(session);
  let method: SignInMethod;
  if (proof.passkey) {
    await verifyPasskeyConfirmation(deps, user.id, proof.passkey);
    method = "passkey";
  } else if (proof.code !== undefined) {
    const kind = await checkSecondFactorCode(deps, { userId: user.id, code: proof.code, clientIp: deps.clientIp });
    method = kind === "totp" ? "password+totp" : "password+recovery-code";
  } else if (proof.password !== undefined) {
    if ((await hasTotp(deps.db, user.id)) || (await hasPasskey(deps.db, user.id))) {
      throw new AppError("BAD_REQUEST", USE_SECOND_FACTOR);
    }
    const hash = await findPasswordHash(deps.db, user.id);
    if (hash === undefined || !(await verifyPassword(hash, proof.password))) {
      throw new AppError("UNAUTHORIZED", WRONG_PASSWORD);
    }
    method = "password";
  } else {
    throw new AppError("BAD_REQUEST", CONFIRM_WITH_ONE_PROOF);
  }
  const upgrade = session.signIn?.method === "password" && method !== "password" ? { method } : {};
  const { token, expiresAt } = await reissueSession(
    deps,
    { id: user.id, role: user.role, sessionVersion: session.version },
    session,
    { verified: true, ...upgrade },
  );
  await insertAuditEntry(deps.db, user.id, "identity.confirmed", "user", user.id, { method });
  return { token, expiresAt: expiresAt.toISOString() };
}

/** What the user is told when an admin resets their second factor. */
const SECOND_FACTOR_RESET_NOTICE =
  "An administrator removed your passkeys and authenticator app, and signed you out everywhere. Add a second factor again from your profile.";

/**
 * Decision 038: an admin resets another user's second factor (a lost phone, a lost passkey):
 * deletes their authenticator app, recovery codes and passkeys, ends every session they hold
 * (session version; their sockets close), audits ('reset-second-factor', with what was removed)
 * and tells them. Not one's own (BAD_REQUEST: remove your own from your profile). Throws FORBIDDEN
 * for non-admins, NOT_FOUND 'User not found.'. Answers `{ message }`.
 */
export async function resetSecondFactor(
  deps: AppDeps,
  admin: SessionUser,
  userId: string,
): Promise<{ message: string }> {
  requireAdmin(admin);
  if (userId === admin.id) {
    throw new AppError("BAD_REQUEST", "Remove your own passkeys and authenticator app from your profile.");
  }
  const change = deps.db.transaction().execute(async (trx) => {
    const raised = await raiseSessionVersion(trx, userId);
    if (raised === undefined) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
    const removed = await removeSecondFactors(trx, userId);
    await insertAuditEntry(trx, admin.id, "reset-second-factor", "user", userId, removed);
    await notifyUser(trx, {
      recipientId: userId,
      senderId: admin.id,
      message: SECOND_FACTOR_RESET_NOTICE,
      link: PROFILE_PATH,
      audioId: null,
    });
    await recordEvent(trx, sessionEndedEvent(userId, raised.sessionVersion));
    return raised.username;
  });
  const username = await publishAfter(deps, change);
  return { message: `${username}'s second factor has been reset; they were signed out everywhere.` };
}
