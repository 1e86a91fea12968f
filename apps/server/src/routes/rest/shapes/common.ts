import { z } from "zod";
import { REAUTH_REQUIRED, SECOND_FACTOR_ENROLMENT_REQUIRED, SECOND_FACTOR_REQUIRED } from "@tafsiri/domain";

/**
 * Wire shapes shared by the REST paths of SPEC §7.1: the spec's field names (`_id`, ...) live
 * here, at the boundary only. Every schema carries an example for the OpenAPI document.
 */

const EXAMPLE_ID = "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70";
export const EXAMPLE_USER_ID = "5f2c9a1e-7b3d-4e6f-8a0c-1d2e3f4a5b6c";
export { EXAMPLE_ID };

/** SPEC §7.3 failure body: `{ status: 'failed', success: false, message }`. */
export const ZRestFailure = z
  .object({
    status: z.literal("failed"),
    success: z.literal(false),
    message: z.string(),
    reason: z
      .enum([SECOND_FACTOR_REQUIRED, REAUTH_REQUIRED, SECOND_FACTOR_ENROLMENT_REQUIRED])
      .optional()
      .meta({
        description:
          "Decision 038: present only on the failures a client must tell apart from others of their status: 401 " +
          "SECOND_FACTOR_REQUIRED (sign-in needs `otp`), 403 REAUTH_REQUIRED (confirm who you are again), 403 " +
          "SECOND_FACTOR_ENROLMENT_REQUIRED (an admin must add a second factor first).",
      }),
  })
  .meta({ examples: [{ status: "failed", success: false, message: "Only administrators may do this." }] });

/** `{ status: 'success', success: true, message }`, the answer of most changes. */
export const ZRestDone = z
  .object({ status: z.literal("success"), success: z.literal(true), message: z.string() })
  .meta({ examples: [{ status: "success", success: true, message: "Audio reassigned successfully!" }] });

/** The success fields to spread into an answer. */
export const DONE = { status: "success", success: true } as const;
export const ZDoneFields = { status: z.literal("success"), success: z.literal(true) };

/**
 * The responses of a route: its answer for 200 and the failure body for every 4xx and 5xx
 * (which of them a path gives is in its description).
 */
export function answers<T extends z.ZodType>(ok: T) {
  return { 200: ok, "4xx": ZRestFailure, "5xx": ZRestFailure };
}

/** A path id; its own service answers unknown ids (404) and malformed ones ('Unknown id.', 400). */
export const ZPathId = z.string().meta({ examples: [EXAMPLE_ID] });

/** `?page&limit` of SPEC §7.1 lists: positive whole numbers; left out, the list's defaults apply (page 1). */
function pageNumber(name: "page" | "limit") {
  return z
    .string()
    .regex(/^([1-9]\d*)?$/, `${name} must be a positive whole number.`)
    .transform((v) => (v === "" ? undefined : Number(v)))
    .optional();
}
export const ZPageQuery = z.object({ page: pageNumber("page"), limit: pageNumber("limit") });

/** `{ _id, username }` of a user, or null. */
export const ZRestUserRef = z.object({ _id: z.string(), username: z.string() }).nullable();

/** `{ _id, username }` from a procedure's `{ id, username }`. */
export function restUserRef(user: { id: string; username: string } | null): z.output<typeof ZRestUserRef> {
  return user ? { _id: user.id, username: user.username } : null;
}

/**
 * `duration_seconds` of an audio object: its length in seconds as the server's waveform job decoded
 * it, null until that job has run or when the file could not be decoded.
 */
export const ZRestDurationSeconds = z
  .number()
  .nonnegative()
  .nullable()
  .meta({
    description:
      "Length of the audio in seconds, as decoded on the server; null until the waveform job has decoded the " +
      "file, or when it could not be decoded.",
    examples: [245.3],
  });

/** SPEC §3 Pagination as the list paths answer it. */
export const ZPagination = z.object({ totalPages: z.number().int() });
