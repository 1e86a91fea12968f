import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import helmet from "@fastify/helmet";
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import { appRouter, authenticate, bearerToken, createContextInner, type AppDeps, type AppRouter } from "@tafsiri/api";
import type { Settings } from "./settings";
import { restRoutes } from "./routes/rest";
import { fileRoutes } from "./routes/files";
import { webRoutes } from "./routes/web";

export interface AppOptions {
  deps: AppDeps;
  settings: Pick<Settings, "MAX_UPLOAD_BYTES" | "WEB_DIST">;
  logger?: boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = path.resolve(here, "../../web/dist");

/**
 * Builds the Fastify app as a plugin tree (testable with app.inject()): security headers, tRPC
 * at /trpc in its own scope, the REST compatibility layer and file routes in a sibling scope,
 * and the built web app. Does not listen.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: "info" } : false,
    bodyLimit: 1024 * 1024,
  });
  const { deps } = opts;

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:"],
        "media-src": ["'self'", "blob:", "data:"],
        "connect-src": ["'self'", "ws:", "wss:", "blob:"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "worker-src": ["'self'", "blob:"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  app.get("/healthz", async (_req, reply) => {
    await deps.db.selectFrom("users").select("id").limit(1).execute();
    return reply.send({ status: "ok" });
  });

  await app.register(async (scope) => {
    await scope.register(fastifyTRPCPlugin, {
      prefix: "/trpc",
      trpcOptions: {
        router: appRouter,
        createContext: async ({ req }) => {
          const user = await authenticate(deps.db, deps.jwtSecret, bearerToken(req.headers.authorization));
          return createContextInner({ ...deps, user });
        },
        onError: ({ error, path: procedure }) => {
          if (error.code === "INTERNAL_SERVER_ERROR") app.log.error({ err: error, procedure }, "procedure failed");
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>["trpcOptions"],
    });
  });

  await app.register(restRoutes, { deps, maxUploadBytes: opts.settings.MAX_UPLOAD_BYTES });
  await app.register(fileRoutes, { deps });
  await app.register(webRoutes, { distDir: opts.settings.WEB_DIST ?? DEFAULT_WEB_DIST });
  return app;
}
