import {
  REAUTH_REQUIRED,
  REAUTH_REQUIRED_MESSAGE,
  REAUTH_WINDOW_MS,
  SECOND_FACTOR_ENROLMENT_MESSAGE,
  SECOND_FACTOR_ENROLMENT_REQUIRED,
} from "@tafsiri/domain";
import type { CallSession, SessionUser } from "../context";
import { AppError } from "../errors/app-error";

/** How the REST descriptions of sensitive actions name their 403 REAUTH_REQUIRED (decision 038). */
export const REAUTH_STATUS =
  "403 with `reason` REAUTH_REQUIRED when the session last proved who the person is (sign-in, passkey, " +
  "authenticator code) more than 10 minutes ago: POST /auth/confirm-identity, then try again (decision 038).";

/** What the checks of decision 038 read of a call. */
interface CallIdentity {
  user: SessionUser | null;
  session?: CallSession | null | undefined;
  requireAdminSecondFactor?: boolean | undefined;
}

/**
 * Decision 038: true when the call is an admin's session that signed in with a password alone
 * while REQUIRE_ADMIN_SECOND_FACTOR is on: it may only enrol a second factor (or confirm one it
 * has), read its own account and sign out. A session token that carries no sign-in method counts
 * as a password alone. API tokens and callers made in code (no session) are not sessions.
 */
function mustEnrolSecondFactor(call: CallIdentity): boolean {
  if (!call.requireAdminSecondFactor || call.user?.role !== "Admin") return false;
  if (!call.session || call.session.apiToken) return false;
  return (call.session.signIn?.method ?? "password") === "password";
}

/** Throws FORBIDDEN SECOND_FACTOR_ENROLMENT_REQUIRED (decision 038) when mustEnrolSecondFactor holds. */
export function refuseBeforeEnrolment(call: CallIdentity): void {
  if (mustEnrolSecondFactor(call)) {
    throw new AppError("FORBIDDEN", SECOND_FACTOR_ENROLMENT_MESSAGE, { reason: SECOND_FACTOR_ENROLMENT_REQUIRED });
  }
}

/**
 * Decision 038, re-authentication before sensitive actions: throws FORBIDDEN REAUTH_REQUIRED when
 * the caller's session last proved who the person is more than REAUTH_WINDOW_MS (10 minutes) ago,
 * or never (a token without its sign-in claims). API tokens (which cannot be made without such a
 * check) and callers made in code (no session) pass.
 */
export function requireRecentIdentityCheck(call: Pick<CallIdentity, "session">, now = Date.now()): void {
  const session = call.session;
  if (!session || session.apiToken) return;
  const at = session.signIn?.verifiedAt.getTime();
  if (at === undefined || now - at > REAUTH_WINDOW_MS) {
    throw new AppError("FORBIDDEN", REAUTH_REQUIRED_MESSAGE, { reason: REAUTH_REQUIRED });
  }
}
