import type { SubmissionFilter } from "#web/lib/api-types";

/** The Submissions list's filters in the order shown, with their labels (beyond SPEC §2.7). */
export const SUBMISSION_FILTERS: ReadonlyArray<{ value: SubmissionFilter; label: string }> = [
  { value: "needsReview", label: "Needs review" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
  { value: "all", label: "All" },
];

/** The filter named by the ?status= parameter; 'all' when absent or unknown. */
export function filterFrom(value: string | null): SubmissionFilter {
  return SUBMISSION_FILTERS.find((f) => f.value === value)?.value ?? "all";
}
