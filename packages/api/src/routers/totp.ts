import { z } from "zod";
import { reissueSession } from "../services/session-start";
import { authedProcedure, router } from "../trpc";
import {
  ZConfirmTotpInput,
  ZDisableTotpInput,
  ZRecoveryCodes,
  ZTotpConfirmed,
  ZTotpEnrolment,
  ZTotpStatus,
} from "../schemas/totp";
import {
  confirmTotpEnrolment,
  disableTotp,
  regenerateRecoveryCodes,
  startTotpEnrolment,
  totpStatus,
} from "../services/second-factor/totp";

const ZMessage = z.object({ message: z.string() });

/**
 * Decision 038: the caller's own authenticator app (TOTP) and recovery codes. No procedure takes
 * a user: each acts on the signed-in account only, and none may be called with an API token.
 */
export const totpRouter = router({
  /** Decision 038: `{ enrolled, confirmedAt, recoveryCodesLeft }` of the caller's own account. */
  status: authedProcedure
    .meta({ beforeEnrolment: true })
    .output(ZTotpStatus)
    .query(({ ctx }) => totpStatus(ctx, ctx.user)),
  /**
   * Decision 038: starts adding an authenticator app → `{ secret, uri, qrSvg }` (the base32 secret,
   * the otpauth:// URI and its QR code); nothing changes at sign-in until `confirm` (startTotpEnrolment's errors).
   */
  start: authedProcedure
    .meta({ beforeEnrolment: true })
    .output(ZTotpEnrolment)
    .mutation(({ ctx }) => startTotpEnrolment(ctx, ctx.user, ctx.session)),
  /**
   * Decision 038: `{ code }` of the app → the app is on; `{ recoveryCodes, message }`: 10 recovery
   * codes, shown this once (confirmTotpEnrolment's errors).
   */
  confirm: authedProcedure
    .meta({ beforeEnrolment: true })
    .input(ZConfirmTotpInput)
    .output(ZTotpConfirmed)
    .mutation(async ({ ctx, input }) => {
      const confirmed = await confirmTotpEnrolment(ctx, ctx.user, ctx.session, input.code);
      // The code just checked proves the app: a password-only session now counts as password and code.
      if (ctx.session?.signIn?.method !== "password") return confirmed;
      const subject = { id: ctx.user.id, role: ctx.user.role, sessionVersion: ctx.session.version };
      const { token } = await reissueSession(ctx, subject, ctx.session, { verified: true, method: "password+totp" });
      return { ...confirmed, token };
    }),
  /**
   * Decision 038: `{ code }` (the app's or a recovery code) or `{ password }` → the app is off and
   * the recovery codes deleted; a wrong code counts toward the lockout (disableTotp's errors).
   */
  disable: authedProcedure
    .input(ZDisableTotpInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) =>
      disableTotp(ctx, ctx.user, ctx.session, { code: input.code, password: input.password, clientIp: ctx.clientIp }),
    ),
  /** Decision 038: 10 new recovery codes, shown this once; the old ones stop working (regenerateRecoveryCodes' errors). */
  regenerateRecoveryCodes: authedProcedure
    .output(ZRecoveryCodes)
    .mutation(({ ctx }) => regenerateRecoveryCodes(ctx, ctx.user, ctx.session)),
});
