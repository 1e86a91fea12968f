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
 * Counts `attempts` sign-in attempts of the request's IP (default 1; a batched tRPC request
 * counts one per accounts.login call it holds), one increment of the shared
 * count each. Returns true while all of them fit in what is left of the minute. When they do not,
 * the whole request is refused (none of its sign-ins is checked): counting stops at the first
 * attempt past the limit, which stays counted, so the rest of the minute is used up as it would be
 * by that many single attempts; `Retry-After` (seconds until the window ends) is set on `reply`
 * and it returns false.
 * `app` is any instance under the one registerSignInLimit was called on.
 */
export async function signInAllowed(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  attempts = 1,
): Promise<boolean> {
  // Without options the limiter uses the plugin's own settings and store, so every caller shares one count.
  const limiter = app.createRateLimit();
  for (let counted = 0; counted < Math.max(1, attempts); counted += 1) {
    const result = await limiter(req);
    // isAllowed: the IP is on an allow list and is not counted at all.
    if (result.isAllowed) return true;
    if (result.isExceeded) {
      reply.header("retry-after", result.ttlInSeconds);
      return false;
    }
  }
  return true;
}
