import type { LogFilterChoices } from "../../../lib/api-types";
import type { LogFilterValues } from "../lib/log-filters";

/**
 * The Logs filters (issue 9 Build 5): Actor and Action selects (the users who acted and the
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
  const describedBy = error ? "logs-filter-error" : undefined;
  const any = Boolean(values.actorId || values.action || values.from || values.to);
  return (
    <form className="logs-filters" role="search" aria-label="Filter log entries" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label className="label" htmlFor="logs-actor">
          Actor
        </label>
        <select
          id="logs-actor"
          className="select"
          value={values.actorId}
          onChange={(e) => onChange({ actorId: e.target.value })}
        >
          <option value="">All actors</option>
          {values.actorId && !actors.some((a) => a.id === values.actorId) && (
            <option value={values.actorId}>Unknown user</option>
          )}
          {actors.map((actor) => (
            <option key={actor.id} value={actor.id}>
              {actor.username}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="label" htmlFor="logs-action">
          Action
        </label>
        <select
          id="logs-action"
          className="select"
          value={values.action}
          onChange={(e) => onChange({ action: e.target.value })}
        >
          <option value="">All actions</option>
          {values.action && !actions.some((a) => a.value === values.action) && (
            <option value={values.action}>{values.action}</option>
          )}
          {actions.map((action) => (
            <option key={action.value} value={action.value}>
              {action.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="label" htmlFor="logs-from">
          From
        </label>
        <input
          id="logs-from"
          className="input"
          type="date"
          value={values.from}
          max={values.to || undefined}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange({ from: e.target.value })}
        />
      </div>
      <div className="field">
        <label className="label" htmlFor="logs-to">
          To
        </label>
        <input
          id="logs-to"
          className="input"
          type="date"
          value={values.to}
          min={values.from || undefined}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange({ to: e.target.value })}
        />
      </div>
      <button type="button" className="btn" onClick={onClear} disabled={!any}>
        Clear filters
      </button>
      {error && (
        <p className="field-error logs-filter-error" id="logs-filter-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
