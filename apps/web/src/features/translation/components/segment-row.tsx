import { memo, useMemo } from "react";
import { findGlossaryTerms, type CheckFinding, type GlossaryTerm, type TranslationSegment } from "@tafsiri/domain";
import { SPEAKER_WORDS, spanText, STATE_LABELS } from "#web/features/translation/lib/segment-labels";
import { SegmentSource } from "./segment-source";

/** What a row reports to the grid. */
export interface RowEvents {
  onFocusRow(index: number): void;
  onTargetChange(index: number, text: string): void;
  onSourceChange(index: number, text: string): void;
  onPlay(index: number): void;
}

/**
 * Decision 035: one row of the segment grid: its number, span (a button that plays it), speaker,
 * state (a mark and a word), source (glossary terms marked) and translation, the row's check
 * findings and its review marks (what a rejection asked to fix, a change since the last review). `children` is the active row's assistant (memory matches, glossary, findings).
 */
export const SegmentRow = memo(function SegmentRow({
  row,
  index,
  total,
  active,
  editable,
  sourceEditable,
  glossary,
  findings,
  events,
  changed,
  toFix,
  flagged,
  children,
}: {
  row: TranslationSegment;
  index: number;
  total: number;
  active: boolean;
  editable: boolean;
  sourceEditable: boolean;
  glossary: readonly GlossaryTerm[];
  findings: readonly CheckFinding[];
  events: RowEvents;
  /** The translation differs from what the last review saw (decision 035). */
  changed: boolean;
  /** What the last rejection asked to fix ('' without a note), or null. */
  toFix: string | null;
  /** A reviewer marked it to fix in the review being made. */
  flagged: boolean;
  children?: React.ReactNode;
}) {
  const terms = useMemo(() => findGlossaryTerms(row.source, glossary), [row.source, glossary]);
  const span = spanText(row.startMs, row.endMs);
  const state = STATE_LABELS[row.state];
  const errors = findings.filter((f) => f.severity === "error").length;
  const number = index + 1;
  return (
    <div
      className="segment-row"
      role="group"
      aria-label={`Segment ${number} of ${total}`}
      data-state={row.state}
      data-active={active || undefined}
      data-segment-id={row.id}
      onFocus={() => events.onFocusRow(index)}
    >
      <div className="segment-meta">
        <span className="segment-number">{number}</span>
        {span ? (
          <button
            type="button"
            className="segment-time"
            tabIndex={-1}
            onClick={() => events.onPlay(index)}
            aria-label={`Play ${span}`}
          >
            {span}
          </button>
        ) : (
          <span className="segment-time muted">no time</span>
        )}
        <abbr className="speaker-label" data-speaker={row.speaker} title={SPEAKER_WORDS[row.speaker]}>
          {row.speaker}
        </abbr>
        <span className="segment-state" data-state={row.state}>
          <span aria-hidden="true">{state.mark}</span> {state.text}
        </span>
        {toFix !== null && (
          <span className="segment-to-fix">
            <span aria-hidden="true">⚑</span> To fix{toFix ? `: ${toFix}` : ""}
          </span>
        )}
        {flagged && (
          <span className="segment-flagged">
            <span aria-hidden="true">⚑</span> Marked to fix
          </span>
        )}
        {changed && <span className="segment-changed">Changed since the last review</span>}
        {findings.length > 0 && (
          <span className={errors > 0 ? "segment-issues has-errors" : "segment-issues"}>
            {errors > 0
              ? `${errors} error${errors === 1 ? "" : "s"}`
              : `${findings.length} warning${findings.length === 1 ? "" : "s"}`}
          </span>
        )}
      </div>
      <div className="segment-texts">
        {sourceEditable ? (
          <textarea
            className="segment-field"
            aria-label={`Source ${number}`}
            data-field="source"
            value={row.source}
            readOnly={!editable}
            rows={2}
            onChange={(event) => events.onSourceChange(index, event.target.value)}
          />
        ) : (
          <SegmentSource text={row.source} terms={terms} label={`Source ${number}`} />
        )}
        <textarea
          className="segment-field"
          aria-label={`Translation ${number}`}
          data-field="target"
          value={row.target}
          readOnly={!editable}
          rows={2}
          onChange={(event) => events.onTargetChange(index, event.target.value)}
        />
      </div>
      {children}
    </div>
  );
});
