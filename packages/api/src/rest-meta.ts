/**
 * What a procedure says of its REST path (decision 033): the REST layer derives the route, its
 * OpenAPI entry and its answer from this and the procedure's own zod input and output, so a new
 * path costs one metadata line. SPEC §7.1 paths and the file and upload protocols are written by
 * hand instead (apps/server/src/routes/rest).
 */
export interface RestMeta {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Fastify's syntax: `/api/participants/:id`. */
  path: string;
  summary: string;
  /** The SPEC section or decision it implements, then every status it answers and why. */
  description: string;
  tags: string[];
  /** Each path parameter and the input field it fills: `{ id: "participantId" }`. */
  params?: Record<string, string>;
  /** REST spells the fields snake_case and `id` as `_id`, both ways (the paths of decision 024). */
  snakeCase?: boolean;
  /** Anyone may call it (no Bearer token); the procedure is public too. */
  public?: boolean;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 202;
  /**
   * A paged list: the procedure's `{ items, totalPages, ... }` answers `{ [key]: items, ...,
   * pagination: { totalPages } }` with the paging headers (SPEC §3 Pagination); `defaultLimit`
   * rows a page unless `limit` says otherwise.
   */
  list?: { key: string; defaultLimit: number };
  /**
   * A change: the answer is `{ status: 'success', success: true, ...output }`, the output carrying
   * the service's `message` (SPEC §7.3).
   */
  done?: boolean;
}

/** The metadata every procedure may carry. */
export interface ProcedureMeta {
  rest?: RestMeta;
  /**
   * Decision 038: an admin who must still enrol a second factor may call it (enrolment, their own
   * account, sign-out); every other procedure refuses that session.
   */
  beforeEnrolment?: boolean;
}
