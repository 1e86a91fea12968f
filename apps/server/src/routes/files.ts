import path from "node:path";
import type { FastifyPluginAsync } from "fastify";
import fastifyStatic from "@fastify/static";
import type { AppDeps } from "@tafsiri/api";
import { verifyFileUrl } from "@tafsiri/api/services/file-urls";
import { sendFailure } from "../lib/rest-helpers";

/** Content-Type by stored extension; transcripts are plain UTF-8 text. */
const CONTENT_TYPES: Record<string, string> = {
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
  ".cha": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** The Content-Type a stored file is served with. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

/**
 * `GET /files/{key}?expires&signature` (ARCHITECTURE "Decisions"): serves a stored file to a
 * holder of a signed URL from `/api/fetch-files` or a procedure, with no Authorization header, so
 * an `<audio>` element can load it. Supports HTTP Range (206 with Content-Range; 416 when
 * unsatisfiable). An expired or forged link answers 403 'This link has expired or is invalid.';
 * a missing file 404.
 */
export const fileRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  await app.register(fastifyStatic, { serve: false });

  app.get<{ Params: { "*": string }; Querystring: { expires?: string; signature?: string } }>("/files/*", async (req, reply) => {
    const key = req.params["*"];
    if (!verifyFileUrl(deps.jwtSecret, key, req.query.expires, req.query.signature)) {
      return sendFailure(reply, 403, "This link has expired or is invalid.");
    }
    let file: string;
    try {
      file = deps.storage.absolutePath(key);
    } catch {
      return sendFailure(reply, 404, "File not found.");
    }
    if (!(await deps.storage.exists(key))) return sendFailure(reply, 404, "File not found.");
    reply.header("content-type", contentTypeOf(key));
    reply.header("cache-control", "private, max-age=300");
    return reply.sendFile(path.basename(file), path.dirname(file), { contentType: false, cacheControl: false });
  });
};
