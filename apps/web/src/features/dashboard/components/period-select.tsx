import type { Period, PeriodKind } from "../lib/period";

const OPTIONS: [PeriodKind, string][] = [
  ["all", "All time"],
  ["thisMonth", "This month"],
  ["lastMonth", "Last month"],
  ["custom", "Custom range"],
];

/**
 * The Team Engagement Report's period (issue 9): All time, This month, Last month or a Custom
 * range with From and To date fields (both days included). `error` explains an unusable range.
 */
export function PeriodSelect({
  value,
  onChange,
  error,
}: {
  value: Period;
  onChange: (period: Period) => void;
  error?: string;
}) {
  return (
    <div className="dash-period">
      <div className="field">
        <label className="label" htmlFor="dash-period">
          Period
        </label>
        <select
          id="dash-period"
          className="select"
          value={value.kind}
          onChange={(e) => onChange({ ...value, kind: e.target.value as PeriodKind })}
        >
          {OPTIONS.map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {value.kind === "custom" && (
        <>
          <div className="field">
            <label className="label" htmlFor="dash-period-from">
              From
            </label>
            <input
              id="dash-period-from"
              className="input"
              type="date"
              value={value.from}
              max={value.to || undefined}
              aria-describedby={error ? "dash-period-error" : undefined}
              onChange={(e) => onChange({ ...value, from: e.target.value })}
            />
          </div>
          <div className="field">
            <label className="label" htmlFor="dash-period-to">
              To
            </label>
            <input
              id="dash-period-to"
              className="input"
              type="date"
              value={value.to}
              min={value.from || undefined}
              aria-describedby={error ? "dash-period-error" : undefined}
              onChange={(e) => onChange({ ...value, to: e.target.value })}
            />
          </div>
        </>
      )}
      {error && (
        <p className="field-error dash-period-error" id="dash-period-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
