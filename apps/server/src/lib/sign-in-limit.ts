import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import rateLimit from "@fastify/rate-limit";

export const TOO_MANY_SIGN_INS = "Too many sign-in attempts. Please wait a minute and try again.";

/** The tRPC procedure that signs a user in. */
export const SIGN_IN_PROCEDURE = "accounts.login";

/** How long one window of sign-in attempts lasts, in milliseconds. */
const WINDOW_MS = 60_000;

/**
 * Registers @fastify/rate-limit on the root app for sign-in only: `global: false`, so no route is
 * limited unless it asks (see signInAllowed). `maxPerMinute` attempts per client IP per minute are
 * counted in one in-memory store shared by every sign-in path.
 */
export async function registerSignInLimit(app: FastifyInstance, maxPerMinute: number): Promise<void> {
  await app.register(rateLimit, { global: false, max: maxPerMinute, timeWindow: WINDOW_MS });
}

/**
 * Counts one sign-in attempt of the request's IP. Returns true while within the limit; past it,
 * sets `Retry-After` (seconds until the window ends) on `reply` and returns false.
 * `app` is any instance under the one registerSignInLimit was called on.
 */
export async function signInAllowed(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  // Without options the limiter uses the plugin's own settings and store, so every caller shares one count.
  const result = await app.createRateLimit()(req);
  if (result.isAllowed || !result.isExceeded) return true;
  reply.header("retry-after", result.ttlInSeconds);
  return false;
}
