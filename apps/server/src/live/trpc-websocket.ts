import type { IncomingMessage } from "node:http";
import { WebSocket, type RawData } from "ws";
import {
  callTRPCProcedure,
  getErrorShape,
  getTRPCErrorFromUnknown,
  isTrackedEnvelope,
  transformTRPCResponse,
  TRPCError,
  type AnyTRPCRouter,
  type inferRouterContext,
  type TRPCProcedureType,
} from "@trpc/server";
import { handleKeepAlive } from "@trpc/server/adapters/ws";
import { parseTRPCMessage, type TRPCRequestMessage, type TRPCResponseMessage } from "@trpc/server/rpc";
import { describeError, liveSubscriptions, serializedJson, webSocketConnections } from "@tafsiri/api";
import { DEACTIVATED_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE } from "@tafsiri/domain";
import { batchBurstWrites } from "./burst-writes";

/** What a connection's context is made from. */
interface WebSocketContextOptions {
  socket: WebSocket;
  req: IncomingMessage;
  /** The client's `connectionParams` (null when the URL does not announce them). */
  connectionParams: Record<string, string> | null;
}

/** What one connection may ask of the server at once (decision 013). */
interface WebSocketLimits {
  /** Subscriptions running at once; one more is refused with TOO_MANY_REQUESTS. */
  subscriptions: number;
  /** Messages in one frame (a JSON array); a longer frame is a flood: the socket closes with 1008. */
  messagesPerFrame: number;
}

/** The limits of every connection unless trpcWebSocketHandler is given others. */
const WEBSOCKET_LIMITS: WebSocketLimits = { subscriptions: 10, messagesPerFrame: 20 };

/** Close code of a connection that broke a limit (RFC 6455 7.4.1 "policy violation"). */
const POLICY_VIOLATION = 1008;

/** What trpcWebSocketHandler serves, and who hears what goes wrong. */
export interface TrpcWebSocketOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  /**
   * Builds the connection's context once; throwing answers the error and closes the socket (4401
   * for UNAUTHORIZED, 4403 for FORBIDDEN: refusalCloseCode).
   */
  createContext(opts: WebSocketContextOptions): Promise<inferRouterContext<TRouter>>;
  /** Server-sent PING every `pingMs`; the socket is dropped when nothing arrives within `pongWaitMs` after it. */
  keepAlive?: { pingMs: number; pongWaitMs: number };
  /** What one connection may run at once (default WEBSOCKET_LIMITS). */
  limits?: WebSocketLimits;
  /** Hears every error answered to a client (to log the internal ones). */
  onError?(opts: { error: TRPCError; path: string | undefined; type: TRPCProcedureType | "unknown" }): void;
  /**
   * Hears an error of the socket itself (e.g. a frame over maxPayload, invalid UTF-8, a reset
   * connection); the connection's subscriptions have been stopped, as on close.
   */
  onSocketError?(error: Error): void;
}

type RequestId = string | number | null;

/**
 * The close code of a connection whose `createContext` threw `cause`, by the code the
 * client was answered (describeError): 4401 (SESSION_ENDED_CLOSE_CODE) for UNAUTHORIZED and 4403
 * (DEACTIVATED_CLOSE_CODE) for FORBIDDEN, the codes an open socket closes with when its session
 * ends, so a client stops reconnecting with a token that cannot succeed; undefined (a plain close,
 * 1005) for anything else, which the client may retry. tRPC's own adapter closes every refusal
 * plainly.
 */
function refusalCloseCode(cause: unknown): number | undefined {
  const { trpcCode } = describeError(cause);
  if (trpcCode === "UNAUTHORIZED") return SESSION_ENDED_CLOSE_CODE;
  if (trpcCode === "FORBIDDEN") return DEACTIVATED_CLOSE_CODE;
  return undefined;
}

/** Turns `connectionParams` into string values, as tRPC's own adapter accepts them. */
function parseConnectionParams(data: unknown): Record<string, string> | null {
  if (data === null || data === undefined) return null;
  if (typeof data !== "object" || Array.isArray(data)) throw new Error("connectionParams must be an object");
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== "string") throw new Error(`connectionParams.${key} must be a string`);
    params[key] = value;
  }
  return params;
}

/**
 * tRPC v11's WebSocket protocol for `router` (decision 005), as a @fastify/websocket route handler
 * `(socket, req) => void`. It speaks what @trpc/client's wsLink speaks (the `connectionParams`
 * message when the URL has `connectionParams=1`, `subscription` / `subscription.stop`, answers
 * `started` / `data` / `stopped` / error, tracked ids and `lastEventId`, PING/PONG) and runs
 * procedures through tRPC itself (callTRPCProcedure, its error shapes and transformer). What it
 * does differently from tRPC's getWSConnectionHandler is the subscription loop: a plain loop
 * over the procedure's async iterator, each value sent as one text frame, with values marked by
 * shareSerialization serialized once for every connection (docs/decisions/005: the stock loop
 * costs ~20 µs a message, which made fan-out to 1,000 subscribers three times slower than a plain
 * broadcast). Subscription procedures must end when their `signal` aborts (subscription.stop,
 * the socket closing or failing), as tRPC recommends.
 *
 * Limits (decision 013): a connection runs at most `limits.subscriptions` subscriptions at once
 * (one more is answered TOO_MANY_REQUESTS and not run; queries and mutations are refused by the
 * procedures themselves, which serve them over HTTP only), and a frame holding more than `limits.messagesPerFrame` messages closes the socket
 * with 1008 before any of them runs. The socket's frame size limit is @fastify/websocket's
 * `maxPayload` (app.ts).
 *
 * The errors this loop raises itself are TRPCErrors on purpose: they are tRPC protocol failures
 * (a frame that does not parse, a missing or duplicate id, a binary frame, a procedure of the wrong
 * kind), raised where and as tRPC's own getWSConnectionHandler raises them, so the answers match
 * its adapter (apps/server/test/trpc-websocket-protocol.test.ts). Domain failures are AppErrors
 * thrown by the procedures and by `createContext`.
 */
export function trpcWebSocketHandler<TRouter extends AnyTRPCRouter>(opts: TrpcWebSocketOptions<TRouter>) {
  const config = opts.router._def._config;
  const serialize = (value: unknown): unknown => config.transformer.output.serialize(value);
  const limits = opts.limits ?? WEBSOCKET_LIMITS;

  return (socket: WebSocket, req: IncomingMessage): void => {
    const subscriptions = new Map<RequestId, AbortController>();
    // Decision 028: open connections, counted down once when the socket closes.
    webSocketConnections.inc();
    socket.once("close", () => webSocketConnections.dec());
    let ctx: inferRouterContext<TRouter> | undefined;
    let ctxPromise: Promise<boolean> | null = null;
    if (opts.keepAlive) handleKeepAlive(socket, opts.keepAlive.pingMs, opts.keepAlive.pongWaitMs);

    // The frames one turn of the event loop sends leave in one write (a page of backlog is hundreds).
    const batchWrites = batchBurstWrites(req.socket);
    const send = (frame: string) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      batchWrites();
      socket.send(frame);
    };
    const respond = (message: TRPCResponseMessage) => send(JSON.stringify(transformTRPCResponse(config, message)));
    const respondError = (
      id: RequestId,
      jsonrpc: "2.0" | undefined,
      cause: unknown,
      call: { path: string | undefined; type: TRPCProcedureType | "unknown"; input: unknown },
    ) => {
      const error = getTRPCErrorFromUnknown(cause);
      opts.onError?.({ error, path: call.path, type: call.type });
      respond({
        id,
        jsonrpc,
        error: getErrorShape({ config, error, type: call.type, path: call.path, input: call.input, ctx }),
      });
    };
    /** One data frame; a shared value's JSON text is reused (see serializedJson). */
    const dataFrame = (id: RequestId, jsonrpc: "2.0" | undefined, value: unknown): string => {
      const head = `{"id":${JSON.stringify(id)}${jsonrpc === undefined ? "" : `,"jsonrpc":"${jsonrpc}"`},"result":{"type":"data"`;
      if (isTrackedEnvelope(value)) {
        const [trackingId, data] = value;
        const envelope = { id: trackingId, data };
        if (serialize(envelope) === envelope && data !== undefined) {
          const key = JSON.stringify(trackingId);
          return `${head},"id":${key},"data":{"id":${key},"data":${serializedJson(data)}}}}`;
        }
        return JSON.stringify(
          transformTRPCResponse(config, { id, jsonrpc, result: { type: "data", id: trackingId, data: envelope } }),
        );
      }
      if (serialize(value) === value && value !== undefined) return `${head},"data":${serializedJson(value)}}}`;
      return JSON.stringify(transformTRPCResponse(config, { id, jsonrpc, result: { type: "data", data: value } }));
    };

    const createContext = (connectionParams: () => Record<string, string> | null): Promise<boolean> =>
      (async () => {
        try {
          ctx = await opts.createContext({ socket, req, connectionParams: connectionParams() });
          return true;
        } catch (cause) {
          respondError(null, undefined, cause, { path: undefined, type: "unknown", input: undefined });
          const code = refusalCloseCode(cause);
          setImmediate(() => socket.close(code));
          return false;
        }
      })();

    /** Drops subscription `id` from the connection's list, unless a newer one took its id. */
    const forget = (id: RequestId, abort: AbortController) => {
      if (subscriptions.get(id) === abort) subscriptions.delete(id);
    };

    const runSubscription = async (
      id: RequestId,
      jsonrpc: "2.0" | undefined,
      iterable: AsyncIterable<unknown>,
      abort: AbortController,
      call: { path: string; input: unknown },
    ) => {
      const iterator = iterable[Symbol.asyncIterator]();
      // Decision 028: subscriptions running, from `started` until the loop ends.
      liveSubscriptions.inc();
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done || abort.signal.aborted) break;
          send(dataFrame(id, jsonrpc, next.value));
        }
        respond({ id, jsonrpc, result: { type: "stopped" } });
      } catch (cause) {
        respondError(id, jsonrpc, cause, { ...call, type: "subscription" });
      } finally {
        liveSubscriptions.dec();
        forget(id, abort);
        abort.abort();
        await Promise.resolve(iterator.return?.()).catch((cause: unknown) =>
          opts.onError?.({ error: getTRPCErrorFromUnknown(cause), path: call.path, type: "subscription" }),
        );
      }
    };

    const handleRequest = async (msg: TRPCRequestMessage, batchIndex: number) => {
      const { id, jsonrpc, method: type } = msg;
      const { path, lastEventId } = msg.params;
      let { input } = msg.params;
      if (lastEventId !== undefined) {
        input =
          typeof input === "object" && input !== null && !Array.isArray(input)
            ? { ...input, lastEventId }
            : (input ?? { lastEventId });
      }
      const call = { path, type, input };
      const abort = new AbortController();
      try {
        if (id === null) throw new TRPCError({ code: "PARSE_ERROR", message: "`id` is required" });
        if (!(await ctxPromise)) return;
        if (type === "subscription" && subscriptions.has(id))
          throw new TRPCError({ code: "BAD_REQUEST", message: `Duplicate id ${id}` });
        if (type === "subscription" && subscriptions.size >= limits.subscriptions)
          throw new TRPCError({
            code: "TOO_MANY_REQUESTS",
            message: `A connection can run at most ${limits.subscriptions} subscriptions at once.`,
          });
        if (type === "subscription") subscriptions.set(id, abort);
        const result: unknown = await callTRPCProcedure({
          router: opts.router,
          path,
          getRawInput: async () => input,
          ctx,
          type,
          signal: abort.signal,
          batchIndex,
        });
        const iterable =
          typeof result === "object" && result !== null && Symbol.asyncIterator in result
            ? (result as AsyncIterable<unknown>)
            : null;
        if (type !== "subscription") {
          if (iterable)
            throw new TRPCError({
              code: "UNSUPPORTED_MEDIA_TYPE",
              message: `Cannot return an async iterable from a ${type} procedure with WebSockets`,
            });
          respond({ id, jsonrpc, result: { type: "data", data: result } });
          return;
        }
        if (!iterable)
          throw new TRPCError({
            code: "INTERNAL_SERVER_ERROR",
            message: `Subscription ${path} did not return an AsyncGenerator`,
          });
        if (socket.readyState !== WebSocket.OPEN || abort.signal.aborted) {
          forget(id, abort);
          await iterable[Symbol.asyncIterator]().return?.();
          return;
        }
        respond({ id, jsonrpc, result: { type: "started" } });
        void runSubscription(id, jsonrpc, iterable, abort, call);
      } catch (cause) {
        // Never started: let go of the id (a no-op when it belongs to another subscription).
        forget(id, abort);
        respondError(id, jsonrpc, cause, call);
      }
    };

    /** Stops every subscription of the connection: its socket closed, failed or broke a limit. */
    const stopAll = () => {
      for (const abort of subscriptions.values()) abort.abort();
      subscriptions.clear();
    };

    const handleMessage = (text: string) => {
      let messages: ReturnType<typeof parseTRPCMessage>[];
      try {
        const json: unknown = JSON.parse(text);
        messages = (Array.isArray(json) ? json : [json]).map((raw) => parseTRPCMessage(raw, config.transformer));
      } catch (cause) {
        respondError(null, undefined, new TRPCError({ code: "PARSE_ERROR", cause }), {
          path: undefined,
          type: "unknown",
          input: undefined,
        });
        return;
      }
      if (messages.length > limits.messagesPerFrame) {
        stopAll();
        socket.close(POLICY_VIOLATION, `At most ${limits.messagesPerFrame} messages per frame`);
        return;
      }
      messages.forEach((msg, index) => {
        if (msg.method === "subscription.stop") subscriptions.get(msg.id)?.abort();
        else void handleRequest(msg, index);
      });
    };

    if (new URL(req.url ?? "/", "http://localhost").searchParams.get("connectionParams") !== "1")
      ctxPromise = createContext(() => null);

    socket.on("message", (data: RawData, isBinary: boolean) => {
      // A socket closing (e.g. after a flood) runs nothing more.
      if (socket.readyState !== WebSocket.OPEN) return;
      if (isBinary) {
        respondError(
          null,
          undefined,
          new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: "Unexpected WebSocket message format" }),
          {
            path: undefined,
            type: "unknown",
            input: undefined,
          },
        );
        return;
      }
      const text = data.toString();
      if (text === "PONG") return;
      if (text === "PING") {
        send("PONG");
        return;
      }
      if (!ctxPromise) {
        // The first message of a connection that announced connectionParams carries them.
        ctxPromise = createContext(() => {
          try {
            const message = JSON.parse(text) as { method?: unknown; data?: unknown };
            if (message?.method !== "connectionParams") throw new Error("expected the connectionParams message");
            return parseConnectionParams(message.data);
          } catch (cause) {
            throw new TRPCError({ code: "PARSE_ERROR", message: "Malformed TRPCConnectionParamsMessage", cause });
          }
        });
        return;
      }
      handleMessage(text);
    });
    socket.on("error", (error: Error) => {
      stopAll();
      opts.onSocketError?.(error);
    });
    socket.once("close", stopAll);
  };
}
