import { TRPCError } from "@trpc/server";
import { APP_ERROR_CODES, AppError, UNEXPECTED_ERROR, type AppErrorCode } from "./app-error";
import { isNulRefusedByDatabase, NUL_IN_TEXT } from "./nul-text";

/** How any failure is answered, on tRPC and on REST alike. */
export interface ErrorAnswer {
  code: AppErrorCode;
  /** HTTP status, e.g. 404. */
  httpStatus: number;
  /** The tRPC error code key the web client reads from `error.data.code`, e.g. "NOT_FOUND". */
  trpcCode: (typeof APP_ERROR_CODES)[AppErrorCode]["trpcCode"];
  /** The user-facing message; for unexpected failures always UNEXPECTED_ERROR. */
  message: string;
  /** True for failures nobody expected (500): they are logged, their text is never sent. */
  unexpected: boolean;
  /** An AppError's machine-readable reason (decision 038), when it has one. */
  reason?: string;
}

/** tRPC's own error codes as ours (the ones tRPC raises itself: parse errors, unknown procedures). */
const FROM_TRPC: Partial<Record<TRPCError["code"], AppErrorCode>> = {
  PARSE_ERROR: "BAD_REQUEST",
  UNPROCESSABLE_CONTENT: "BAD_REQUEST",
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_SUPPORTED: "METHOD_NOT_SUPPORTED",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
};

/**
 * The message of the first failing field of a validation failure (zod or any Standard Schema
 * issues list), or null when `error` is not one. Both APIs compose validation messages this way.
 */
export function firstIssueMessage(error: unknown): string | null {
  const issues = (error as { issues?: unknown } | null | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  const message = (issues[0] as { message?: unknown }).message;
  return typeof message === "string" && message !== "" ? message : null;
}

function answer(code: AppErrorCode, message: string, reason?: string): ErrorAnswer {
  const unexpected = code === "INTERNAL";
  return {
    code,
    ...APP_ERROR_CODES[code],
    message: unexpected ? UNEXPECTED_ERROR : message,
    unexpected,
    ...(reason && !unexpected ? { reason } : {}),
  };
}

/**
 * Maps any thrown value onto its answer: an AppError (also when tRPC wrapped it) keeps its code
 * and message; tRPC's input validation failure is BAD_REQUEST with the first failing field's
 * message; tRPC's own errors keep their code and message; the database refusing U+0000 (also
 * wrapped by tRPC) is BAD_REQUEST NUL_IN_TEXT (a safety net, the boundary refuses it
 * first); anything else is INTERNAL with UNEXPECTED_ERROR (output validation failures included).
 */
export function describeError(error: unknown): ErrorAnswer {
  if (error instanceof AppError) return answer(error.code, error.message, error.reason);
  if (isNulRefusedByDatabase(error)) return answer("BAD_REQUEST", NUL_IN_TEXT);
  if (!(error instanceof TRPCError)) return answer("INTERNAL", UNEXPECTED_ERROR);
  if (error.cause instanceof AppError) return answer(error.cause.code, error.cause.message, error.cause.reason);
  if (isNulRefusedByDatabase(error.cause)) return answer("BAD_REQUEST", NUL_IN_TEXT);
  const code = FROM_TRPC[error.code];
  if (!code) return answer("INTERNAL", UNEXPECTED_ERROR);
  if (code === "BAD_REQUEST") return answer(code, firstIssueMessage(error.cause) ?? error.message);
  return answer(code, error.message);
}
