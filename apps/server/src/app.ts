import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import helmet from "@fastify/helmet";
import websocket from "@fastify/websocket";
import type { TRPCError } from "@trpc/server";
import {
  AppError,
  appRouter,
  authenticateSession,
  bearerToken,
  createContextInner,
  describeError,
  type AppDeps,
} from "@tafsiri/api";
import { checkDatabase } from "@tafsiri/db/repositories/health";
import { DEFAULT_LOGIN_RATE_LIMIT, type Settings } from "./settings";
import { registerBodyLimits } from "./lib/body-limits";
import { registerCompression } from "./lib/compression";
import { registerSignInLimit, signInAllowed, SIGN_IN_PROCEDURE, TOO_MANY_SIGN_INS } from "./lib/sign-in-limit";
import { createRequestLimit, DEFAULT_REQUEST_LIMITS } from "./lib/request-limit";
import { openSocketSession } from "./live/socket-session";
import { trpcWebSocketHandler } from "./live/trpc-websocket";
import { closeSocketsForRestart } from "./live/service-restart";
import { restRoutes } from "./routes/rest/index";
import { registerOpenApi } from "./routes/openapi";
import { useRestConventions } from "./routes/rest/conventions";
import { restErrorHandler } from "./routes/rest/error-handler";
import { answers } from "./routes/rest/shapes/common";
import { z } from "zod";
import { fileRoutes } from "./routes/files";
import { registerTrpcHttp } from "./routes/trpc-http";
import { webRoutes } from "./routes/web";
import { countRequests } from "./metrics/count-requests";
import { metricsRoute } from "./metrics/metrics-route";

export interface AppOptions {
  deps: AppDeps;
  /**
   * LOGIN_RATE_LIMIT defaults to DEFAULT_LOGIN_RATE_LIMIT, RATE_LIMIT_PER_USER and
   * RATE_LIMIT_PER_ADDRESS to DEFAULT_REQUEST_LIMITS when left out; no TRUST_PROXY trusts no proxy.
   */
  settings: Pick<Settings, "MAX_UPLOAD_BYTES" | "WEB_DIST"> &
    Partial<
      Pick<
        Settings,
        | "LOGIN_RATE_LIMIT"
        | "RATE_LIMIT_PER_USER"
        | "RATE_LIMIT_PER_ADDRESS"
        | "TRUST_PROXY"
        | "METRICS_TOKEN"
        | "METRICS_PORT"
      >
    >;
  logger?: boolean;
  /**
   * Compress answers on the fly (issue 15 Build 1; lib/compression.ts): JSON and text from 1 KB in br or
   * gzip. On unless `false`.
   */
  compressAnswers?: boolean;
  /** Told of every route as it is registered (tests list them to compare with the OpenAPI document). */
  onRoute?: (route: RouteOptions) => void;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The `Permissions-Policy` of every answer: no powerful browser feature for any origin, except
 * the microphone for our own pages (a take recorded in the browser, issue 12 Build 3), never for
 * a frame of another origin.
 */
export const PERMISSIONS_POLICY = "camera=(), microphone=(self), geolocation=(), payment=(), usb=()";
export const DEFAULT_WEB_DIST = path.resolve(here, "../../web/dist");

/** /healthz's message while the instance is stopping (decision 029). */
export const STOPPING = "This instance is stopping; another one will answer.";

/**
 * Builds the Fastify app as a plugin tree (testable with app.inject()): security headers, the
 * sign-in rate limit (LOGIN_RATE_LIMIT attempts per IP per minute over POST /auth/login and tRPC
 * accounts.login together, each accounts.login call of a batch counting; 429 past it), the general
 * request limit of /api, /auth, /trpc and /files (lib/request-limit.ts), tRPC at
 * /trpc in its own scope (HTTP, and WebSocket
 * subscriptions authenticated by `connectionParams.token`, with keep-alive pings), the REST compatibility
 * layer and file routes in sibling scopes (zod schemas, one error handler), the OpenAPI document of
 * every route with a schema (GET /api/openapi.json, /api/docs), and the built web app. Does not listen.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: "info" } : false,
    bodyLimit: 1024 * 1024,
    // A tRPC batch names its procedures in one path parameter (`/trpc/a,b,c`); Fastify's default
    // of 100 characters answered 414 to a page's batch of a few queries (tRPC's Fastify guide).
    routerOptions: { maxParamLength: 5000 },
    // A path the router refuses (a parameter past maxParamLength, a malformed URL) answers in the REST error
    // model, not Fastify's body echoing the whole URL (issue 10).
    frameworkErrors: restErrorHandler,
    // The client address (request and sign-in limits) comes from X-Forwarded-For only when a listed proxy sent it.
    trustProxy: opts.settings.TRUST_PROXY ?? false,
    // Decision 029: a request that reaches a stopping instance over a connection already open (the proxy's
    // keep-alive pool) is served, with `Connection: close`, rather than answered Fastify's 503: no proxy
    // retries a request that got an answer. /healthz alone answers 503 while stopping (below).
    return503OnClosing: false,
  });
  const { deps } = opts;
  if (opts.onRoute) app.addHook("onRoute", opts.onRoute);
  // Decision 028: every request is timed by route pattern and status (metrics/count-requests.ts); GET /metrics
  // is served here only with METRICS_TOKEN and no METRICS_PORT (server.ts starts that listener), else 404.
  countRequests(app);
  const { METRICS_TOKEN, METRICS_PORT } = opts.settings;
  metricsRoute(app, { serve: METRICS_TOKEN !== undefined && METRICS_PORT === undefined, token: METRICS_TOKEN });

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
  // Helmet 8 sets no Permissions-Policy: the web app uses no camera, location, payment or USB device,
  // so every answer denies them all; the microphone is allowed to our own pages only (PERMISSIONS_POLICY).
  app.addHook("onRequest", async (_req, reply) => {
    reply.header("permissions-policy", PERMISSIONS_POLICY);
  });
  // Issue 15 Build 1: answers compressed on the fly (AppOptions.compressAnswers); the web app's own files
  // are precompressed at build time and served so (routes/web.ts).
  if (opts.compressAnswers ?? true) await registerCompression(app);
  // JSON body limits: 1 MB (above), except /trpc, which admits the longest transcript (lib/body-limits.ts).
  registerBodyLimits(app);

  await registerSignInLimit(app, opts.settings.LOGIN_RATE_LIMIT ?? DEFAULT_LOGIN_RATE_LIMIT);
  // Issue 10 Build 9: every API scope counts each request first (per user, or per address without a session).
  const limitRequests = createRequestLimit(app, deps.jwtSecret, {
    perUser: opts.settings.RATE_LIMIT_PER_USER ?? DEFAULT_REQUEST_LIMITS.perUser,
    perAddress: opts.settings.RATE_LIMIT_PER_ADDRESS ?? DEFAULT_REQUEST_LIMITS.perAddress,
  });

  await registerOpenApi(app);

  // Decision 029: set when app.close() starts (SIGTERM), before the server stops listening.
  let stopping = false;
  app.addHook("preClose", async () => {
    stopping = true;
  });
  await app.register(async (scope) => {
    useRestConventions(scope);
    scope.get(
      "/healthz",
      {
        schema: {
          summary: "Health check",
          description:
            'ARCHITECTURE "Settings". 200 once the database is migrated and answers; 503 while the instance is stopping (decision 029), so a proxy sends it nothing new.',
          tags: ["Health"],
          security: [],
          response: answers(z.object({ status: z.literal("ok") }).meta({ examples: [{ status: "ok" }] })),
        },
      },
      async (_request, reply) => {
        if (stopping) return reply.code(503).send({ status: "failed", success: false, message: STOPPING });
        await checkDatabase(deps.db);
        return { status: "ok" as const };
      },
    );
  });

  await app.register(async (scope) => {
    // Stopping (SIGTERM, an upgrade) closes every live socket with 1012 "Service Restart", which the web
    // app reconnects on at once (live/service-restart.ts, decision 029), not the plugin's plain close (1005).
    await scope.register(websocket, { options: { maxPayload: 1024 * 1024 }, preClose: closeSocketsForRestart });
    const onError = ({ error, path: procedure }: { error: TRPCError; path: string | undefined }) => {
      if (describeError(error).unexpected) app.log.error({ err: error, procedure }, "procedure failed");
    };
    // Queries over GET by our own loop on tRPC's HTTP protocol, the rest by tRPC's handler (routes/trpc-http.ts).
    registerTrpcHttp(scope, {
      router: appRouter,
      createContext: async (req, res, calls) => {
        await limitRequests(req, res);
        // Every accounts.login call of a batch is one attempt (issue 10 Build 3); too many refuse the whole request.
        const signIns = calls.filter((call) => call.path === SIGN_IN_PROCEDURE).length;
        if (signIns > 0 && !(await signInAllowed(app, req, res, signIns))) {
          throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_SIGN_INS);
        }
        const session = await authenticateSession(deps.db, deps.jwtSecret, bearerToken(req.headers.authorization));
        return createContextInner({ ...deps, user: session?.user ?? null, session, clientIp: req.ip });
      },
      onError,
    });
    // Subscriptions: tRPC's WebSocket protocol on the same path (live/trpc-websocket.ts, live/README.md).
    const onConnection = trpcWebSocketHandler({
      router: appRouter,
      keepAlive: { pingMs: 30_000, pongWaitMs: 5_000 },
      createContext: async ({ socket, req, connectionParams }) => {
        const session = await openSocketSession(deps, socket, connectionParams, req.socket);
        return createContextInner({ ...deps, transport: "ws", user: session.user, session });
      },
      // describeError unwraps an AppError (sign-in required, deactivated): only real failures are logged.
      onError,
      onSocketError: (error) =>
        app.log.warn({ err: error }, "WebSocket connection failed; its subscriptions were stopped"),
    });
    scope.get("/trpc", { websocket: true }, (socket, request) => onConnection(socket, request.raw));
  });

  await app.register(restRoutes, { deps, maxUploadBytes: opts.settings.MAX_UPLOAD_BYTES, limitRequests });
  await app.register(fileRoutes, { deps, limitRequests });
  await app.register(webRoutes, { distDir: opts.settings.WEB_DIST ?? DEFAULT_WEB_DIST });
  return app;
}
