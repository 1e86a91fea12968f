import { TranscriptChanges, VersionHistory } from "#web/components/transcript-changes";
import { useTranscriptHistory } from "#web/hooks/use-transcript-history";

/**
 * Decision 025, the review workbench's transcript: the current transcript of `audioId`, read-only,
 * for an admin. When the transcript was rejected (or approved, then reopened) and saved again, it
 * shows by default the word-level changes since the version last reviewed, titled with who
 * reviewed it and when, with 'Show changes' / 'Show plain text'; below, the 'Version history'
 * disclosure (each version, who saved it, when and how it was reviewed). Follows live events
 * (useTranscriptHistory). Loading, failure (with Retry) and 'No transcript submitted yet.' are
 * said in words.
 */
export function ReviewedTranscript({ audioId }: { audioId: string }) {
  const history = useTranscriptHistory(audioId);
  if (history.isPending) {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading transcript…
      </p>
    );
  }
  if (history.isError) {
    return (
      <div className="stack" role="alert">
        <p className="field-error">Failed to load transcript.</p>
        <div>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void history.refetch()}
            disabled={history.isFetching}
          >
            Retry
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="stack reviewed-transcript">
      {history.data.current ? (
        <TranscriptChanges history={history.data} />
      ) : (
        <p className="muted">No transcript submitted yet.</p>
      )}
      <VersionHistory history={history.data} />
    </div>
  );
}
