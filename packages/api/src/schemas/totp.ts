import { z } from "zod";
import { SECOND_FACTOR_MALFORMED_CODE } from "@tafsiri/domain";

/**
 * Decision 038: the schemas of the `totp` router. Inputs are strict: a field they do not name
 * (a `userId` above all) is refused, since every procedure acts on the caller's own account.
 */

/** A typed code: the app's 6 digits or a recovery code, with spaces allowed (normalised by the service). */
const ZSecondFactorCode = z
  .string({ error: SECOND_FACTOR_MALFORMED_CODE })
  .trim()
  .min(1, SECOND_FACTOR_MALFORMED_CODE)
  .max(32, SECOND_FACTOR_MALFORMED_CODE);

export const ZTotpStatus = z.object({
  enrolled: z.boolean(),
  confirmedAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});

export const ZTotpEnrolment = z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() });

export const ZConfirmTotpInput = z.strictObject({ code: ZSecondFactorCode });

export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()), message: z.string() });
/**
 * Turning the app on: the recovery codes and, for a session that signed in with a password alone,
 * a new token of it counting as password and code, checked just now (an admin held at enrolment goes on).
 */
export const ZTotpConfirmed = ZRecoveryCodes.extend({ token: z.string().optional() });

/** Turning the app off needs a current code (or a recovery code) or the account's password. */
export const ZDisableTotpInput = z.strictObject({
  code: ZSecondFactorCode.optional(),
  password: z.string().max(1024).optional(),
});
