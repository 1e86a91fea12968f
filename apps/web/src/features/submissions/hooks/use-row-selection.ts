import { useCallback, useMemo, useRef, useState } from "react";

/** Whether every, some or none of the rows on the page are selected (the 'Select all' checkbox's three states). */
type PageSelection = "all" | "some" | "none";

export interface RowSelection<R extends { id: string }> {
  /** The selected rows of the page, in the page's order. */
  selectedRows: R[];
  isSelected(id: string): boolean;
  /**
   * Selects or clears the row `id` (`checked`); with `range` (Shift held) every row between the last
   * row toggled and this one gets the same state, as in a file manager.
   */
  toggle(id: string, checked: boolean, range: boolean): void;
  /** Selects every row of the page, or clears the selection. */
  setAll(checked: boolean): void;
  /** Clears the rows `ids` from the selection. */
  clear(ids: Iterable<string>): void;
  state: PageSelection;
}

/**
 * Decision 025, bulk review: which rows of the Submissions page an admin has ticked. The selection
 * belongs to one page of one filter: it starts empty whenever `scope` changes (another page or
 * filter), and only rows on the page count as selected (one that a live refetch took off the page is
 * not), so nothing unseen is ever reviewed.
 */
export function useRowSelection<R extends { id: string }>(rows: readonly R[], scope: string): RowSelection<R> {
  const [picked, setPicked] = useState<{ scope: string; ids: ReadonlySet<string> }>({ scope, ids: new Set() });
  const anchor = useRef<string | null>(null);
  const ids = picked.scope === scope ? picked.ids : EMPTY;

  const selectedRows = useMemo(() => rows.filter((row) => ids.has(row.id)), [rows, ids]);
  const state: PageSelection =
    selectedRows.length === 0 ? "none" : selectedRows.length === rows.length ? "all" : "some";

  const change = useCallback(
    (update: (next: Set<string>) => void) =>
      setPicked((current) => {
        const next = new Set(current.scope === scope ? current.ids : EMPTY);
        update(next);
        return { scope, ids: next };
      }),
    [scope],
  );

  const toggle = useCallback(
    (id: string, checked: boolean, range: boolean) => {
      const from = range && anchor.current ? rows.findIndex((row) => row.id === anchor.current) : -1;
      const to = rows.findIndex((row) => row.id === id);
      const span = from >= 0 && to >= 0 ? rows.slice(Math.min(from, to), Math.max(from, to) + 1) : [];
      anchor.current = id;
      change((next) => {
        for (const row of span.length > 0 ? span : [{ id }]) {
          if (checked) next.add(row.id);
          else next.delete(row.id);
        }
      });
    },
    [rows, change],
  );

  const setAll = useCallback(
    (checked: boolean) => {
      anchor.current = null;
      change((next) => {
        next.clear();
        if (checked) for (const row of rows) next.add(row.id);
      });
    },
    [rows, change],
  );

  const clear = useCallback(
    (done: Iterable<string>) =>
      change((next) => {
        for (const id of done) next.delete(id);
      }),
    [change],
  );

  return { selectedRows, isSelected: (id) => ids.has(id), toggle, setAll, clear, state };
}

const EMPTY: ReadonlySet<string> = new Set();
