import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  getErrorShape,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  TRPCError,
  type AnyTRPCProcedure,
  type AnyTRPCRouter,
  type inferRouterContext,
  type TRPCProcedureType,
} from "@trpc/server";
import { fastifyRequestHandler, type FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import { getHTTPStatusCode } from "@trpc/server/http";
import type { TRPCResponse } from "@trpc/server/rpc";

/** The calls of one HTTP request, as tRPC's `info.calls` names them. */
interface TrpcHttpCall {
  path: string;
}

/** What registerTrpcHttp serves and how it builds each request's context. */
export interface TrpcHttpOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  /** Builds the request's context once for all its calls; throwing answers that error for every call. */
  createContext(req: FastifyRequest, reply: FastifyReply, calls: TrpcHttpCall[]): Promise<inferRouterContext<TRouter>>;
  /** Hears every error answered (to log the unexpected ones). */
  onError?(opts: { error: TRPCError; path: string | undefined; type: TRPCProcedureType | "unknown" }): void;
}

/** A query call the loop serves itself: its procedure and raw input. */
interface QueryCall {
  path: string;
  procedure: AnyTRPCProcedure;
  input: unknown;
}

/**
 * Serves tRPC over HTTP at `/trpc/:path` in `scope` (decision 017). A GET of
 * query procedures (one, or a batch `?batch=1` as httpBatchLink sends) whose input parses is
 * answered by our own loop: the context is built once, each procedure is called as tRPC calls it
 * (middleware, input and output validation, the error formatter all apply), and the answer is the
 * JSON tRPC's fetch adapter would send (`{"result":{"data":…}}` or `{"error":shape}` per call, an
 * array for a batch; the status of the calls, 207 when they differ; `Vary: trpc-accept, accept`).
 * Everything else (mutations, unknown or mistyped procedures, unparsable input, streamed
 * `trpc-accept: application/jsonl` batches, subscriptions over HTTP) goes to tRPC's own Fastify
 * handler unchanged. apps/server/test/trpc-http.test.ts compares both answers request by request.
 */
export function registerTrpcHttp<TRouter extends AnyTRPCRouter>(
  scope: FastifyInstance,
  opts: TrpcHttpOptions<TRouter>,
) {
  // As fastifyTRPCPlugin: tRPC reads JSON and multipart bodies itself.
  scope.removeContentTypeParser("application/json");
  scope.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => done(null, body));
  scope.removeContentTypeParser("multipart/form-data");
  scope.addContentTypeParser("multipart/form-data", {}, (_req, body, done) => done(null, body));

  const trpcOptions = {
    router: opts.router,
    createContext: ({ req, res, info }) => opts.createContext(req, res, info.calls),
    onError: opts.onError ? ({ error, path, type }) => opts.onError?.({ error, path, type }) : undefined,
  } satisfies FastifyTRPCPluginOptions<AnyTRPCRouter>["trpcOptions"];
  const config = opts.router._def._config;

  const viaTrpc = (req: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply) =>
    fastifyRequestHandler({ ...trpcOptions, req, res: reply, path: req.params.path });

  scope.all<{ Params: { path: string } }>("/trpc/:path", async (req, reply) => {
    const request = req.method === "GET" ? queryCalls(opts.router, req) : null;
    if (!request) return viaTrpc(req, reply);
    const { calls, isBatch } = request;

    let ctx: inferRouterContext<TRouter> | undefined;
    let ctxError: TRPCError | undefined;
    try {
      ctx = await opts.createContext(req, reply, calls);
    } catch (cause) {
      ctxError = getTRPCErrorFromUnknown(cause);
    }
    const answers: TRPCResponse[] = await Promise.all(
      calls.map(async (call, batchIndex) => {
        try {
          if (ctxError) throw ctxError;
          const data = await call.procedure({
            path: call.path,
            getRawInput: () => Promise.resolve(call.input),
            ctx,
            type: "query",
            signal: undefined,
            batchIndex,
          });
          return { result: { data } };
        } catch (cause) {
          const error = getTRPCErrorFromUnknown(cause);
          opts.onError?.({ error, path: call.path, type: "query" });
          return {
            error: getErrorShape({ config, ctx, error, input: call.input, path: call.path, type: "query" }),
          };
        }
      }),
    );
    const body = isBatch ? answers : answers[0]!;
    return (
      reply
        .code(getHTTPStatusCode(body))
        .header("vary", "trpc-accept, accept")
        .header("content-type", "application/json")
        // A Buffer keeps the content type as tRPC sends it (Fastify adds a charset to a string's).
        .send(Buffer.from(JSON.stringify(transformTRPCResponse(config, body))))
    );
  });
}

/**
 * The query calls of a GET request that our loop answers exactly as tRPC would, and whether it is
 * a batch, or null when
 * tRPC's own handler must: a streamed batch, a path that is not a query procedure, input that is
 * not JSON (or not an object for a batch).
 */
function queryCalls(
  router: AnyTRPCRouter,
  req: FastifyRequest<{ Params: { path: string } }>,
): { calls: QueryCall[]; isBatch: boolean } | null {
  const accept = req.headers["trpc-accept"] ?? req.headers.accept;
  if (accept?.includes("application/jsonl")) return null;
  const query = req.query as Record<string, string | string[] | undefined>;
  if (Array.isArray(query.batch)) return null;
  const isBatch = query.batch === "1";
  let path: string;
  try {
    path = decodeURIComponent(req.params.path);
  } catch {
    return null;
  }
  const paths = isBatch ? path.split(",") : [path];
  const procedures = router._def.procedures as Record<string, AnyTRPCProcedure>;
  const rawInput = query.input;
  if (Array.isArray(rawInput)) return null;
  let inputs: unknown;
  try {
    inputs = rawInput ? JSON.parse(rawInput) : undefined;
  } catch {
    return null;
  }
  if (isBatch && inputs !== undefined && (typeof inputs !== "object" || inputs === null || Array.isArray(inputs))) {
    return null;
  }
  const deserialize = (value: unknown) =>
    value === undefined ? undefined : (router._def._config.transformer.input.deserialize(value) as unknown);
  const calls: QueryCall[] = [];
  for (const [index, callPath] of paths.entries()) {
    const procedure = Object.hasOwn(procedures, callPath) ? procedures[callPath] : undefined;
    if (procedure?._def.type !== "query") return null;
    const input = isBatch ? (inputs as Record<string, unknown> | undefined)?.[index] : inputs;
    calls.push({ path: callPath, procedure, input: deserialize(input) });
  }
  return { calls, isBatch };
}
