import { useId } from "react";
import "./date-range-field.css";

/** A range of days as typed: each "YYYY-MM-DD", or "" when that end is open. */
export interface DateRange {
  from: string;
  to: string;
}

/**
 * One From–To pair of native date inputs, the range every screen that filters by day uses: the
 * Export form's approval period (decision 019), the Logs filters and the Team Engagement Report's
 * custom period (decision 011). A fieldset named by its legend (visible, or read only by screen
 * readers where the screen shows the pair inline beside other filters), a label per input, and each
 * input's `min`/`max` tied to the other end so the browser's picker offers no To before From; the
 * screens keep their own check of the order, and the server its own. The hint and the error are
 * tied to both inputs with aria-describedby (WCAG 1.3.1, 3.3.1), the error as an alert with
 * aria-invalid on the inputs. The error is rendered after the fieldset, not in it: in a filter bar
 * (a wrapping flex row) it takes a row of its own below the bar's controls, which stay in line.
 */
export function DateRangeField({
  legend,
  legendHidden = false,
  fromLabel = "From",
  toLabel = "To",
  value,
  onChange,
  hint,
  error,
  className,
}: {
  legend: string;
  /** The legend only for screen readers, where the labels say enough on the screen. */
  legendHidden?: boolean;
  fromLabel?: string;
  toLabel?: string;
  value: DateRange;
  onChange: (range: DateRange) => void;
  hint?: string;
  error?: string | undefined;
  /** Classes for the fieldset, e.g. a bordered box of the form it sits in. */
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const days = [
    { end: "from", label: fromLabel, min: undefined, max: value.to || undefined },
    { end: "to", label: toLabel, min: value.from || undefined, max: undefined },
  ] as const;
  return (
    <>
      <fieldset className={["date-range", className].filter(Boolean).join(" ")}>
        <legend className={legendHidden ? "sr-only" : "label"}>{legend}</legend>
        {hint && (
          <p className="field-hint" id={hintId}>
            {hint}
          </p>
        )}
        <div className="date-range-days">
          {days.map((day) => (
            <div key={day.end} className="field">
              <label className="label" htmlFor={`${id}-${day.end}`}>
                {day.label}
              </label>
              <input
                id={`${id}-${day.end}`}
                className="input"
                type="date"
                value={value[day.end]}
                min={day.min}
                max={day.max}
                aria-describedby={describedBy}
                aria-invalid={error ? true : undefined}
                onChange={(e) => onChange({ ...value, [day.end]: e.target.value })}
              />
            </div>
          ))}
        </div>
      </fieldset>
      {error && (
        <p className="field-error date-range-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </>
  );
}
