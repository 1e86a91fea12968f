import { z } from "zod";
import { authedProcedure, publicProcedure, router } from "../trpc";
import { ZLoginOutput } from "../schemas/accounts";
import {
  ZAuthenticationOptions,
  ZOwnPasskeys,
  ZPasskeyIdInput,
  ZPasskeySignInInput,
  ZRegisteredPasskey,
  ZRegisterPasskeyInput,
  ZRegistrationOptions,
  ZRenamePasskeyInput,
} from "../schemas/passkeys";
import {
  listOwnPasskeys,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  removeOwnPasskey,
  renameOwnPasskey,
  signInWithPasskey,
} from "../services/second-factor/passkeys";

const ZMessage = z.object({ message: z.string() });

/**
 * Decision 038: passkeys. A person manages their own (no user id is ever taken: another person's
 * passkey answers NOT_FOUND), from a signed-in session, not an API token; anyone may sign in with one.
 */
export const passkeysRouter = router({
  /** The caller's passkeys, oldest first → `{ passkeys }` (name, created, last used; never a key). */
  list: authedProcedure
    .meta({ beforeEnrolment: true })
    .output(ZOwnPasskeys)
    .query(({ ctx }) => listOwnPasskeys(ctx, ctx.user)),
  /** The options of a new passkey for navigator.credentials.create (passkeyRegistrationOptions' errors). */
  registrationOptions: authedProcedure
    .meta({ beforeEnrolment: true })
    .output(ZRegistrationOptions)
    .mutation(({ ctx }) => passkeyRegistrationOptions(ctx, ctx.user, ctx.session)),
  /** `{ name?, response }` → `{ passkey, message }`: registers the authenticator's answer (registerPasskey's errors). */
  register: authedProcedure
    .meta({ beforeEnrolment: true })
    .input(ZRegisterPasskeyInput)
    .output(ZRegisteredPasskey)
    .mutation(({ ctx, input }) => registerPasskey(ctx, ctx.user, ctx.session, input)),
  /** `{ passkeyId, name }` → `{ message }`: renames one's own passkey. */
  rename: authedProcedure
    .input(ZRenamePasskeyInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => renameOwnPasskey(ctx, ctx.user, ctx.session, input)),
  /** `{ passkeyId }` → `{ message }`: removes one's own passkey. */
  remove: authedProcedure
    .input(ZPasskeyIdInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => removeOwnPasskey(ctx, ctx.user, ctx.session, input.passkeyId)),
  /** Public: the options of a sign-in with a passkey (no email: the person picks one of the site's). */
  signInOptions: publicProcedure.output(ZAuthenticationOptions).mutation(({ ctx }) => passkeySignInOptions(ctx)),
  /** Public: `{ response }` → `{ token, user }` as accounts.login answers (signInWithPasskey's errors). */
  signIn: publicProcedure
    .input(ZPasskeySignInInput)
    .output(ZLoginOutput)
    .mutation(({ ctx, input }) => signInWithPasskey(ctx, input.response)),
});
