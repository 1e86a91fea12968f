import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { Executor } from "../connection";
import { withGenericPlan } from "../generic-plans";
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
function toPage<R extends { total: string | number | bigint }, T>(
  rows: R[],
  limit: number,
  pick: (row: R) => T | null,
): Page<T> {
  const total = Number(rows[0]?.total ?? 0);
  const items = rows.map(pick).filter((item): item is T => item !== null);
  return { items, totalPages: Math.ceil(total / limit) };
}

/**
 * SQL: `column` is one of the ids `pageIds` (a page's ids, picked first from an index), written
 * `= any(array(…))` so the page's ids are read once and the rows fetched by primary key (an `in
 * (subquery)` may become a hash semi-join that reads the whole table).
 */
export function isOneOf(column: string, pageIds: Expression<{ id: string }>): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = any(array(${pageIds}))`;
}

/** A row of countedPage: the page's columns (null when the page is empty) and the count. */
export type PageRow<R> = { [K in keyof R]: R[K] | null } & { total: string | number | bigint };

/** A one-row query answering a count as `total`: countRows of a query, or countOfKey of a kept count. */
export type TotalQuery = SelectQueryBuilder<DB, keyof DB, { total: string | number | bigint }>;

/** The number of rows of `rows` (a filtered selectFrom), as a one-row `total` query for countedPage. */
export function countRows<T extends keyof DB>(rows: SelectQueryBuilder<DB, T, object>): TotalQuery {
  return rows.select((s) => s.fn.countAll<string>().as("total"));
}

/**
 * Page `q.page` (from 1) of `q.limit` rows of `rows` (already ordered), with the count `total`
 * (countRows, or a count kept exactly in list_counts: countOfKey), in one query ("count left join
 * lateral page"), turned into a Page by toPage. `order` re-applies the ORDER BY of `rows` to the
 * joined rows: column names and directions. With `paged`, `rows` already hold just the page (a
 * deferred join: the page's ids picked first, then only those rows joined), so no LIMIT/OFFSET is
 * added. Marked withGenericPlan: each page's plan walks the same index for every page number and
 * filter value, so PostgreSQL plans it once per connection.
 */
export async function countedPage<PT extends keyof DB, R extends Record<string, unknown>, T>(
  db: Executor,
  q: {
    total: TotalQuery;
    rows: SelectQueryBuilder<DB, PT, R>;
    order: Array<[column: keyof R & string, direction: "asc" | "desc"]>;
    page: number;
    limit: number;
    paged?: boolean;
    pick: (row: PageRow<R>) => T | null;
  },
): Promise<Page<T>> {
  let query = db
    .selectFrom(q.total.as("c"))
    .leftJoinLateral(
      () => (q.paged ? q.rows : q.rows.limit(q.limit).offset(offsetOf(q.page, q.limit))).as("p"),
      (join) => join.onTrue(),
    )
    .selectAll("p")
    .select("c.total");
  for (const [column, direction] of q.order) query = query.orderBy(sql.ref(`p.${column}`), direction);
  // Kysely cannot resolve the lateral join's row type for a generic R: it is PageRow<R>.
  const rows = (await withGenericPlan(query).execute()) as Array<PageRow<R>>;
  return toPage(rows, q.limit, q.pick);
}
