import type { FastifyRequest } from "fastify";
import {
  AppError,
  SIGN_IN_REQUIRED,
  appRouter,
  authenticateSession,
  bearerToken,
  createCallerFactory,
  createContextInner,
  type AppDeps,
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
  }
}

/**
 * The REST scope's `onRequest` hook: reads the Bearer token, puts the signed-in user (or null)
 * and a caller acting as them on the request. Refuses nothing itself: each procedure answers
 * 401/403 as it does on tRPC.
 */
export function authenticateRequest(deps: AppDeps) {
  return async (req: FastifyRequest): Promise<void> => {
    const session = await authenticateSession(deps.db, deps.jwtSecret, bearerToken(req.headers.authorization));
    req.user = session?.user ?? null;
    req.caller = createCaller(await createContextInner({ ...deps, user: req.user, session, clientIp: req.ip }));
  };
}

/** The request's signed-in user; throws AppError UNAUTHORIZED (401) like the procedures when there is none. */
export function signedInUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  return req.user;
}
