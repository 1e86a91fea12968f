/**
 * The neutral message of a failed statistics query (SPEC §8: the failure itself is only logged
 * to the console), with a Retry button calling `onRetry`.
 */
export function StatsProblem({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="dash-problem" role="status">
      <p>Statistics could not be loaded.</p>
      <button type="button" className="btn btn-sm" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/** The loading line of a statistics section, announced politely: `label` says what is loading. */
export function StatsLoading({ label }: { label: string }) {
  return (
    <p className="dash-loading muted" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}
