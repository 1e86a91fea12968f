import { Counter, Histogram } from "prom-client";
import { metricsRegistry } from "./registry";

/**
 * HTTP requests by method, route pattern (Fastify's, e.g. `/api/audios/:id`; `(unmatched)` for a
 * path no route serves, so the raw URL never becomes a label) and status code, in seconds.
 * Counted by an onResponse hook in apps/server/src/metrics/. Decision 028.
 */
export const httpRequestDuration = new Histogram({
  name: "tafsiri_http_request_duration_seconds",
  help: "HTTP requests by method, route pattern ((unmatched) for no route) and status code, in seconds until the answer was sent.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
  registers: [metricsRegistry],
});

/**
 * Bytes of accepted uploads (request bodies answered 2xx), by kind: AUDIO, INITIAL_TRANSCRIPT,
 * AUDIOTRANSLATION, TRANSLATED_TRANSCRIPT for `POST /api/audios/upload/{KIND}` (the multipart
 * envelope included), `resumable` for the chunks of resumable (tus) uploads. Decision 028.
 */
export const uploadBytes = new Counter({
  name: "tafsiri_upload_bytes_total",
  help: "Bytes of accepted upload request bodies, by kind (the four upload kinds, or resumable for tus chunks).",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
});
