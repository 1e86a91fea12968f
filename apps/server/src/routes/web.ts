import { existsSync } from "node:fs";
import path from "node:path";
import type { FastifyPluginAsync } from "fastify";
import fastifyStatic from "@fastify/static";
import { AppError } from "@tafsiri/api";
import { restErrorHandler } from "./rest/error-handler";

/**
 * Serves the built React app and falls back to index.html for client-side routes. Anything else
 * (an API path, a method other than GET, or no build) answers 404 'Not found.' in the REST error
 * model (`{ status: 'failed', success: false, message }`).
 */
export const webRoutes: FastifyPluginAsync<{ distDir: string }> = async (app, { distDir }) => {
  const hasBuild = existsSync(path.join(distDir, "index.html"));
  if (hasBuild) {
    await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((req, reply) => {
    const apiPath = /^\/(api|auth|trpc|files)(\/|$)/i.test(req.url);
    if (req.method !== "GET" || apiPath || !hasBuild) {
      return restErrorHandler(new AppError("NOT_FOUND", "Not found."), req, reply);
    }
    return reply.type("text/html").sendFile("index.html");
  });
};
