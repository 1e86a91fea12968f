import { SCORE_INSTRUMENT_KEYS, SCORE_INSTRUMENTS, type ScoreInstrument } from "@tafsiri/corpus";
import { newScoreRow, type FormErrors, type ScoreRow } from "../lib/participant-form";

/**
 * The side panel's cognitive scores (decision 024): one row per score with its instrument (the
 * keys of SCORE_INSTRUMENTS, MMSE first), the score within the instrument's range and the day it
 * was taken; 'Add score' appends a row and focuses it, each row's 'Remove' drops it.
 */
export function ScoreRows({
  idPrefix,
  rows,
  errors,
  disabled,
  onChange,
}: {
  idPrefix: string;
  rows: ScoreRow[];
  /** Errors keyed `score-<row key>`, plus `scores` for the whole list (a server message). */
  errors: FormErrors;
  disabled: boolean;
  onChange(rows: ScoreRow[]): void;
}) {
  const change = (key: string, patch: Partial<ScoreRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));

  function add() {
    const row = newScoreRow();
    onChange([...rows, row]);
    // Focus the new row's score once it is drawn.
    window.setTimeout(() => document.getElementById(`${idPrefix}-${row.key}-score`)?.focus(), 0);
  }

  return (
    <fieldset
      className="participant-fieldset"
      aria-describedby={errors.scores ? `${idPrefix}-scores-error` : undefined}
    >
      <legend className="label">Cognitive scores</legend>
      {rows.length === 0 ? <p className="field-hint">No scores recorded.</p> : null}
      <ul className="participant-score-list">
        {rows.map((row, index) => {
          const range = SCORE_INSTRUMENTS[row.instrument];
          const error = errors[`score-${row.key}`];
          const base = `${idPrefix}-${row.key}`;
          const invalid = error ? true : undefined;
          const describedBy = error ? `${base}-error` : undefined;
          return (
            <li key={row.key} className="participant-score-row">
              <div className="field">
                <label className="label" htmlFor={`${base}-instrument`}>
                  Instrument <span className="sr-only">of score {index + 1}</span>
                </label>
                <select
                  id={`${base}-instrument`}
                  className="select"
                  value={row.instrument}
                  disabled={disabled}
                  onChange={(e) => change(row.key, { instrument: e.target.value as ScoreInstrument })}
                >
                  {SCORE_INSTRUMENT_KEYS.map((key) => (
                    <option key={key} value={key}>
                      {SCORE_INSTRUMENTS[key].label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="label" htmlFor={`${base}-score`}>
                  Score <span className="sr-only">{index + 1}</span>
                  <span className="field-hint">
                    {" "}
                    ({range.min}–{range.max})
                  </span>
                </label>
                <input
                  id={`${base}-score`}
                  className="input"
                  type="number"
                  inputMode="decimal"
                  min={range.min}
                  max={range.max}
                  value={row.score}
                  disabled={disabled}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) => change(row.key, { score: e.target.value })}
                />
              </div>
              <div className="field">
                <label className="label" htmlFor={`${base}-date`}>
                  Taken on <span className="sr-only">(score {index + 1})</span>
                </label>
                <input
                  id={`${base}-date`}
                  className="input"
                  type="date"
                  value={row.takenOn}
                  disabled={disabled}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) => change(row.key, { takenOn: e.target.value })}
                />
              </div>
              <button
                type="button"
                className="btn btn-sm btn-ghost participant-score-remove"
                disabled={disabled}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
              >
                Remove <span className="sr-only">score {index + 1}</span>
              </button>
              {error ? (
                <p id={`${base}-error`} className="field-error participant-score-error">
                  {error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {errors.scores ? (
        <p id={`${idPrefix}-scores-error`} className="field-error">
          {errors.scores}
        </p>
      ) : null}
      <div>
        <button id={`${idPrefix}-scores`} type="button" className="btn btn-sm" disabled={disabled} onClick={add}>
          Add score
        </button>
      </div>
    </fieldset>
  );
}
