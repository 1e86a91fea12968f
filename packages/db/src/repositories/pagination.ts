/** A page of rows and the number of pages (SPEC §3 Pagination: totalPages). */
export interface Page<T> {
  items: T[];
  totalPages: number;
}

/** Page n (from 1) of `limit` rows: the SQL offset. */
export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}

/**
 * Turns the rows of a "count left join lateral page" query into a Page: every row carries the
 * total; a row whose page columns are null (no match on this page) is dropped.
 */
export function toPage<R extends { total: string | number | bigint }, T>(
  rows: R[],
  limit: number,
  pick: (row: R) => T | null,
): Page<T> {
  const total = Number(rows[0]?.total ?? 0);
  const items = rows.map(pick).filter((item): item is T => item !== null);
  return { items, totalPages: Math.ceil(total / limit) };
}
