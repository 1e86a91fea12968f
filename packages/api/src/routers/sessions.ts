import { z } from "zod";
import { authedProcedure, router, sensitiveAdminProcedure } from "../trpc";
import { REAUTH_STATUS } from "../services/identity-checks";
import { ZEndSessionsInput, ZRenewedSession } from "../schemas/accounts";
import { ZAuthenticationOptions } from "../schemas/passkeys";
import { ZConfirmIdentityInput, ZOwnSessions } from "../schemas/sessions";
import { passkeyConfirmOptions } from "../services/second-factor/passkeys";
import { confirmIdentity, listOwnSessions, resetSecondFactor, signOutSession } from "../services/sessions";

const ACCOUNTS = ["Accounts"];

/** Decision 038: the caller's sessions, signing out, and proving who they are again. */
export const sessionsRouter = router({
  /** → `{ sessions }`: the caller's running sessions, how each signed in (listOwnSessions). */
  list: authedProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/auth/sessions",
        summary: "List your sessions",
        description:
          "ARCHITECTURE \"Decisions\", decision 038. The caller's running sessions (signed in since the last 'Sign out everywhere' or password " +
          "change, not signed out, not expired), newest first, at most 50: how each signed in (`password`, " +
          "`password+totp`, `password+recovery-code`, `passkey`), its address and browser, when it began and was " +
          "last renewed, and which is this one. 401 without a session.",
        tags: ACCOUNTS,
      },
    })
    .output(ZOwnSessions)
    .query(({ ctx }) => listOwnSessions(ctx, ctx.user, ctx.session)),

  /** Sign Out → `{ message }`: the caller's session is marked signed out (signOutSession). */
  signOut: authedProcedure
    .meta({
      beforeEnrolment: true,
      rest: {
        method: "POST",
        path: "/auth/signout",
        summary: "Sign out",
        description:
          "SPEC §2.3 (Sign Out); decision 038. Marks the caller's session signed out in the sessions list; the " +
          "client forgets its token. 401 without a session, 403 'API tokens are managed only when signed in with a " +
          "password, not with a token.' for an API token.",
        tags: ACCOUNTS,
        done: true,
      },
    })
    .output(z.object({ message: z.string() }))
    .mutation(({ ctx }) => signOutSession(ctx, ctx.user, ctx.session)),

  /** → WebAuthn request options for confirming who the caller is with one of their passkeys (passkeyConfirmOptions). */
  passkeyChallenge: authedProcedure
    .meta({ beforeEnrolment: true })
    .output(ZAuthenticationOptions)
    .mutation(({ ctx }) => passkeyConfirmOptions(ctx, ctx.user.id)),

  /** `{ passkey } | { code } | { password }` → `{ token, expiresAt }` checked just now (confirmIdentity). */
  confirmIdentity: authedProcedure
    .meta({
      beforeEnrolment: true,
      rest: {
        method: "POST",
        path: "/auth/confirm-identity",
        summary: "Confirm who you are again",
        description:
          'ARCHITECTURE "Decisions", decision 038 (re-authentication before sensitive actions). Body: exactly one of `passkey` (the answer ' +
          "to a challenge of sessions.passkeyChallenge), `code` (a TOTP or recovery code) or `password` (only for " +
          "an account with no second factor). Answers a new token for the same session; sensitive actions accept " +
          "it for 10 minutes. 400 for a body with none or several, a malformed code, or a password offered by an " +
          "account with a second factor; 401 without a session, for a wrong code or 'The password is not right.'; " +
          "403 for an API token or a passkey that does not verify; 429 while codes are locked after 10 wrong ones; 503 " +
          "when this server has no passkey settings (WEBAUTHN_RP_ID, WEBAUTHN_ORIGIN).",
        tags: ACCOUNTS,
      },
    })
    .input(ZConfirmIdentityInput)
    .output(ZRenewedSession)
    .mutation(({ ctx, input }) => confirmIdentity(ctx, ctx.user, ctx.session, input)),

  /** `{ userId }` → `{ message }`: an admin resets another user's passkeys and app (resetSecondFactor). */
  resetSecondFactor: sensitiveAdminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/auth/reset-second-factor",
        summary: "Reset a user's second factor (admin)",
        description:
          "SPEC §6 (Admin only); decision 038. Removes the user's passkeys, authenticator app and recovery codes, signs them out " +
          "everywhere and tells them; audited. 400 without userId or for one's own account, 401, 403 for staff, " +
          `404 'User not found.'. ${REAUTH_STATUS}`,
        tags: ACCOUNTS,
        done: true,
      },
    })
    .input(ZEndSessionsInput)
    .output(z.object({ message: z.string() }))
    .mutation(({ ctx, input }) => resetSecondFactor(ctx, ctx.user, input.userId)),
});
