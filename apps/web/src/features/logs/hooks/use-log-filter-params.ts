import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import { FILTER_PARAMS, type LogFilterValues } from "#web/features/logs/lib/log-filters";

/**
 * The Logs filters kept in the URL (?actor=, ?action=, ?from=, ?to=), so Back, a reload and a
 * shared link keep them; `change` sets some (an empty value removes the parameter) and goes back
 * to the first page; `clear` removes them all.
 */
export function useLogFilterParams(): {
  values: LogFilterValues;
  change: (patch: Partial<LogFilterValues>) => void;
  clear: () => void;
} {
  const [params, setParams] = useSearchParams();
  const actorId = params.get(FILTER_PARAMS.actorId) ?? "";
  const action = params.get(FILTER_PARAMS.action) ?? "";
  const from = params.get(FILTER_PARAMS.from) ?? "";
  const to = params.get(FILTER_PARAMS.to) ?? "";
  const values = useMemo(() => ({ actorId, action, from, to }), [actorId, action, from, to]);
  const change = useCallback(
    (patch: Partial<LogFilterValues>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.delete("page");
        for (const [key, value] of Object.entries(patch) as Array<[keyof LogFilterValues, string]>) {
          if (value) next.set(FILTER_PARAMS[key], value);
          else next.delete(FILTER_PARAMS[key]);
        }
        return next;
      }),
    [setParams],
  );
  const clear = useCallback(() => setParams({}), [setParams]);
  return { values, change, clear };
}
