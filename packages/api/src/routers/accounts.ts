import { z } from "zod";
import { adminProcedure, authedProcedure, publicProcedure, router } from "../trpc";
import {
  ZEditAccountInput,
  ZListAccountsInput,
  ZLoginInput,
  ZProfileInput,
  ZLoginOutput,
  ZPublicUser,
  ZRegisterInput,
  ZSetActiveInput,
  ZSetActiveOutput,
  ZStaffMember,
  ZPasswordResetAnswer,
  ZRequestPasswordResetInput,
  ZResetPasswordInput,
  ZEndSessionsInput,
  ZEndSessionsOutput,
  ZAccountSaved,
  ZRenewedSession,
} from "../schemas/accounts";
import { endSessions, renewSession } from "../services/sessions";
import { requestPasswordReset, resetPassword } from "../services/password-reset";
import {
  editUser,
  getOwnAccount,
  getProfile,
  listAccounts,
  listStaff,
  login,
  registerUser,
  setUserActive,
} from "../services/accounts";

export const accountsRouter = router({
  /**
   * SPEC §2.4: sign in with email and password; returns token and user. Decision 038: an account
   * with an authenticator app answers 401 with `data.reason` SECOND_FACTOR_REQUIRED until `otp`
   * (its code or a recovery code) comes along.
   */
  login: publicProcedure
    .input(ZLoginInput)
    .output(ZLoginOutput)
    .mutation(({ ctx, input }) => login(ctx, input.email, input.password, input.otp)),

  /**
   * SPEC §2.5, §7.1 GET /auth/passwordreset/{email}: e-mails a single-use reset link to an active
   * account; the same answer for every address; 429 past the per-e-mail or per-IP limit.
   */
  requestPasswordReset: publicProcedure
    .input(ZRequestPasswordResetInput)
    .output(ZPasswordResetAnswer)
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input.email)),

  /** The reset link's page: sets a Strong password, ends the link and every older session. */
  resetPassword: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/auth/resetpassword",
        public: true,
        summary: "Set a new password from a reset link",
        description:
          "SPEC §2.5, §5, §8 (the page of the e-mailed link). Sets the password and ends the link, every other link " +
          "of the user and every older session. 400 'Password is weak. …', 'This reset link has expired.', 'This " +
          "reset link has already been used.' or 'This reset link is not valid.'.",
        tags: ["Accounts"],
      },
    })
    .input(
      ZResetPasswordInput.meta({
        examples: [{ token: "q3Jx0vJ9m8m0l7H5bYd6wQ2v1kzq4r8tT0pO5xw3e1A", password: "N3w-Str0ng-pass!" }],
      }),
    )
    .output(
      ZPasswordResetAnswer.meta({
        examples: [{ status: "success", message: "Your password has been reset. Sign in with your new password." }],
      }),
    )
    .mutation(({ ctx, input }) => resetPassword(ctx, input.token, input.password)),

  /**
   * A fresh token for the caller's session, valid SESSION_IDLE_DAYS from now (the
   * web app renews while it is used); 401 without a valid token.
   */
  renewSession: authedProcedure
    .meta({
      beforeEnrolment: true,
      rest: {
        method: "POST",
        path: "/auth/renew",
        summary: "Renew the session token",
        description:
          "SPEC §4 (a session lasts until Sign Out), decision 012. Answers a fresh token for the caller's session, " +
          "valid SESSION_IDLE_DAYS (30) from now; a session ends only by sign-out, by being ended, or after that many " +
          "days without renewal. The old token stays valid until it expires. 401 without a valid token, 403 'API " +
          "tokens are managed only when signed in with a password, not with a token.' for an API token (decision 036).",
        tags: ["Accounts"],
        done: true,
      },
    })
    .output(ZRenewedSession)
    .mutation(({ ctx }) => renewSession(ctx, ctx.user, ctx.session)),

  /**
   * 'Sign out everywhere' (admin; decision 012): ends every session of the user: their tokens
   * answer 401 and their open sockets close within a second; 404 for an unknown user.
   */
  endSessions: adminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/auth/signouteverywhere",
        summary: "Sign a user out everywhere (admin)",
        description:
          "SPEC §2.10, §4, decision 012. Ends every session of the user: their tokens answer 401 from then on and " +
          "their open live connections close within a second. 400 without userId, 401, 403, 404 for an unknown user.",
        tags: ["Accounts"],
        done: true,
      },
    })
    .input(ZEndSessionsInput)
    .output(ZEndSessionsOutput)
    .mutation(({ ctx, input }) => endSessions(ctx, ctx.user, input.userId)),

  /** The signed-in user (to refresh the stored session). */
  me: authedProcedure
    .meta({ beforeEnrolment: true })
    .output(ZPublicUser)
    .query(({ ctx }) => getOwnAccount(ctx.db, ctx.user)),

  /** SPEC §2.10, §7.1 POST /auth/register: admin creates an account. */
  register: adminProcedure
    .input(ZRegisterInput)
    .output(ZAccountSaved)
    .mutation(({ ctx, input }) => registerUser(ctx.db, ctx.user, input, ctx.session)),

  /**
   * SPEC §2.10, §7.1 GET /auth/users (admin): every user `{ id, username, email, role, active, image }`
   * by username, narrowed by `role` and/or `active` when given.
   */
  list: adminProcedure
    .input(ZListAccountsInput)
    .output(z.array(ZPublicUser))
    .query(({ ctx, input }) => listAccounts(ctx.db, ctx.user, input)),

  /** SPEC §7.1 GET /auth/profile/{id}: one user's public fields, for that user or an admin (403 otherwise, 404). */
  profile: authedProcedure
    .input(ZProfileInput)
    .output(ZPublicUser)
    .query(({ ctx, input }) => getProfile(ctx.db, ctx.user, input.userId)),

  /**
   * SPEC §2.10, §5, §7.1 PUT /auth/editprofile (admin): edits username, email, role and optionally
   * the password, confirmed with the admin's own password (401), 409 for a taken email or username
   * or demoting the last active admin, 400 for a weak password, 404 for an unknown user.
   */
  edit: adminProcedure
    .input(ZEditAccountInput)
    .output(ZAccountSaved)
    .mutation(({ ctx, input }) => editUser(ctx, ctx.user, input, ctx.session)),

  /** SPEC §7.1 GET /auth/staff: active staff members (id, username). */
  staff: authedProcedure.output(z.array(ZStaffMember)).query(({ ctx }) => listStaff(ctx.db)),

  /**
   * SPEC §2.10, §7.1 POST /api/update-status: admin activates or deactivates an account (not their
   * own deactivation, nor the last active admin's: 409); a deactivated user's live subscriptions
   * are closed at once.
   */
  setActive: adminProcedure
    .input(ZSetActiveInput)
    .output(ZSetActiveOutput)
    .mutation(({ ctx, input }) => setUserActive(ctx, ctx.user, input)),
});
