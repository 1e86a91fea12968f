import { useEffect } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** Exports shown per page of the Export page's list. */
const EXPORTS_PAGE_SIZE = 10;
/** The longest a timer may wait in browsers (about 24.8 days); a later expiry is not waited for. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One page of the dataset exports (exports.list), newest first, each with its
 * state, progress and download link. 'export.changed' events refetch it (features/live), so a
 * running export's progress moves without a reload; after a reload it is read again from here.
 * The previous page stays on screen while the next loads; a failure is logged as well as shown.
 * When a shown download link runs out (24 hours after its export finished) the page is read again,
 * so the export turns 'expired' on an open page too.
 */
export function useExports(page: number) {
  const trpc = useTRPC();
  const result = useQuery({
    ...trpc.exports.list.queryOptions({ page, limit: EXPORTS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    meta: { errorMessage: "Failed to load the exports." },
  });

  const { data, refetch } = result;
  useEffect(() => {
    const ends = (data?.items ?? [])
      .filter((item) => item.state === "ready" && item.expiresAt)
      .map((item) => Date.parse(item.expiresAt ?? ""));
    if (ends.length === 0) return;
    const wait = Math.min(...ends) - Date.now() + 1_000;
    if (wait > MAX_TIMER_MS) return;
    // At least 5 s apart, should this clock run ahead of the server's.
    const timer = window.setTimeout(() => void refetch(), Math.max(wait, 5_000));
    return () => window.clearTimeout(timer);
  }, [data, refetch]);
  return result;
}
