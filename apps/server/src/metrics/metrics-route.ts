import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, collectProcessMetrics, METRICS_CONTENT_TYPE, scrapeMetrics } from "@tafsiri/api";
import { restErrorHandler } from "../routes/rest/error-handler";

/** Where the metrics are served (decision 028). */
const METRICS_PATH = "/metrics";

/** The 401 message of a scrape without the right METRICS_TOKEN. */
export const METRICS_TOKEN_REQUIRED = "A valid metrics token is required.";

/** SHA-256 of a string: equal-length inputs for timingSafeEqual, whatever was sent. */
function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * Whether the Authorization header `header` is `Bearer <token>`, compared in constant time (the
 * SHA-256 digests of both are compared, so neither the token's length nor its characters leak
 * through timing). Decision 028.
 */
function holdsMetricsToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  const given = match?.[1] ?? "";
  // Both sides are always hashed and compared, so a missing header costs the same as a wrong one.
  const same = timingSafeEqual(digest(given), digest(token));
  return same && match !== null;
}

/**
 * Decision 028: registers `GET /metrics` on `app` (hidden from the OpenAPI document). With
 * `serve` it answers every metric of the process in Prometheus's text format (scrapeMetrics),
 * after checking `Authorization: Bearer <token>` when `token` is given (401
 * METRICS_TOKEN_REQUIRED without it or with a wrong one, in the REST error model); prom-client's
 * default process metrics are switched on. Without `serve` it answers 404 "Not found." like any
 * unknown path (so a built web app does not answer it with its page).
 */
export function metricsRoute(app: FastifyInstance, opts: { serve: boolean; token?: string | undefined }): void {
  if (opts.serve) collectProcessMetrics();
  const { token } = opts;
  app.get(METRICS_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!opts.serve) return restErrorHandler(new AppError("NOT_FOUND", "Not found."), request, reply);
    if (token !== undefined && !holdsMetricsToken(request.headers.authorization, token)) {
      reply.header("www-authenticate", 'Bearer realm="metrics"');
      return restErrorHandler(new AppError("UNAUTHORIZED", METRICS_TOKEN_REQUIRED), request, reply);
    }
    const text = await scrapeMetrics();
    return reply.header("cache-control", "no-store").type(METRICS_CONTENT_TYPE).send(text);
  });
}
