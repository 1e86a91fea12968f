import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { TRANSCRIPT_MAX_CHARS, TRANSCRIPT_TOO_LONG } from "@tafsiri/domain";

/**
 * The most bytes one character of a string can take in a JSON body: a control character such as
 * U+0001 is written `\u0001` (6 bytes); UTF-8 itself needs at most 3 bytes per UTF-16 code unit.
 */
const MAX_JSON_BYTES_PER_CHAR = 6;

/**
 * The body limit of tRPC over HTTP: `transcripts.save` must take a transcript of the schema's
 * maximum (TRANSCRIPT_MAX_CHARS) however it is encoded, plus the call's envelope. It applies to
 * the whole /trpc route, since the procedures a request names are the client's choice anyway.
 */
const TRPC_BODY_LIMIT = TRANSCRIPT_MAX_CHARS * MAX_JSON_BYTES_PER_CHAR + 64 * 1024;

/** The route fastifyTRPCPlugin registers for queries and mutations under the /trpc prefix. */
const TRPC_HTTP_ROUTE = "/trpc/:path";
const SAVE_TRANSCRIPT = "transcripts.save";
const BODY_TOO_LARGE = "The request body is too large.";

/**
 * Answers a request to the tRPC HTTP route that never reached tRPC in tRPC's own error shape
 * (the one its error formatter gives): one error per procedure the path names, as an array for a
 * batch (`?batch=1`), each with `messageFor(path)`, the tRPC `code` and `status` given.
 */
function sendTrpcRefusal(
  req: FastifyRequest,
  reply: FastifyReply,
  code: "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE",
  status: number,
  messageFor: (path: string) => string,
) {
  const paths = ((req.params as { path?: string } | undefined)?.path ?? "").split(",");
  const answers = paths.map((path) => ({
    error: { message: messageFor(path), code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: status, path } },
  }));
  const batch = (req.query as { batch?: string } | undefined)?.batch === "1";
  return reply
    .code(status)
    .type("application/json")
    .send(JSON.stringify(batch ? answers : answers[0]));
}

/**
 * A body past TRPC_BODY_LIMIT answers 413 in tRPC's own error shape (one error per call of a
 * batch), so the web client shows the message: for `transcripts.save` the limit in characters
 * ('The transcript may be at most 2,000,000 characters.', since only a longer transcript makes a
 * body that large). Every other error goes on to the scope's handler.
 */
function trpcBodyTooLarge(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (error.code !== "FST_ERR_CTP_BODY_TOO_LARGE") throw error;
  return sendTrpcRefusal(req, reply, "PAYLOAD_TOO_LARGE", 413, (path) =>
    path === SAVE_TRANSCRIPT ? TRANSCRIPT_TOO_LONG : BODY_TOO_LARGE,
  );
}

/** The 415 message of a tRPC request whose body is not JSON (the REST layer's words for the same). */
const SEND_JSON = "Send the request body as JSON.";

/**
 * The tRPC HTTP route takes JSON bodies only (no procedure takes FormData; uploads are
 * REST). A body of any other Content-Type, or a body without one, answers 415 SEND_JSON in tRPC's
 * error shape before Fastify's parsers run: Fastify's own answers were its raw error body (415),
 * or a 500 for multipart, whose stream fastifyTRPCPlugin hands tRPC as the body. A request
 * without a body (a GET, a mutation without input) passes, as Fastify lets it.
 */
async function trpcJsonOnly(req: FastifyRequest, reply: FastifyReply) {
  const contentType = req.headers["content-type"];
  if (contentType === undefined) {
    const length = req.headers["content-length"];
    const hasBody = req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
    if (!hasBody) return;
  } else if (contentType.split(";")[0]!.trim().toLowerCase() === "application/json") {
    return;
  }
  return sendTrpcRefusal(req, reply, "UNSUPPORTED_MEDIA_TYPE", 415, () => SEND_JSON);
}

/**
 * Makes the JSON body limits agree with the schemas: every route keeps the app's
 * `bodyLimit` (1 MB; REST bodies are small) except tRPC over HTTP, which takes TRPC_BODY_LIMIT and answers a body past it
 * in tRPC's shape. The tRPC HTTP route also takes JSON bodies only (trpcJsonOnly: 415 in tRPC's
 * shape). Register before the routes (it is an onRoute hook).
 */
export function registerBodyLimits(app: FastifyInstance): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    if (route.url !== TRPC_HTTP_ROUTE) return;
    route.bodyLimit = TRPC_BODY_LIMIT;
    route.errorHandler = trpcBodyTooLarge;
    const onRequest = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [...onRequest, trpcJsonOnly];
  });
}
