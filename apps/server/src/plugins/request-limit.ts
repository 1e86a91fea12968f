import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, bearerToken, knownTokenId, verifySessionToken } from "@tafsiri/api";

const TOO_MANY_REQUESTS = "Too many requests. Please wait a moment and try again.";

/** Requests allowed per minute when RATE_LIMIT_PER_USER / RATE_LIMIT_PER_ADDRESS are unset. */
export const DEFAULT_REQUEST_LIMITS: RequestLimits = { perUser: 600, perAddress: 1200 };

/** How long one window of requests lasts, in milliseconds. */
const WINDOW_MS = 60_000;

/** Requests allowed per minute: per signed-in user, and per client address for the rest (0: no limit). */
export interface RequestLimits {
  perUser: number;
  perAddress: number;
}

/** Counts one request and throws when it is one too many (see createRequestLimit). */
export type RequestLimit = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A general request limit so one client cannot starve the rest (decision 013): returns the
 * check the API's scopes run first on every request (before authentication reads the database).
 * A request with a valid session token (signature and claims, verifySessionToken: a forged one
 * cannot spend someone else's budget) counts against its user, `limits.perUser` a minute; any
 * other counts against its client address (`req.ip`: the socket's address, since the server
 * trusts no forwarding header, so a spoofed `X-Forwarded-For` changes nothing), `limits.perAddress`
 * a minute. An API token (decision 036) this process has already authenticated counts against
 * itself, `limits.perUser` a minute, apart from its owner's sessions. Past the limit it sets `Retry-After` (seconds until the window ends) on `reply` and
 * throws AppError TOO_MANY_REQUESTS (429) 'Too many requests. Please wait a moment and try again.',
 * which each scope answers in its own error shape. Counts live in @fastify/rate-limit's in-memory
 * store (one per process); `app` must be the one registerSignInLimit registered the plugin on.
 */
export function createRequestLimit(app: FastifyInstance, secret: Uint8Array, limits: RequestLimits): RequestLimit {
  const userOf = new WeakMap<FastifyRequest, string>();
  // Each createRateLimit call with options makes its own store: made once here, shared by every request.
  const byUser =
    limits.perUser > 0
      ? app.createRateLimit({
          max: limits.perUser,
          timeWindow: WINDOW_MS,
          keyGenerator: (req) => `user:${userOf.get(req)}`,
        })
      : null;
  const byAddress =
    limits.perAddress > 0
      ? app.createRateLimit({ max: limits.perAddress, timeWindow: WINDOW_MS, keyGenerator: (req) => `ip:${req.ip}` })
      : null;
  return async (req, reply) => {
    const bearer = bearerToken(req.headers.authorization);
    // Decision 036: an API token this process has authenticated counts against itself.
    const apiToken = bearer ? knownTokenId(bearer) : undefined;
    const token = apiToken ? null : await verifySessionToken(secret, bearer);
    if (apiToken) userOf.set(req, `token:${apiToken}`);
    else if (token) userOf.set(req, token.userId);
    const limiter = apiToken || token ? byUser : byAddress;
    if (!limiter) return;
    const result = await limiter(req);
    if (!result.isAllowed && result.isExceeded) {
      reply.header("retry-after", result.ttlInSeconds);
      throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_REQUESTS);
    }
  };
}
