import { DateRangeField } from "#web/components/date-range-field";
import type { Period, PeriodKind } from "#web/features/dashboard/lib/period";

const OPTIONS: [PeriodKind, string][] = [
  ["all", "All time"],
  ["thisMonth", "This month"],
  ["lastMonth", "Last month"],
  ["custom", "Custom range"],
];

/**
 * The Team Engagement Report's period (decision 011): All time, This month, Last month or a Custom
 * range with From and To date fields (both days included). `error` explains an unusable custom range.
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
        <DateRangeField
          legend="Custom range"
          legendHidden
          value={{ from: value.from, to: value.to }}
          onChange={(range) => onChange({ ...value, ...range })}
          error={error}
        />
      )}
    </div>
  );
}
