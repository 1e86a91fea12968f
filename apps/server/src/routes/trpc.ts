import type { FastifyPluginAsync } from "fastify";
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
import { signInAllowed, SIGN_IN_PROCEDURE, TOO_MANY_SIGN_INS } from "../plugins/sign-in-limit";
import type { RequestLimit } from "../plugins/request-limit";
import { openSocketSession } from "../live/socket-session";
import { trpcWebSocketHandler } from "../live/trpc-websocket";
import { closeSocketsForRestart } from "../live/service-restart";
import { registerTrpcHttp } from "./trpc-http";

/**
 * tRPC at `/trpc`, in a scope of its own (STYLE §6: its parsers stay out of the REST scope): HTTP by
 * registerTrpcHttp (queries over GET by our own loop, decision 017), each request counted by
 * `limitRequests` and every accounts.login call of a batch by the sign-in limit (429 past it); and
 * subscriptions over WebSocket on the same path, authenticated by `connectionParams.token`, with
 * keep-alive pings (live/README.md). Only unexpected failures are logged.
 */
export const trpcRoutes: FastifyPluginAsync<{ deps: AppDeps; limitRequests: RequestLimit }> = async (
  scope,
  { deps, limitRequests },
) => {
  // Stopping (SIGTERM, an upgrade) closes every live socket with 1012 "Service Restart", which the web
  // app reconnects on at once (live/service-restart.ts, decision 029), not the plugin's plain close (1005).
  await scope.register(websocket, { options: { maxPayload: 1024 * 1024 }, preClose: closeSocketsForRestart });
  const onError = ({ error, path: procedure }: { error: TRPCError; path: string | undefined }) => {
    if (describeError(error).unexpected) scope.log.error({ err: error, procedure }, "procedure failed");
  };
  // Queries over GET by our own loop on tRPC's HTTP protocol, the rest by tRPC's handler (routes/trpc-http.ts).
  registerTrpcHttp(scope, {
    router: appRouter,
    createContext: async (req, res, calls) => {
      await limitRequests(req, res);
      // Every accounts.login call of a batch is one attempt; too many refuse the whole request.
      const signIns = calls.filter((call) => call.path === SIGN_IN_PROCEDURE).length;
      if (signIns > 0 && !(await signInAllowed(scope, req, res, signIns))) {
        throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_SIGN_INS);
      }
      const session = await authenticateSession(
        deps.db,
        deps.jwtSecret,
        bearerToken(req.headers.authorization),
        req.ip,
      );
      return createContextInner({
        ...deps,
        user: session?.user ?? null,
        session,
        clientIp: req.ip,
        ...(req.headers["user-agent"] ? { userAgent: req.headers["user-agent"] } : {}),
      });
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
      scope.log.warn({ err: error }, "WebSocket connection failed; its subscriptions were stopped"),
  });
  scope.get("/trpc", { websocket: true }, (socket, request) => onConnection(socket, request.raw));
};
