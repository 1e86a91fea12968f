import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { DB } from "../schema";
import { offsetOf, type TotalQuery } from "./pagination";

/**
 * The list's rows, scoped, gated by `gate`, selecting what the page needs, in the list's order as
 * shown (first page first) or, `reversed`, from its far end.
 */
type Walk<TB extends keyof DB, O> = (reversed: boolean, gate: RawBuilder<SqlBool>) => SelectQueryBuilder<DB, TB, O>;

/**
 * SQL: the rows of page `page` (from 1) of `limit` rows of a list of `total` rows (an exact count
 * kept in list_counts, decision 016, read in the same statement), in no particular order. The page
 * is read from the nearer end of the list's order index: the first half of the pages in the list's
 * order with their OFFSET, the second half from the far end, skipping the rows after the page
 * (total − offset − limit of them), so the last page costs what page 1 does and no page walks more
 * than half the list. For lists that page anchors (decision 030) do not cover: a staff member's
 * submissions (their ids, for a deferred join, decision 010) and the unassigned audios (ordered by
 * filename). The branch not taken is gated by a one-time filter, so the statement keeps one generic
 * plan (decision 017); the near end's OFFSET is a sub-select, so a custom plan does not cost the
 * gated branch as a walk of `offset` rows (as in anchoredPageIds).
 */
export function pageFromNearerEnd<TB extends keyof DB, O>(q: {
  total: TotalQuery;
  walk: Walk<TB, O>;
  page: number;
  limit: number;
}): RawBuilder<O> {
  const offset = offsetOf(q.page, q.limit);
  // s: the page in ranks counted from the far end (start, size).
  const near = q
    .walk(false, sql<SqlBool>`${offset} <= (select s.start from s)`)
    .limit(q.limit)
    .offset(sql<number>`(select ${offset}::bigint)`);
  const far = q
    .walk(true, sql<SqlBool>`true`)
    .limit(sql<number>`s.size`)
    .offset(sql<number>`s.start`);
  return sql<O>`
    with s as (
      select greatest(0, n.total - ${offset} - ${q.limit}) as start,
             least(${q.limit}, greatest(0, n.total - ${offset})) as size
      from (select (${q.total})::bigint as total) n
    )
    select near.* from (${near}) near
    union all
    select far.* from s cross join lateral (${far}) far
    where ${offset} > s.start`;
}
