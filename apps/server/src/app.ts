import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import helmet from "@fastify/helmet";
import websocket from "@fastify/websocket";
import { TRPCError } from "@trpc/server";
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import { appRouter, authenticate, bearerToken, createContextInner, type AppDeps, type AppRouter } from "@tafsiri/api";
import { DEFAULT_LOGIN_RATE_LIMIT, type Settings } from "./settings";
import { registerSignInLimit, signInAllowed, SIGN_IN_PROCEDURE, TOO_MANY_SIGN_INS } from "./lib/sign-in-limit";
import { authenticateSocket } from "./lib/live-sockets";
import { trpcWebSocketHandler } from "./lib/trpc-websocket";
import { restRoutes } from "./routes/rest";
import { fileRoutes } from "./routes/files";
import { webRoutes } from "./routes/web";

export interface AppOptions {
  deps: AppDeps;
  /** LOGIN_RATE_LIMIT defaults to DEFAULT_LOGIN_RATE_LIMIT when left out. */
  settings: Pick<Settings, "MAX_UPLOAD_BYTES" | "WEB_DIST"> & Partial<Pick<Settings, "LOGIN_RATE_LIMIT">>;
  logger?: boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = path.resolve(here, "../../web/dist");

/**
 * Builds the Fastify app as a plugin tree (testable with app.inject()): security headers, the
 * sign-in rate limit (LOGIN_RATE_LIMIT attempts per IP per minute over POST /auth/login and tRPC
 * accounts.login together; 429 past it), tRPC at /trpc in its own scope (HTTP, and WebSocket
 * subscriptions authenticated by `connectionParams.token`, with keep-alive pings), the REST compatibility
 * layer and file routes in a sibling scope, and the built web app. Does not listen.
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

  await registerSignInLimit(app, opts.settings.LOGIN_RATE_LIMIT ?? DEFAULT_LOGIN_RATE_LIMIT);

  app.get("/healthz", async (_req, reply) => {
    await deps.db.selectFrom("users").select("id").limit(1).execute();
    return reply.send({ status: "ok" });
  });

  await app.register(async (scope) => {
    await scope.register(websocket, { options: { maxPayload: 1024 * 1024 } });
    const onError = ({ error, path: procedure }: { error: TRPCError; path: string | undefined }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") app.log.error({ err: error, procedure }, "procedure failed");
    };
    await scope.register(fastifyTRPCPlugin, {
      prefix: "/trpc",
      trpcOptions: {
        router: appRouter,
        createContext: async ({ req, res, info }) => {
          if (info.calls.some((call) => call.path === SIGN_IN_PROCEDURE) && !(await signInAllowed(app, req, res))) {
            throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: TOO_MANY_SIGN_INS });
          }
          const user = await authenticate(deps.db, deps.jwtSecret, bearerToken(req.headers.authorization));
          return createContextInner({ ...deps, user });
        },
        onError,
      } satisfies FastifyTRPCPluginOptions<AppRouter>["trpcOptions"],
    });
    // Subscriptions: tRPC's WebSocket protocol on the same path (lib/trpc-websocket.ts).
    const onConnection = trpcWebSocketHandler({
      router: appRouter,
      keepAlive: { pingMs: 30_000, pongWaitMs: 5_000 },
      createContext: async ({ socket, req, connectionParams }) =>
        createContextInner({ ...deps, transport: "ws", user: await authenticateSocket(deps, socket, connectionParams, req.socket) }),
      onError,
    });
    scope.get("/trpc", { websocket: true }, (socket, request) => onConnection(socket, request.raw));
  });

  await app.register(restRoutes, { deps, maxUploadBytes: opts.settings.MAX_UPLOAD_BYTES });
  await app.register(fileRoutes, { deps });
  await app.register(webRoutes, { distDir: opts.settings.WEB_DIST ?? DEFAULT_WEB_DIST });
  return app;
}
