import { existsSync } from "node:fs";
import path from "node:path";
import type { FastifyPluginAsync } from "fastify";
import fastifyStatic from "@fastify/static";

/** Serves the built React app and falls back to index.html for client-side routes. */
export const webRoutes: FastifyPluginAsync<{ distDir: string }> = async (app, { distDir }) => {
  const hasBuild = existsSync(path.join(distDir, "index.html"));
  if (hasBuild) {
    await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((req, reply) => {
    const apiPath = /^\/(api|auth|trpc|files)(\/|$)/i.test(req.url);
    if (req.method !== "GET" || apiPath || !hasBuild) {
      return reply.code(404).send({ status: "failed", message: "Not found." });
    }
    return reply.type("text/html").sendFile("index.html");
  });
};
