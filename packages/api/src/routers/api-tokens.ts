import { adminProcedure, authedProcedure, router } from "../trpc";
import { z } from "zod";
import {
  ZApiTokenIdInput,
  ZApiTokenPage,
  ZApiTokenPageInput,
  ZCreateApiTokenInput,
  ZCreatedApiToken,
  ZOwnApiTokens,
} from "../schemas/api-tokens";
import { createApiToken, listEveryToken, listOwnTokens, revokeToken } from "../services/api-tokens";

const ZMessage = z.object({ message: z.string() });

/** Decision 036: API tokens for scripts, managed only from a password session. */
export const apiTokensRouter = router({
  /** The caller's own tokens, newest first → `{ tokens }` (never the tokens themselves). */
  mine: authedProcedure.output(ZOwnApiTokens).query(({ ctx }) => listOwnTokens(ctx, ctx.user)),
  /** `{ name, scope, expiresAt }` → `{ token, view, message }`: the token, shown this once (createApiToken's errors). */
  create: authedProcedure
    .input(ZCreateApiTokenInput)
    .output(ZCreatedApiToken)
    .mutation(({ ctx, input }) =>
      createApiToken(ctx, ctx.user, ctx.session, {
        name: input.name,
        scope: input.scope,
        expiresAt: input.expiresAt === null ? null : new Date(input.expiresAt),
      }),
    ),
  /** `{ tokenId }` → `{ message }`: revokes one's own token, or (admins) anyone's (revokeToken's errors). */
  revoke: authedProcedure
    .input(ZApiTokenIdInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => revokeToken(ctx, ctx.user, ctx.session, input.tokenId)),
  /** Admins: every token, newest first, a page → `{ tokens, total }`. */
  all: adminProcedure
    .input(ZApiTokenPageInput)
    .output(ZApiTokenPage)
    .query(({ ctx, input }) => listEveryToken(ctx, ctx.user, input)),
});
