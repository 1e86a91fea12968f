import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { LOGS_PAGE_SIZE, type LogQuery } from "#web/features/logs/lib/log-filters";

/**
 * One page of the Logs list (logs.list), newest first, 50 per page, with the
 * filters of `query` (not asked while they are unusable). The previous page stays on screen while
 * the next loads; a failure is logged as well as shown. Live events refetch it (features/live).
 */
export function useLogs(page: number, query: LogQuery) {
  const trpc = useTRPC();
  const result = useQuery({
    ...trpc.logs.list.queryOptions({ page, limit: LOGS_PAGE_SIZE, ...(query.ok ? query.input : {}) }),
    enabled: query.ok,
    placeholderData: keepPreviousData,
    meta: { errorMessage: "Failed to load log entries." },
  });
  return result;
}

/** The choices of the Logs filters (logs.filters): actions with labels, actors. */
export function useLogFilterChoices() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.logs.filters.queryOptions(), meta: { errorMessage: "Failed to load the log filters." } });
}
