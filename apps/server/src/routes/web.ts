import { existsSync } from "node:fs";
import path from "node:path";
import type { FastifyPluginAsync } from "fastify";
import fastifyStatic from "@fastify/static";
import { AppError } from "@tafsiri/api";
import { restErrorHandler } from "./rest/error-handler";

/** `cache-control` of the files Vite names by their content's hash: they never change under that name. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** `cache-control` of index.html: revalidated each time (a 304 when unchanged), so a deploy shows at once. */
const REVALIDATE = "no-cache";
/** `cache-control` of any other file of the build (none today; a favicon, say): an hour. */
const SHORT_CACHE = "public, max-age=3600";

/**
 * The `cache-control` of a file of the build at `filePath` (absolute, possibly its `.br` or `.gz` twin):
 * IMMUTABLE under `<distDir>/assets/` (Vite's hashed output), REVALIDATE for HTML, SHORT_CACHE otherwise.
 */
function cacheControlOf(distDir: string, filePath: string): string {
  const relative = path.relative(distDir, filePath).split(path.sep).join("/");
  if (relative.startsWith("assets/")) return IMMUTABLE;
  if (/\.html(\.br|\.gz)?$/.test(relative)) return REVALIDATE;
  return SHORT_CACHE;
}

/**
 * Serves the built React app and falls back to index.html for client-side routes. Anything else
 * (an API path, a method other than GET, or no build) answers 404 'Not found.' in the REST error
 * model (`{ status: 'failed', success: false, message }`).
 *
 * A file the build precompressed (`.br`, `.gz` beside it, vite.config.ts) is sent
 * as such when the request accepts that encoding (`content-encoding`), every file with
 * `vary: accept-encoding` and the cache-control of cacheControlOf (index.html `no-cache`, also as
 * the fallback of a client route). A file without a compressed twin is left to @fastify/compress.
 * The `.vite/` folder (the build manifest) is not served.
 */
export const webRoutes: FastifyPluginAsync<{ distDir: string }> = async (app, { distDir }) => {
  const hasBuild = existsSync(path.join(distDir, "index.html"));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Not routes of their own: the original's route sends them when the request accepts them.
      globIgnore: ["**/*.br", "**/*.gz"],
      // @fastify/send's own `cache-control` would replace ours.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader("cache-control", cacheControlOf(distDir, filePath));
        res.setHeader("vary", "accept-encoding");
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const apiPath = /^\/(api|auth|trpc|files)(\/|$)/i.test(req.url);
    if (req.method !== "GET" || apiPath || !hasBuild) {
      return restErrorHandler(new AppError("NOT_FOUND", "Not found."), req, reply);
    }
    return reply.type("text/html").sendFile("index.html");
  });
};
