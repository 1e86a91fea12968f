import { sql, type SelectQueryBuilder } from "kysely";
import type { Executor } from "../connection";
import type { DB } from "../schema";

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

/** A row of countedPage: the page's columns (null when the page is empty) and the count. */
export type PageRow<R> = { [K in keyof R]: R[K] | null } & { total: string | number | bigint };

/**
 * Page `q.page` (from 1) of `q.limit` rows of `rows` (already ordered), with the row count of
 * `counted`, in one query ("count left join lateral page"), turned into a Page by toPage.
 * `order` re-applies the ORDER BY of `rows` to the joined rows: column names and directions.
 * With `paged`, `rows` already hold just the page (a deferred join: the page's ids picked first,
 * by pageIdsOf, then only those rows joined), so no LIMIT/OFFSET is added.
 */
export async function countedPage<CT extends keyof DB, PT extends keyof DB, R extends Record<string, unknown>, T>(
  db: Executor,
  q: {
    counted: SelectQueryBuilder<DB, CT, object>;
    rows: SelectQueryBuilder<DB, PT, R>;
    order: Array<[column: keyof R & string, direction: "asc" | "desc"]>;
    page: number;
    limit: number;
    paged?: boolean;
    pick: (row: PageRow<R>) => T | null;
  },
): Promise<Page<T>> {
  let query = db
    .selectFrom(q.counted.select((s) => s.fn.countAll().as("total")).as("c"))
    .leftJoinLateral(
      () => (q.paged ? q.rows : q.rows.limit(q.limit).offset(offsetOf(q.page, q.limit))).as("p"),
      (join) => join.onTrue(),
    )
    .selectAll("p")
    .select("c.total");
  for (const [column, direction] of q.order) query = query.orderBy(sql.ref(`p.${column}`), direction);
  // Kysely cannot resolve the lateral join's row type for a generic R: it is PageRow<R>.
  const rows = (await query.execute()) as Array<PageRow<R>>;
  return toPage(rows, q.limit, q.pick);
}
