import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { SubmissionFilter } from "#web/lib/api-types";
import { useTRPC } from "#web/lib/trpc";

/** SPEC §9: submissions page size. */
const SUBMISSIONS_PAGE_SIZE = 20;

/**
 * One page of the Submissions list (submissions.list, SPEC §2.7): admins get every submission,
 * staff their own, newest change first, with the count of each filter. The previous page stays
 * on screen while the next loads; a failure is logged as well as shown. Live events refetch it
 * (features/live).
 */
export function useSubmissions(page: number, status: SubmissionFilter) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.submissions.list.queryOptions({ page, limit: SUBMISSIONS_PAGE_SIZE, status }),
    placeholderData: keepPreviousData,
    meta: { errorMessage: "Failed to load submissions." },
  });
  return query;
}
