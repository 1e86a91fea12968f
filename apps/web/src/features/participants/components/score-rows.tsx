import { SCORE_INSTRUMENT_KEYS, SCORE_INSTRUMENTS } from "@tafsiri/domain";
import { SelectField, TextField } from "#web/components/field";
import { newScoreRow, type FormErrors, type ScoreRow } from "#web/features/participants/lib/participant-form";

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
          // One error per row, under it, shared by its score and its day.
          const errorId = error ? `${base}-error` : undefined;
          return (
            <li key={row.key} className="participant-score-row">
              <SelectField
                id={`${base}-instrument`}
                label={
                  <>
                    Instrument <span className="sr-only">of score {index + 1}</span>
                  </>
                }
                value={row.instrument}
                options={SCORE_INSTRUMENT_KEYS}
                optionLabel={(key) => SCORE_INSTRUMENTS[key].label}
                disabled={disabled}
                onChange={(instrument) => change(row.key, { instrument })}
              />
              <TextField
                id={`${base}-score`}
                label={
                  <>
                    Score <span className="sr-only">{index + 1}</span>
                    <span className="field-hint">
                      {" "}
                      ({range.min}–{range.max})
                    </span>
                  </>
                }
                invalid={Boolean(error)}
                describedBy={errorId}
                type="number"
                inputMode="decimal"
                min={range.min}
                max={range.max}
                value={row.score}
                disabled={disabled}
                onChange={(score) => change(row.key, { score })}
              />
              <TextField
                id={`${base}-date`}
                label={
                  <>
                    Taken on <span className="sr-only">(score {index + 1})</span>
                  </>
                }
                invalid={Boolean(error)}
                describedBy={errorId}
                type="date"
                value={row.takenOn}
                disabled={disabled}
                onChange={(takenOn) => change(row.key, { takenOn })}
              />
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
