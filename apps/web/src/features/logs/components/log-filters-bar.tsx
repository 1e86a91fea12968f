import { DateRangeField } from "#web/components/date-range-field";
import { SelectField } from "#web/components/field";
import type { LogFilterChoices } from "#web/lib/api-types";
import type { LogFilterValues } from "#web/features/logs/lib/log-filters";

/** The choices of a filter, led by the value chosen (e.g. from the URL) when it is not among them (yet). */
function withCurrent(choices: string[], current: string): string[] {
  return current && !choices.includes(current) ? [current, ...choices] : choices;
}

/**
 * The Logs filters: Actor and Action selects (the users who acted and the
 * actions in the log, from logs.filters), From and To days (both included), and Clear filters.
 * A value in the URL that is not among the choices (yet) is still offered, so the select shows it.
 */
export function LogFiltersBar({
  values,
  choices,
  error,
  onChange,
  onClear,
}: {
  values: LogFilterValues;
  choices: LogFilterChoices | undefined;
  error?: string | undefined;
  onChange: (patch: Partial<LogFilterValues>) => void;
  onClear: () => void;
}) {
  const actors = choices?.actors ?? [];
  const actions = choices?.actions ?? [];
  const any = Boolean(values.actorId || values.action || values.from || values.to);
  return (
    <form className="logs-filters" role="search" aria-label="Filter log entries" onSubmit={(e) => e.preventDefault()}>
      <SelectField
        id="logs-actor"
        label="Actor"
        value={values.actorId}
        emptyOption="All actors"
        options={withCurrent(
          actors.map((a) => a.id),
          values.actorId,
        )}
        optionLabel={(id) => actors.find((a) => a.id === id)?.username ?? "Unknown user"}
        onChange={(actorId) => onChange({ actorId })}
      />
      <SelectField
        id="logs-action"
        label="Action"
        value={values.action}
        emptyOption="All actions"
        options={withCurrent(
          actions.map((a) => a.value),
          values.action,
        )}
        optionLabel={(value) => actions.find((a) => a.value === value)?.label ?? value}
        onChange={(action) => onChange({ action })}
      />
      <DateRangeField
        legend="Date range"
        legendHidden
        value={{ from: values.from, to: values.to }}
        onChange={onChange}
        error={error}
      />
      <button type="button" className="btn" onClick={onClear} disabled={!any}>
        Clear filters
      </button>
    </form>
  );
}
