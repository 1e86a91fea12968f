import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** SPEC §9: recommended recordings page size. */
const RECOMMENDATIONS_PAGE_SIZE = 10;

/**
 * One page of the recommended recordings (recommendations.list, SPEC §2.9): staff get those
 * recommended to them, admins all, newest first. The previous page stays on screen while the
 * next loads; a failure is logged as well as shown. Live events refetch it (features/live).
 */
export function useRecommendedRecordings(page: number) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.recommendations.list.queryOptions({ page, limit: RECOMMENDATIONS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    meta: { errorMessage: "Failed to load recommendation." },
  });
  return query;
}
