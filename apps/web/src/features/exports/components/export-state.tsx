import type { ExportItem } from "#web/lib/api-types";
import { displayTime, shortTime } from "#web/lib/dates";
import { audiosInWords, progressInWords, sizeInWords } from "#web/features/exports/lib/export-words";

/** The state's word and badge: not told by colour alone. */
const STATE_BADGES: Record<ExportItem["state"], { word: string; className: string }> = {
  running: { word: "Running", className: "badge badge-warning" },
  ready: { word: "Ready", className: "badge badge-success" },
  failed: { word: "Failed", className: "badge badge-danger" },
  expired: { word: "Expired", className: "badge" },
  superseded: { word: "Superseded", className: "badge badge-danger" },
};

/**
 * Where an export is, in words: running, a progress bar (a `<progress>` named
 * 'Export progress') and '340 of 1,000 audios' ('Counting the audios…' before the total is known);
 * ready, a 'Download' link to the zip with its size, until when the link works and whether files
 * or the whole zip were reused from the previous export; failed, the reason; expired, 'Link
 * expired — start it again'; superseded (decision 024), 'Superseded — a participant withdrew
 * consent' and no link. The state's word is a status region, so a change of state is
 * announced to screen reader users.
 */
export function ExportState({ item }: { item: ExportItem }) {
  const { state } = item;
  const badge = STATE_BADGES[state];
  return (
    <div className="export-state">
      {/* A status region: the word changes only when the state does, so moving from running to
          ready or failed is announced (WCAG 4.1.3), and the progress is not read out every time. */}
      <span className={badge.className} role="status">
        <span className="sr-only">Export </span>
        {badge.word}
      </span>
      {state === "running" && <Progress done={item.done} total={item.total} />}
      {state === "ready" && item.downloadUrl && <Ready item={item} downloadUrl={item.downloadUrl} />}
      {state === "failed" && <p className="export-state-text">{item.error ?? "The export failed. Start it again."}</p>}
      {state === "expired" && <p className="export-state-text muted">Link expired — start it again.</p>}
      {state === "superseded" && (
        <p className="export-state-text">
          Superseded — a participant withdrew consent. Its link no longer works; start a new export.
        </p>
      )}
    </div>
  );
}

/** A running export's progress bar and its words. */
function Progress({ done, total }: { done: number; total: number }) {
  if (total === 0) {
    return (
      <div className="export-progress">
        <progress className="export-progress-bar" aria-label="Export progress" />
        <span className="export-state-text">Counting the audios…</span>
      </div>
    );
  }
  return (
    <div className="export-progress">
      <progress className="export-progress-bar" aria-label="Export progress" value={done} max={total} />
      <span className="export-state-text">{progressInWords(done, total)}</span>
    </div>
  );
}

/** A ready export: the download link, the zip's size, the link's end and what was reused. */
function Ready({ item, downloadUrl }: { item: ExportItem; downloadUrl: string }) {
  return (
    <div className="export-ready">
      <p className="export-download">
        <a className="btn btn-primary btn-sm" href={downloadUrl} download>
          Download
        </a>
        <span className="export-state-text">
          {audiosInWords(item.total)}
          {item.sizeBytes !== null && <>, zip of {sizeInWords(item.sizeBytes)}</>}
        </span>
      </p>
      {item.expiresAt && (
        <p className="export-state-text muted">
          Link valid until{" "}
          <time dateTime={item.expiresAt} title={displayTime(item.expiresAt).full}>
            {shortTime(item.expiresAt)}
          </time>
        </p>
      )}
      {item.reusedArchive ? (
        <p className="export-state-text muted">
          Same as the previous export: nothing had changed, so its zip is offered again.
        </p>
      ) : (
        item.reusedFiles > 0 && (
          <p className="export-state-text muted">
            Reused unchanged files: {item.reusedFiles} {item.reusedFiles === 1 ? "file was" : "files were"} taken from
            the previous export without reading them again.
          </p>
        )
      )}
    </div>
  );
}
