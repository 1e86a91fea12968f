import type { ResumableUploadState } from "#web/hooks/use-resumable-upload";

/** A size in bytes for people: 900 B, 12.3 KB, 40.0 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Seconds left for people: 'about 25 s left', 'about 3 min left'. */
function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

/**
 * The progress of a resumable upload (decision 020): a progress bar, bytes sent of the total,
 * the rate and the time left (or 'Paused'), and Pause / Resume. Renders nothing when no upload runs.
 */
export function UploadProgress({ upload, label }: { upload: ResumableUploadState; label: string }) {
  const { progress, paused } = upload;
  if (!progress) return null;
  const { bytesSent, bytesTotal, bytesPerSecond, secondsLeft } = progress;
  const rate = bytesPerSecond > 0 ? `${formatBytes(bytesPerSecond)}/s` : "";
  const left = secondsLeft !== null ? formatTimeLeft(secondsLeft) : "";
  const status = paused ? "Paused" : [rate, left].filter(Boolean).join(" · ");
  return (
    <div className="upload-progress row" data-testid="upload-progress">
      <progress max={bytesTotal || 1} value={bytesSent} aria-label={label} />
      <span className="muted" data-upload-bytes>
        {formatBytes(bytesSent)} of {formatBytes(bytesTotal)}
        {status && ` · ${status}`}
      </span>
      {paused ? (
        <button type="button" className="btn btn-ghost btn-sm" onClick={upload.resume}>
          Resume
        </button>
      ) : (
        <button type="button" className="btn btn-ghost btn-sm" onClick={upload.pause}>
          Pause
        </button>
      )}
    </div>
  );
}
