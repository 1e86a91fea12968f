import type { FastifyReply, FastifyRequest } from "fastify";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { appRouter, authenticate, bearerToken, createCallerFactory, createContextInner, type AppDeps, type SessionUser } from "@tafsiri/api";

const createCaller = createCallerFactory(appRouter);

/** The signed-in user of a REST request, or null. */
export function requestUser(deps: AppDeps, req: FastifyRequest): Promise<SessionUser | null> {
  return authenticate(deps.db, deps.jwtSecret, bearerToken(req.headers.authorization));
}

/** A tRPC caller acting as `user` (null: anonymous). */
export async function callerAs(deps: AppDeps, user: SessionUser | null) {
  return createCaller(await createContextInner({ ...deps, user }));
}

/** A tRPC caller acting as the request's user: the REST layer holds no rules of its own. */
export async function callerFor(deps: AppDeps, req: FastifyRequest) {
  return callerAs(deps, await requestUser(deps, req));
}

/** The request's signed-in user; throws UNAUTHORIZED (401) like the procedures do when there is none. */
export async function requireUser(deps: AppDeps, req: FastifyRequest): Promise<SessionUser> {
  const user = await requestUser(deps, req);
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "You must be signed in." });
  return user;
}

/** A REST failure with the documented body and the HTTP status of `code` (thrown inside sendResult). */
export function restError(code: TRPCError["code"], message: string): TRPCError {
  return new TRPCError({ code, message });
}

/** Sends the documented failure body `{ status: 'failed', success: false, message }` with an HTTP status. */
export function sendFailure(reply: FastifyReply, httpStatus: number, message: string): FastifyReply {
  return reply.code(httpStatus).send({ status: "failed", success: false, message });
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
      if (error.code === "INTERNAL_SERVER_ERROR") reply.log.error({ err: error }, "REST handler failed");
      return sendFailure(reply, getHTTPStatusCodeFromError(error), messageOf(error));
    }
    reply.log.error({ err: error }, "REST handler failed");
    return sendFailure(reply, 500, "An unexpected error occurred. Please try again.");
  }
}

/**
 * `?page&limit` of a list path as numbers (undefined when absent, so the procedure's defaults
 * apply: page 1, SPEC §9 sizes). Throws BAD_REQUEST for anything but positive whole numbers.
 */
export function pageQuery(query: unknown): { page?: number; limit?: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  const read = (name: "page" | "limit") => {
    const raw = q[name];
    if (raw === undefined || raw === "") return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw restError("BAD_REQUEST", `${name} must be a positive whole number.`);
    return n;
  };
  return { page: read("page"), limit: read("limit") };
}

/** A body field as a string ("" when missing or not a string), so the procedure's own message applies. */
export function stringField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === "string" ? value : "";
}
