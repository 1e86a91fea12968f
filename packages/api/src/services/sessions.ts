import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { raiseSessionVersion } from "@tafsiri/db/repositories/users";
import type { AppDeps, CallSession, SessionUser } from "../context";
import { AppError, SIGN_IN_REQUIRED } from "../errors/app-error";
import { publishAfter, recordEvent } from "../live/record";
import { requireAdmin } from "./access";
import { signSessionToken } from "./auth";
import { USER_NOT_FOUND } from "./accounts";
import { sessionEndedEvent } from "../live/session-events";
import { requirePasswordSession } from "./api-tokens";

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
 * valid for SESSION_IDLE_DAYS from now; the web app renews while it is used, so a session ends
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
  const { token, expiresAt } = await signSessionToken(
    deps.jwtSecret,
    { id: user.id, role: user.role, sessionVersion: session.version },
    deps.sessionLifetimeSeconds,
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
