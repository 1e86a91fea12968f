import { useCallback, useEffect } from "react";
import { useSearchParams } from "react-router";

/** The ?page= search parameter as a page number (1 when absent or invalid; SPEC §9 default). */
function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get("page"));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** `params` showing `page`: without ?page= for the first page; other parameters (e.g. a filter) are kept. */
function withPage(params: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(params);
  if (page === 1) next.delete("page");
  else next.set("page", String(page));
  return next;
}

/**
 * The current page of a paginated list, kept in the ?page= search parameter (so Back and a reload
 * keep it), and `goTo` to move to another page. Follow the list's query with useLastPageFallback.
 */
export function usePageParam(): { page: number; goTo: (page: number) => void } {
  const [params, setParams] = useSearchParams();
  const goTo = useCallback((next: number) => setParams((params) => withPage(params, next)), [setParams]);
  return { page: pageFrom(params), goTo };
}

/**
 * Once the list's `totalPages` is known (undefined before), a `page` past the end (e.g. after
 * items were removed) falls back to the last page, replacing the history entry.
 */
export function useLastPageFallback(page: number, totalPages: number | undefined): void {
  const [, setParams] = useSearchParams();
  useEffect(() => {
    if (totalPages !== undefined && totalPages > 0 && page > totalPages)
      setParams((params) => withPage(params, totalPages), { replace: true });
  }, [page, setParams, totalPages]);
}
