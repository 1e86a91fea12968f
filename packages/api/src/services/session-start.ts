import { insertSession, touchSession } from "@tafsiri/db/repositories/sessions";
import type { SignInMethod } from "@tafsiri/domain";
import type { AppDeps, CallSession, SessionSignIn } from "../context";
import { DEFAULT_SESSION_LIFETIME_SECONDS, signSessionToken, type TokenSubject } from "./auth";

/** Where a sign-in came from, as the sessions list shows it. */
export interface SignInClient {
  clientIp?: string | undefined;
  userAgent?: string | undefined;
}

/**
 * Decision 038: starts a session of `user` (id, role, session version) that signed in by `method`
 * (password, password + TOTP or recovery code, passkey): writes its `sessions` row (address and
 * user agent from `client`) and signs its token (decision 012's lifetime) carrying the session's
 * id, the method and now as the last check of who the person is. Answers `{ token, expiresAt }`.
 */
export async function startSession(
  deps: Pick<AppDeps, "db" | "jwtSecret" | "sessionLifetimeSeconds">,
  user: TokenSubject,
  method: SignInMethod,
  client: SignInClient,
): Promise<{ token: string; expiresAt: Date }> {
  const lifetime = deps.sessionLifetimeSeconds ?? DEFAULT_SESSION_LIFETIME_SECONDS;
  const expiresAt = new Date(Date.now() + lifetime * 1000);
  const id = await insertSession(deps.db, {
    userId: user.id,
    sessionVersion: user.sessionVersion,
    method,
    ip: client.clientIp ?? null,
    userAgent: client.userAgent ?? null,
    expiresAt,
  });
  const signIn: SessionSignIn = { id, method, verifiedAt: new Date() };
  return signSessionToken(deps.jwtSecret, user, lifetime, signIn);
}

/**
 * Decision 038: a new token for the caller's session (same user, version and session row), after
 * a renewal (`change` empty: the same method and last check) or after the person proved who they
 * are again (`change.verified`: the last check is now; `change.method`: a stronger way it now
 * counts as signed in, after enrolling a second factor). A token without a session row (made before
 * sessions were rows) is answered a token that still has none. Answers `{ token, expiresAt }`.
 */
export async function reissueSession(
  deps: Pick<AppDeps, "db" | "jwtSecret" | "sessionLifetimeSeconds">,
  user: TokenSubject,
  session: CallSession,
  change: { verified?: boolean; method?: SignInMethod } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const before = session.signIn;
  const signIn: SessionSignIn | undefined = before && {
    id: before.id,
    method: change.method ?? before.method,
    verifiedAt: change.verified ? new Date() : before.verifiedAt,
  };
  const signed = await signSessionToken(deps.jwtSecret, user, deps.sessionLifetimeSeconds, signIn);
  if (signIn) {
    await touchSession(deps.db, signIn.id, user.id, {
      expiresAt: signed.expiresAt,
      ...(change.method ? { method: change.method } : {}),
      ...(change.verified ? { verifiedAt: signIn.verifiedAt } : {}),
    });
  }
  return signed;
}
