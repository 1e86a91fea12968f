import type { FastifyReply, FastifyRequest } from "fastify";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { appRouter, authenticate, bearerToken, createCallerFactory, createContextInner, type AppDeps, type SessionUser } from "@tafsiri/api";

const createCaller = createCallerFactory(appRouter);

/** The signed-in user of a REST request, or null. */
export function requestUser(deps: AppDeps, req: FastifyRequest): Promise<SessionUser | null> {
  return authenticate(deps.db, deps.jwtSecret, bearerToken(req.headers.authorization));
}

/** A tRPC caller acting as the request's user: the REST layer holds no rules of its own. */
export async function callerFor(deps: AppDeps, req: FastifyRequest) {
  const user = await requestUser(deps, req);
  return createCaller(await createContextInner({ ...deps, user }));
}

/** Turns the first zod issue into the spec's message where the schema carries one. */
function messageOf(error: TRPCError): string {
  const cause = error.cause as { issues?: Array<{ message: string }> } | undefined;
  if (error.code === "BAD_REQUEST" && cause?.issues?.[0]) return cause.issues[0].message;
  if (error.code === "INTERNAL_SERVER_ERROR") return "An unexpected error occurred. Please try again.";
  return error.message;
}

/**
 * Runs a REST handler body and maps failures to the documented error shape
 * `{ status: 'failed', success: false, message }` with the matching HTTP status (SPEC §7.3).
 */
export async function sendResult<T>(reply: FastifyReply, run: () => Promise<T>): Promise<FastifyReply> {
  try {
    return reply.send(await run());
  } catch (error) {
    if (error instanceof TRPCError) {
      return reply.code(getHTTPStatusCodeFromError(error)).send({ status: "failed", success: false, message: messageOf(error) });
    }
    reply.log.error({ err: error }, "REST handler failed");
    return reply.code(500).send({ status: "failed", success: false, message: "An unexpected error occurred. Please try again." });
  }
}
