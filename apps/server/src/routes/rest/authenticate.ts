import type { FastifyRequest } from "fastify";
import { API_TOKEN_READ_ONLY } from "@tafsiri/domain";
import {
  AppError,
  SIGN_IN_REQUIRED,
  appRouter,
  authenticateSession,
  refuseBeforeEnrolment,
  bearerToken,
  createCallerFactory,
  createContextInner,
  type AppDeps,
  type AuthenticatedSession,
  type SessionUser,
} from "@tafsiri/api";

const createCaller = createCallerFactory(appRouter);

/** A tRPC caller: REST handlers call the same procedures the web app uses. */
type Caller = ReturnType<typeof createCaller>;

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user of a REST request (null: no or no valid Bearer token). */
    user: SessionUser | null;
    /** Procedures called as `user`; they decide who may do what. */
    caller: Caller;
    /** The session of the request's token (null: none), for the checks routes make themselves (decision 038). */
    authSession: AuthenticatedSession | null;
  }
}

/**
 * The REST scope's `onRequest` hook: reads the Bearer token, puts the signed-in user (or null)
 * and a caller acting as them on the request. Refuses only a read-only API token's request other
 * than GET or HEAD (403, decision 036); otherwise each procedure answers 401/403 as on tRPC.
 */
export function authenticateRequest(deps: AppDeps) {
  return async (req: FastifyRequest): Promise<void> => {
    const session = await authenticateSession(deps.db, deps.jwtSecret, bearerToken(req.headers.authorization), req.ip);
    // Decision 036: a read-only API token reads (GET, HEAD) and changes nothing.
    if (session?.apiToken?.scope === "read" && req.method !== "GET" && req.method !== "HEAD") {
      throw new AppError("FORBIDDEN", API_TOKEN_READ_ONLY);
    }
    // Decision 038: an admin who must enrol a second factor reaches only the paths that allow it.
    const config = req.routeOptions.config as { beforeEnrolment?: boolean } | undefined;
    if (!config?.beforeEnrolment) refuseBeforeEnrolment({ ...deps, user: session?.user ?? null, session });
    req.user = session?.user ?? null;
    req.authSession = session;
    req.caller = createCaller(
      await createContextInner({
        ...deps,
        user: req.user,
        session,
        clientIp: req.ip,
        ...(req.headers["user-agent"] ? { userAgent: req.headers["user-agent"] } : {}),
      }),
    );
  };
}

/** The request's signed-in user; throws AppError UNAUTHORIZED (401) like the procedures when there is none. */
export function signedInUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  return req.user;
}
