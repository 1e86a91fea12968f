import type { FastifyInstance } from "fastify";
import { httpRequestDuration, uploadBytes, UPLOAD_KINDS } from "@tafsiri/api";
import { RESUMABLE_UPLOADS_PATH } from "../routes/rest/resumable-uploads";

/** Label of a request no route matched: the raw URL is never a label (bounded cardinality). */
const UNMATCHED_ROUTE = "(unmatched)";

const UPLOAD_ROUTE = "/api/audios/upload/:kind";
const RESUMABLE_CHUNK_ROUTE = `${RESUMABLE_UPLOADS_PATH}/:id`;
const UPLOAD_KIND_NAMES: readonly string[] = UPLOAD_KINDS;

/**
 * Decision 028: adds to `app` (the root, before any route scope, so every scope inherits it) one
 * onResponse hook that counts each answered request into tafsiri_http_request_duration_seconds
 * by method, route pattern (`(unmatched)` without a route) and status code, and the bytes of an
 * accepted upload into tafsiri_upload_bytes_total (from its Content-Length: kind AUDIO,
 * INITIAL_TRANSCRIPT, AUDIOTRANSLATION or TRANSLATED_TRANSCRIPT for `POST
 * /api/audios/upload/{KIND}`, `resumable` for a tus PATCH). Synchronous: no promise, no await.
 */
export function countRequests(app: FastifyInstance): void {
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    httpRequestDuration.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
    if (status < 300 && status >= 200 && (route === UPLOAD_ROUTE || route === RESUMABLE_CHUNK_ROUTE)) {
      const bytes = Number(request.headers["content-length"]);
      if (Number.isFinite(bytes) && bytes > 0) {
        if (route === RESUMABLE_CHUNK_ROUTE) {
          if (request.method === "PATCH") uploadBytes.inc({ kind: "resumable" }, bytes);
        } else {
          const kind = String((request.params as { kind?: unknown }).kind ?? "").toUpperCase();
          if (UPLOAD_KIND_NAMES.includes(kind)) uploadBytes.inc({ kind }, bytes);
        }
      }
    }
    done();
  });
}
