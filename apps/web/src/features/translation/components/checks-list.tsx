import { CHECK_LABELS, type CheckFinding, type TranslationSegment } from "@tafsiri/domain";

/** How many findings the list shows before 'Show all'. */
const SHOWN = 8;

/**
 * Decision 035: the checks of the whole translation, errors first, each with its segment and a
 * button that goes to it. Errors block Submit; warnings do not.
 */
export function ChecksList({
  findings,
  rows,
  onGoTo,
  showAll,
  onShowAll,
}: {
  findings: readonly CheckFinding[];
  rows: readonly TranslationSegment[];
  onGoTo(segmentId: string): void;
  showAll: boolean;
  onShowAll(): void;
}) {
  if (findings.length === 0) {
    return (
      <p className="checks-summary" role="status">
        <span aria-hidden="true">✓</span> No check finds anything.
      </p>
    );
  }
  const position = new Map(rows.map((r, i) => [r.id, i + 1]));
  const ordered = [...findings].sort(
    (a, b) =>
      (a.severity === "error" ? 0 : 1) - (b.severity === "error" ? 0 : 1) ||
      (position.get(a.segmentId) ?? 0) - (position.get(b.segmentId) ?? 0),
  );
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.length - errors;
  return (
    <section className="checks-list" aria-label="Checks">
      <p className="checks-summary" role="status">
        {errors > 0 ? `${errors} error${errors === 1 ? "" : "s"} (they block Submit)` : "No errors"}
        {warnings > 0 ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}.
      </p>
      <ul>
        {(showAll ? ordered : ordered.slice(0, SHOWN)).map((f, i) => (
          <li key={`${f.segmentId}-${f.check}-${i}`} data-severity={f.severity}>
            <button type="button" className="btn-link" onClick={() => onGoTo(f.segmentId)}>
              Segment {position.get(f.segmentId)}
            </button>{" "}
            <strong>
              {f.severity === "error" ? "Error" : "Warning"}, {CHECK_LABELS[f.check]}:
            </strong>{" "}
            {f.message}
          </li>
        ))}
      </ul>
      {!showAll && ordered.length > SHOWN && (
        <button type="button" className="btn btn-sm" onClick={onShowAll}>
          Show all {ordered.length}
        </button>
      )}
    </section>
  );
}
