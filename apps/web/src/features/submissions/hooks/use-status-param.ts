import { useCallback } from "react";
import { useSearchParams } from "react-router";
import type { SubmissionFilter } from "#web/lib/api-types";
import { filterFrom } from "#web/features/submissions/lib/submission-filters";

/**
 * The Submissions filter, kept in the ?status= search parameter (so Back and a reload keep it);
 * choosing another filter goes back to its first page. 'all' is the default and is not written.
 */
export function useStatusParam(): { status: SubmissionFilter; choose: (status: SubmissionFilter) => void } {
  const [params, setParams] = useSearchParams();
  const choose = useCallback((status: SubmissionFilter) => setParams(status === "all" ? {} : { status }), [setParams]);
  return { status: filterFrom(params.get("status")), choose };
}
