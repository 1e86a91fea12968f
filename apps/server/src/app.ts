import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import helmet from "@fastify/helmet";
import type { AppDeps } from "@tafsiri/api";
import { DEFAULT_LOGIN_RATE_LIMIT, type Settings } from "./settings";
import { registerBodyLimits } from "./plugins/body-limits";
import { registerCompression } from "./plugins/compression";
import { registerSignInLimit } from "./plugins/sign-in-limit";
import { createRequestLimit, DEFAULT_REQUEST_LIMITS } from "./plugins/request-limit";
import { restRoutes } from "./routes/rest/index";
import { registerOpenApi } from "./routes/openapi";
import { restErrorHandler } from "./routes/rest/error-handler";
import { fileRoutes } from "./routes/files";
import { backupFileRoutes } from "./routes/backup-files";
import { healthRoutes } from "./routes/health";
import { trpcRoutes } from "./routes/trpc";
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
   * Compress answers on the fly (plugins/compression.ts): JSON and text from 1 KB in br or
   * gzip. On unless `false`.
   */
  compressAnswers?: boolean;
  /** Told of every route as it is registered (tests list them to compare with the OpenAPI document). */
  onRoute?: (route: RouteOptions) => void;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The `Permissions-Policy` of every answer: no powerful browser feature for any origin, except
 * the microphone for our own pages (a take recorded in the browser, decision 018), never for
 * a frame of another origin.
 */
const PERMISSIONS_POLICY = "camera=(), microphone=(self), geolocation=(), payment=(), usb=()";
export const DEFAULT_WEB_DIST = path.resolve(here, "../../web/dist");

/** How each app built here starts answering as a stopping instance (announceStopping). */
const noticeOf = new WeakMap<FastifyInstance, () => void>();

/**
 * Decision 029, SIGTERM's notice period: from now on `app` (built by buildApp) answers /healthz with
 * 503 and closes each connection after its answer, while still serving every request, so a proxy's
 * health check takes it out of rotation before it stops listening. Returns nothing; idempotent.
 */
export function announceStopping(app: FastifyInstance): void {
  noticeOf.get(app)?.();
}

/**
 * Builds the Fastify app as a plugin tree (testable with app.inject()): security headers, the
 * sign-in rate limit (LOGIN_RATE_LIMIT attempts per IP per minute over POST /auth/login and tRPC
 * accounts.login together, each accounts.login call of a batch counting; 429 past it), the general
 * request limit of /api, /auth, /trpc and /files (plugins/request-limit.ts), /healthz (routes/health.ts), tRPC
 * at /trpc in its own scope (routes/trpc.ts: HTTP, and WebSocket subscriptions authenticated by
 * `connectionParams.token`, with keep-alive pings), the REST compatibility layer and file routes in sibling
 * scopes (zod schemas, one error handler), the OpenAPI document of every route with a schema
 * (GET /api/openapi.json, /api/docs), and the built web app. Does not listen.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: "info" } : false,
    bodyLimit: 1024 * 1024,
    // A tRPC batch names its procedures in one path parameter (`/trpc/a,b,c`); Fastify's default
    // of 100 characters answered 414 to a page's batch of a few queries (tRPC's Fastify guide).
    routerOptions: { maxParamLength: 5000 },
    // A path the router refuses (a parameter past maxParamLength, a malformed URL) answers in the REST error
    // model, not Fastify's body echoing the whole URL.
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
  // Answers compressed on the fly (AppOptions.compressAnswers); the web app's own files
  // are precompressed at build time and served so (routes/web.ts).
  if (opts.compressAnswers ?? true) await registerCompression(app);
  // JSON body limits: 1 MB (above), except /trpc, which admits the longest transcript (plugins/body-limits.ts).
  registerBodyLimits(app);

  await registerSignInLimit(app, opts.settings.LOGIN_RATE_LIMIT ?? DEFAULT_LOGIN_RATE_LIMIT);
  // Every API scope counts each request first (per user, or per address without a session; decision 013).
  const limitRequests = createRequestLimit(app, deps.jwtSecret, {
    perUser: opts.settings.RATE_LIMIT_PER_USER ?? DEFAULT_REQUEST_LIMITS.perUser,
    perAddress: opts.settings.RATE_LIMIT_PER_ADDRESS ?? DEFAULT_REQUEST_LIMITS.perAddress,
  });

  await registerOpenApi(app);

  // Decision 029: set by announceStopping (SIGTERM's notice period) or when app.close() starts. From
  // then on /healthz answers 503 and every answer closes its connection, so a proxy's kept-alive
  // connections to this instance end after their request instead of meeting a closed socket.
  let stopping = false;
  noticeOf.set(app, () => {
    stopping = true;
  });
  app.addHook("preClose", async () => {
    stopping = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (stopping) reply.header("connection", "close");
  });
  await app.register(healthRoutes, { deps, isStopping: () => stopping });
  await app.register(trpcRoutes, { deps, limitRequests });
  await app.register(restRoutes, { deps, maxUploadBytes: opts.settings.MAX_UPLOAD_BYTES, limitRequests });
  await app.register(fileRoutes, { deps, limitRequests });
  await app.register(backupFileRoutes, { deps, limitRequests });
  await app.register(webRoutes, { distDir: opts.settings.WEB_DIST ?? DEFAULT_WEB_DIST });
  return app;
}
