import { z } from "zod";
import { adminProcedure, authedProcedure, publicProcedure, router } from "../trpc";
import {
  ZLoginInput,
  ZLoginOutput,
  ZPublicUser,
  ZRegisterInput,
  ZSetActiveInput,
  ZSetActiveOutput,
  ZStaffMember,
} from "../schemas/accounts";
import { getOwnAccount, listStaff, login, registerUser, setUserActive } from "../services/accounts";

export const accountsRouter = router({
  /** SPEC §2.4: sign in with email and password; returns token and user. */
  login: publicProcedure
    .input(ZLoginInput)
    .output(ZLoginOutput)
    .mutation(({ ctx, input }) => login(ctx.db, ctx.jwtSecret, input.email, input.password)),

  /** The signed-in user (to refresh the stored session). */
  me: authedProcedure.output(ZPublicUser).query(({ ctx }) => getOwnAccount(ctx.db, ctx.user)),

  /** SPEC §2.10, §7.1 POST /auth/register: admin creates an account. */
  register: adminProcedure
    .input(ZRegisterInput)
    .output(ZPublicUser)
    .mutation(({ ctx, input }) => registerUser(ctx.db, ctx.user, input)),

  /** SPEC §7.1 GET /auth/staff: active staff members (id, username). */
  staff: authedProcedure.output(z.array(ZStaffMember)).query(({ ctx }) => listStaff(ctx.db)),

  /**
   * SPEC §2.10, §7.1 POST /api/update-status: admin activates or deactivates an account (not their
   * own deactivation); a deactivated user's live subscriptions are closed at once.
   */
  setActive: adminProcedure
    .input(ZSetActiveInput)
    .output(ZSetActiveOutput)
    .mutation(({ ctx, input }) => setUserActive(ctx, ctx.user, input)),
});
