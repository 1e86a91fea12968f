import type { SubmissionCounts, SubmissionFilter } from "#web/lib/api-types";
import { SUBMISSION_FILTERS } from "#web/features/submissions/lib/submission-filters";

/**
 * The Submissions filter (beyond SPEC §2.7): 'Needs review' (a transcript or a recording Pending),
 * Approved, Rejected and All, each with its count (blank until known); the chosen one is pressed.
 */
export function StatusFilter({
  value,
  counts,
  onChange,
}: {
  value: SubmissionFilter;
  counts: SubmissionCounts | undefined;
  onChange: (status: SubmissionFilter) => void;
}) {
  return (
    <div className="toggle submission-filter" role="group" aria-label="Show submissions">
      {SUBMISSION_FILTERS.map((filter) => (
        <button
          key={filter.value}
          type="button"
          aria-pressed={value === filter.value}
          onClick={() => onChange(filter.value)}
        >
          {filter.label}
          {counts && <span className="filter-count"> ({counts[filter.value].toLocaleString()})</span>}
        </button>
      ))}
    </div>
  );
}
