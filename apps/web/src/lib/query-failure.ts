import { TRPCClientError } from "@trpc/client";

/**
 * True when `error` is the server refusing the call (a 4xx: the item is gone or no longer the
 * user's). A screen that already shows an answer replaces it only for such a refusal: a failed
 * background refetch otherwise (a 5xx or a lost answer, e.g. the refetch of everything live when
 * the WebSocket starts, decision 004) keeps the last answer on screen.
 */
export function isRefusal(error: unknown): boolean {
  const status = error instanceof TRPCClientError ? error.data?.httpStatus : undefined;
  return typeof status === "number" && status >= 400 && status < 500;
}
