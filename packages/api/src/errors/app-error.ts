/**
 * The one domain error (STYLE §11): services throw `AppError(code, message)` with the
 * user-facing message (the spec's wording where it gives one). tRPC's error formatter and the
 * REST error handler both turn it into an answer with `describeError`, so a failure reads the
 * same on both APIs.
 */

/** Each code with the HTTP status it answers and the tRPC code the web client sees. */
export const APP_ERROR_CODES = {
  BAD_REQUEST: { httpStatus: 400, trpcCode: "BAD_REQUEST" },
  UNAUTHORIZED: { httpStatus: 401, trpcCode: "UNAUTHORIZED" },
  FORBIDDEN: { httpStatus: 403, trpcCode: "FORBIDDEN" },
  NOT_FOUND: { httpStatus: 404, trpcCode: "NOT_FOUND" },
  METHOD_NOT_SUPPORTED: { httpStatus: 405, trpcCode: "METHOD_NOT_SUPPORTED" },
  CONFLICT: { httpStatus: 409, trpcCode: "CONFLICT" },
  /** Something that existed and is gone for good (a superseded export's link, decision 024); tRPC has no such code. */
  GONE: { httpStatus: 410, trpcCode: "NOT_FOUND" },
  TOO_LARGE: { httpStatus: 413, trpcCode: "PAYLOAD_TOO_LARGE" },
  /** Only Fastify's router answers it: a path parameter past `maxParamLength` (tRPC has no such code). */
  URI_TOO_LONG: { httpStatus: 414, trpcCode: "BAD_REQUEST" },
  UNSUPPORTED_MEDIA_TYPE: { httpStatus: 415, trpcCode: "UNSUPPORTED_MEDIA_TYPE" },
  /** Only file downloads answer it (tRPC never does). */
  RANGE_NOT_SATISFIABLE: { httpStatus: 416, trpcCode: "BAD_REQUEST" },
  /** Well-formed input whose content cannot be processed (a stored recording that cannot be decoded). */
  UNPROCESSABLE: { httpStatus: 422, trpcCode: "UNPROCESSABLE_CONTENT" },
  TOO_MANY_REQUESTS: { httpStatus: 429, trpcCode: "TOO_MANY_REQUESTS" },
  /** A part this server cannot run (the voice activity model's native runtime failed to load). */
  SERVICE_UNAVAILABLE: { httpStatus: 503, trpcCode: "SERVICE_UNAVAILABLE" },
  INTERNAL: { httpStatus: 500, trpcCode: "INTERNAL_SERVER_ERROR" },
} as const;

export type AppErrorCode = keyof typeof APP_ERROR_CODES;

/** The message every unexpected failure answers (@tafsiri/domain's, the web app's too). */
export { UNEXPECTED_ERROR } from "@tafsiri/domain";

/** The 401 message for a call without a valid session. */
export const SIGN_IN_REQUIRED = "You must be signed in.";
/** The 403 message for a staff member on an admin-only call. */
export const ADMINS_ONLY = "Only administrators may do this.";

/** A failure a user or integrator is told about: `code` decides the status, `message` is shown as is. */
export class AppError extends Error {
  readonly code: AppErrorCode;
  /**
   * A machine-readable reason beside the status, for the few failures a client must tell apart from
   * others of the same status (decision 038: SECOND_FACTOR_REQUIRED, REAUTH_REQUIRED,
   * SECOND_FACTOR_ENROLMENT_REQUIRED): tRPC's `error.data.reason`, REST's `reason`.
   */
  readonly reason: string | undefined;

  constructor(code: AppErrorCode, message: string, options?: { cause?: unknown; reason?: string }) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
    this.reason = options?.reason;
  }
}
