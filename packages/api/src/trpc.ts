import { initTRPC, TRPCError } from "@trpc/server";
import { API_TOKEN_READ_ONLY } from "@tafsiri/domain";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { ADMINS_ONLY, AppError, SIGN_IN_REQUIRED } from "./errors/app-error";
import { describeError } from "./errors/describe-error";
import { refuseNulText } from "./errors/nul-text";
import type { Context } from "./context";
import type { ProcedureMeta } from "./rest-meta";
import { procedureDuration } from "./metrics/procedures";
import { refuseBeforeEnrolment, requireRecentIdentityCheck } from "./services/identity-checks";

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    /**
     * Every failure is answered through describeError, the one mapping the REST layer uses too:
     * an AppError keeps its message and status, bad input answers its first failing field's
     * message (the spec's wording), anything unexpected answers UNEXPECTED_ERROR.
     */
    errorFormatter({ shape, error }) {
      const answer = describeError(error);
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[answer.trpcCode],
        message: answer.message,
        data: {
          code: answer.trpcCode,
          httpStatus: answer.httpStatus,
          path: shape.data.path,
          ...(answer.reason ? { reason: answer.reason } : {}),
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/**
 * The WebSocket carries subscriptions only, so queries and mutations (sign-in above all, which is
 * rate limited on HTTP) cannot bypass the HTTP-level checks.
 */
const subscriptionsOnlyOnWebSocket = t.middleware(({ ctx, type, next }) => {
  if (ctx.transport === "ws" && type !== "subscription") {
    throw new AppError("METHOD_NOT_SUPPORTED", "Only subscriptions are served over the WebSocket; use HTTP.");
  }
  return next();
});

/**
 * An AppError thrown by a service or middleware leaves the procedure as a TRPCError of the
 * matching code (cause: the AppError), so direct callers (`createCaller`, the REST layer) see
 * the same code as HTTP clients.
 */
const appErrorsAsTRPCErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const answer = describeError(result.error.cause);
    throw new TRPCError({ code: answer.trpcCode, message: answer.message, cause: result.error.cause });
  }
  return result;
});

/**
 * An input holding U+0000 in any string (PostgreSQL cannot store it) answers 400
 * NUL_IN_TEXT before the input is validated or the procedure runs, on every transport.
 */
const refuseNulInput = t.middleware(async ({ getRawInput, next }) => {
  refuseNulText(await getRawInput());
  return next();
});

/**
 * Decision 028: times every call into tafsiri_trpc_procedure_duration_seconds by procedure, type
 * and outcome ("ok" or the tRPC error code its caller sees). Outermost, so refusals by the other
 * middlewares count too.
 */
const timeProcedures = t.middleware(async ({ path, type, next }) => {
  const started = performance.now();
  const result = await next();
  procedureDuration.observe(
    { procedure: path, type, outcome: result.ok ? "ok" : result.error.code },
    (performance.now() - started) / 1000,
  );
  return result;
});

/**
 * Decision 036: a read-only API token's mutations answer 403 API_TOKEN_READ_ONLY, on every
 * procedure (the OpenAPI document says it once, for every path).
 */
const readOnlyTokensRead = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation" && ctx.session?.apiToken?.scope === "read") {
    throw new AppError("FORBIDDEN", API_TOKEN_READ_ONLY);
  }
  return next();
});

export const publicProcedure = t.procedure
  .use(timeProcedures)
  .use(appErrorsAsTRPCErrors)
  .use(subscriptionsOnlyOnWebSocket)
  .use(refuseNulInput)
  .use(readOnlyTokensRead);

/**
 * Refuses callers without a valid session (401), and an admin session that must enrol a second
 * factor first (403 SECOND_FACTOR_ENROLMENT_REQUIRED, decision 038) unless the procedure's
 * metadata allows it `beforeEnrolment`.
 */
const isAuthed = t.middleware(({ ctx, meta, next }) => {
  if (!ctx.user) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  if (!meta?.beforeEnrolment) refuseBeforeEnrolment(ctx);
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Refuses callers who are not admins (403). */
const isAdmin = isAuthed.unstable_pipe(({ ctx, next }) => {
  if (ctx.user.role !== "Admin") {
    throw new AppError("FORBIDDEN", ADMINS_ONLY);
  }
  return next({ ctx });
});

export const authedProcedure = publicProcedure.use(isAuthed);
export const adminProcedure = publicProcedure.use(isAdmin);

/**
 * Decision 038: an admin procedure that is a sensitive action (exporting the dataset, creating a
 * webhook, downloading a backup, …): 403 REAUTH_REQUIRED when the session last proved who the
 * person is more than 10 minutes ago (requireRecentIdentityCheck).
 */
export const sensitiveAdminProcedure = adminProcedure.use(({ ctx, next }) => {
  requireRecentIdentityCheck(ctx);
  return next();
});
