import dayjs from "dayjs";

/** The Logs page's page size. */
export const LOGS_PAGE_SIZE = 50;

/** The Logs filters as kept in the URL: actor id, action, From and To days (YYYY-MM-DD, both included); "" when unset. */
export interface LogFilterValues {
  actorId: string;
  action: string;
  from: string;
  to: string;
}

/** The URL search parameter of each filter. */
export const FILTER_PARAMS: Record<keyof LogFilterValues, string> = {
  actorId: "actor",
  action: "action",
  from: "from",
  to: "to",
};

/** What the filters ask of `logs.list`, or why they cannot be asked. */
export type LogQuery =
  { ok: true; input: { actorId?: string; action?: string; from?: string; to?: string } } | { ok: false; error: string };

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function isDate(value: string): boolean {
  return DATE_PATTERN.test(value) && dayjs(value).isValid() && dayjs(value).format("YYYY-MM-DD") === value;
}

/**
 * The `logs.list` filters for `values`: [from, to) with To sent as the next day (so the To day is
 * included); an unreadable date or From after To gives an error to show instead.
 */
export function logQuery(values: LogFilterValues): LogQuery {
  const { from, to } = values;
  if ((from && !isDate(from)) || (to && !isDate(to))) return { ok: false, error: "Enter dates as YYYY-MM-DD." };
  if (from && to && from > to) return { ok: false, error: "From must be on or before To." };
  const input: { actorId?: string; action?: string; from?: string; to?: string } = {};
  if (values.actorId) input.actorId = values.actorId;
  if (values.action) input.action = values.action;
  if (from) input.from = from;
  if (to) input.to = dayjs(to).add(1, "day").format("YYYY-MM-DD");
  return { ok: true, input };
}
