import {
  findGlossaryTerms,
  REVIEW_REASON_MAX_LENGTH,
  wordDiff,
  CHECK_LABELS,
  type CheckFinding,
  type GlossaryTerm,
} from "@tafsiri/domain";
import type { MemoryMatch } from "#web/lib/api-types";
import { displayTime } from "#web/lib/dates";
import { htmlLang } from "#web/features/translation/lib/segment-labels";

/**
 * Decision 035: what the active row offers: its memory matches (score, origin, the words in which
 * their source differs from this one; Alt+1–3 insert them), its glossary terms (Alt+G inserts the
 * first translation not yet used) and its check findings.
 */
export function RowAssistant({
  source,
  matches,
  matchesLoading,
  glossary,
  findings,
  targetLanguage,
  onInsert,
  target,
  reviewedTarget,
  flagNote,
  onFlagNote,
  number,
}: {
  source: string;
  targetLanguage: string;
  target: string;
  /** The translation as the last review saw it, when it differs from `target`. */
  reviewedTarget: string | null;
  /** A reviewer's note on what to fix, while the row is marked (undefined: not marked). */
  flagNote: string | undefined;
  onFlagNote(note: string): void;
  number: number;
  matches: readonly MemoryMatch[];
  matchesLoading: boolean;
  glossary: readonly GlossaryTerm[];
  findings: readonly CheckFinding[];
  onInsert(text: string): void;
}) {
  const terms = findGlossaryTerms(source, glossary);
  return (
    <div className="row-assistant" aria-label="Suggestions for this segment" role="region">
      <section>
        <h3 className="assistant-title">Translation memory</h3>
        {matchesLoading ? (
          <p className="muted" role="status">
            Looking up the memory…
          </p>
        ) : matches.length === 0 ? (
          <p className="muted">No match in the memory.</p>
        ) : (
          <ol className="memory-matches">
            {matches.map((m, i) => (
              <li key={m.id} className="memory-match">
                <button
                  type="button"
                  className="btn btn-sm"
                  tabIndex={-1}
                  onClick={() => onInsert(m.target)}
                  aria-keyshortcuts={`Alt+${i + 1}`}
                >
                  Insert (Alt+{i + 1})
                </button>
                <span className="match-score" data-exact={m.score === 100 || undefined}>
                  {m.score}%
                </span>
                <span className="match-target" lang={htmlLang(targetLanguage)}>
                  {m.target}
                </span>
                {m.score < 100 && (
                  <span className="match-diff" aria-label="Differences from this source">
                    {m.diff.map((d, j) =>
                      d.change === "same" ? (
                        <span key={j}>{d.text}</span>
                      ) : d.change === "added" ? (
                        <ins key={j}>{d.text}</ins>
                      ) : (
                        <del key={j}>{d.text}</del>
                      ),
                    )}
                  </span>
                )}
                <span className="match-origin muted">
                  {m.origin === "imported" ? "Imported" : (m.audioFilename ?? "Deleted audio")}
                  {m.translator ? `, ${m.translator}` : ""}, {displayTime(m.createdAt).full}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
      {flagNote !== undefined && (
        <label className="stack flag-note">
          <span>What to fix in segment {number} (optional)</span>
          <input
            className="input"
            value={flagNote}
            maxLength={REVIEW_REASON_MAX_LENGTH}
            onChange={(e) => onFlagNote(e.target.value)}
          />
        </label>
      )}
      {reviewedTarget !== null && (
        <section>
          <h3 className="assistant-title">Since the last review</h3>
          <p className="match-diff">
            {wordDiff(reviewedTarget, target).map((d, j) =>
              d.change === "same" ? (
                <span key={j}>{d.text}</span>
              ) : d.change === "added" ? (
                <ins key={j}>{d.text}</ins>
              ) : (
                <del key={j}>{d.text}</del>
              ),
            )}
          </p>
        </section>
      )}
      {terms.length > 0 && (
        <section>
          <h3 className="assistant-title">Glossary</h3>
          <ul className="glossary-hints">
            {terms.map((t) => (
              <li key={t.start}>
                <strong>{t.sourceTerm}</strong> → {t.targetTerms.join(" or ")}
              </li>
            ))}
          </ul>
        </section>
      )}
      {findings.length > 0 && (
        <section>
          <h3 className="assistant-title">Checks</h3>
          <ul className="row-findings">
            {findings.map((f, i) => (
              <li key={i} data-severity={f.severity}>
                <strong>
                  {f.severity === "error" ? "Error" : "Warning"}, {CHECK_LABELS[f.check]}:
                </strong>{" "}
                {f.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
