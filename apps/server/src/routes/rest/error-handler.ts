import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, describeError, type AppErrorCode } from "@tafsiri/api";

/** A JSON body that is not an object (a list, a string, nothing) where named fields are read. */
export const BODY_NOT_AN_OBJECT = "The request body must be a JSON object.";

/** Fastify's own request errors (parsing, limits) as domain errors with a plain message. */
const FASTIFY_ERRORS: Record<string, [AppErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ["TOO_LARGE", "The request body is too large."],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ["UNSUPPORTED_MEDIA_TYPE", "Send the request body as JSON."],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["BAD_REQUEST", "The request body could not be read."],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["BAD_REQUEST", BODY_NOT_AN_OBJECT],
  FST_ERR_CTP_INVALID_JSON_BODY: ["BAD_REQUEST", "The request body is not valid JSON."],
  // The router's own refusals (frameworkErrors, app.ts): Fastify's bodies would echo the whole URL.
  FST_ERR_MAX_PARAM_LENGTH: ["URI_TOO_LONG", "The request path is too long."],
  FST_ERR_BAD_URL: ["BAD_REQUEST", "The request path is not a valid URL."],
};

/** A request that failed its route's zod schema: the first failing field's message (same rule as tRPC). */
function validationError(error: FastifyError): AppError {
  const first = error.validation?.[0];
  const whole = first?.instancePath === "/" || first?.instancePath === "";
  if (whole && error.validationContext === "body") return new AppError("BAD_REQUEST", BODY_NOT_AN_OBJECT);
  return new AppError("BAD_REQUEST", first?.message ?? "The request is not valid.");
}

/** The domain error a thrown value stands for, before describeError maps it. */
function asDomainError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) return validationError(fastifyError);
  if (typeof fastifyError?.code === "string" && FASTIFY_ERRORS[fastifyError.code]) {
    const [code, message] = FASTIFY_ERRORS[fastifyError.code]!;
    return new AppError(code, message);
  }
  const status = fastifyError?.statusCode;
  if (status === 416) return new AppError("RANGE_NOT_SATISFIABLE", "The requested range is not satisfiable.");
  if (status === 400 && error instanceof SyntaxError)
    return new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  return error;
}

/**
 * The REST scope's one error handler (SPEC §7.3): every failure answers
 * `{ status: 'failed', success: false, message }` with the HTTP status describeError gives it,
 * the same mapping tRPC's error formatter uses. Unexpected failures are logged and answer 500
 * with a plain message, never a stack trace. It is also the app's `frameworkErrors` handler,
 * so a path the router refuses (a parameter past maxParamLength: 414; a malformed
 * URL: 400) answers in the same shape without echoing the URL.
 */
export function restErrorHandler(error: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const answer = describeError(asDomainError(error));
  // Headers an error brings along (e.g. Content-Range on a 416) are sent, as Fastify's own handler does.
  const headers = (error as { headers?: Record<string, string> } | null)?.headers;
  if (headers && typeof headers === "object") reply.headers(headers);
  if (answer.unexpected) req.log.error({ err: error }, "REST request failed");
  return reply.code(answer.httpStatus).send({
    status: "failed",
    success: false,
    message: answer.message,
    // Decision 038: the few failures a client must tell apart (REAUTH_REQUIRED, …) say which they are.
    ...(answer.reason ? { reason: answer.reason } : {}),
  });
}
