import { initTRPC, TRPCError } from "@trpc/server";
import type { Context } from "./context";

/** The messages of an input validation failure (zod or Standard Schema issues), or null for any other cause. */
function validationMessages(cause: unknown): string | null {
  const issues = (cause as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  return issues.map((issue) => String((issue as { message?: unknown }).message)).join(" ");
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Never leak a stack trace or an internal error's text to clients.
    const internal = error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof TRPCError);
    // Bad input answers its schema's messages (the spec's wording), not a JSON dump of the issues.
    const invalid = error.code === "BAD_REQUEST" ? validationMessages(error.cause) : null;
    return {
      ...shape,
      message: internal ? "An unexpected error occurred. Please try again." : (invalid ?? shape.message),
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;
/**
 * The WebSocket carries subscriptions only, so queries and mutations (sign-in above all, which is
 * rate limited on HTTP) cannot bypass the HTTP-level checks.
 */
const subscriptionsOnlyOnWebSocket = t.middleware(({ ctx, type, next }) => {
  if (ctx.transport === "ws" && type !== "subscription") {
    throw new TRPCError({ code: "METHOD_NOT_SUPPORTED", message: "Only subscriptions are served over the WebSocket; use HTTP." });
  }
  return next();
});

export const publicProcedure = t.procedure.use(subscriptionsOnlyOnWebSocket);

/** Refuses callers without a valid session (401). */
export const isAuthed = t.middleware(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "You must be signed in." });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Refuses callers who are not admins (403). */
export const isAdmin = isAuthed.unstable_pipe(({ ctx, next }) => {
  if (ctx.user.role !== "Admin") {
    throw new TRPCError({ code: "FORBIDDEN", message: "Only administrators may do this." });
  }
  return next({ ctx });
});

export const authedProcedure = publicProcedure.use(isAuthed);
export const adminProcedure = publicProcedure.use(isAdmin);
