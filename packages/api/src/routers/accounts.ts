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
  /** SPEC §2.4: sign in with email and password; returns token and user. */
  login: publicProcedure
    .input(ZLoginInput)
    .output(ZLoginOutput)
    .mutation(({ ctx, input }) => login(ctx, input.email, input.password)),

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
    .input(ZResetPasswordInput)
    .output(ZPasswordResetAnswer)
    .mutation(({ ctx, input }) => resetPassword(ctx, input.token, input.password)),

  /**
   * A fresh token for the caller's session, valid SESSION_IDLE_DAYS from now (the
   * web app renews while it is used); 401 without a valid token.
   */
  renewSession: authedProcedure.output(ZRenewedSession).mutation(({ ctx }) => renewSession(ctx, ctx.user, ctx.session)),

  /**
   * 'Sign out everywhere' (admin; decision 012): ends every session of the user: their tokens
   * answer 401 and their open sockets close within a second; 404 for an unknown user.
   */
  endSessions: adminProcedure
    .input(ZEndSessionsInput)
    .output(ZSetActiveOutput)
    .mutation(({ ctx, input }) => endSessions(ctx, ctx.user, input.userId)),

  /** The signed-in user (to refresh the stored session). */
  me: authedProcedure.output(ZPublicUser).query(({ ctx }) => getOwnAccount(ctx.db, ctx.user)),

  /** SPEC §2.10, §7.1 POST /auth/register: admin creates an account. */
  register: adminProcedure
    .input(ZRegisterInput)
    .output(ZPublicUser)
    .mutation(({ ctx, input }) => registerUser(ctx.db, ctx.user, input)),

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
    .output(ZPublicUser)
    .mutation(({ ctx, input }) => editUser(ctx, ctx.user, input)),

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
