import { z } from "zod";
import { CONFIRM_WITH_ONE_PROOF, SIGN_IN_METHODS } from "@tafsiri/domain";
import { ZAuthenticationResponse } from "./passkeys";

/** A running session of the sessions list (decision 038). */
const ZSessionView = z.object({
  id: z.string(),
  method: z.enum(SIGN_IN_METHODS),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});

export const ZOwnSessions = z.object({ sessions: z.array(ZSessionView) }).meta({
  examples: [
    {
      sessions: [
        {
          id: "8d0f3c2a-6b1e-4f7d-9a2c-5e4b3a291807",
          method: "passkey",
          ip: "196.43.133.10",
          userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36",
          createdAt: "2026-12-07T08:10:00.000Z",
          lastSeenAt: "2026-12-07T09:30:00.000Z",
          current: true,
        },
      ],
    },
  ],
});

/** The most characters of a password or code offered to confirm who you are. */
const PROOF_MAX = 200;

/**
 * Decision 038: how the caller proves who they are again: exactly one of a passkey's answer (to
 * sessions.passkeyChallenge), a TOTP or recovery code, or (accounts without a second factor) the password.
 */
export const ZConfirmIdentityInput = z
  .object({
    passkey: ZAuthenticationResponse.optional(),
    code: z.string().min(1, "Enter a code.").max(PROOF_MAX, "That code is too long.").optional(),
    password: z.string().min(1, "Enter your password.").max(PROOF_MAX, "That password is too long.").optional(),
  })
  .strict()
  .refine((proof) => [proof.passkey, proof.code, proof.password].filter((p) => p !== undefined).length === 1, {
    error: CONFIRM_WITH_ONE_PROOF,
  })
  .meta({ examples: [{ code: "492039" }] });
