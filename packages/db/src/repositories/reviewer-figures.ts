import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../connection";

/**
 * The reviewer figures of the Dashboard (decision 025): how many reviews each admin made per day,
 * and how long the work they judged had waited for them. Both read `reviews` (one row per approve
 * or reject) for a period of review times, through index reviews_reviewed_at_idx
 * (reviewed_at, reviewer_id, saved_at); each is one SQL aggregate. A review whose reviewer's
 * account is gone (reviewer_id set null) counts under the reviewer id null.
 */

/** A period of review times [from, to); either bound may be left out (open). */
export interface ReviewPeriod {
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The WHERE clause selecting the period's reviews of alias `r`. */
function inPeriod({ from, to }: ReviewPeriod): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (from) parts.push(sql`r.reviewed_at >= ${from}`);
  if (to) parts.push(sql`r.reviewed_at < ${to}`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** One reviewer's reviews on one day. */
export interface ReviewerDayCount {
  /** The calendar day in the time zone asked for, 'YYYY-MM-DD'. */
  day: string;
  /** The reviewer, null when their account is gone. */
  reviewerId: string | null;
  reviews: number;
}

/**
 * Reviews per reviewer per calendar day of their review time in the IANA time zone `timeZone`
 * (`at time zone`, so daylight saving is right), for the period's reviews; only days and
 * reviewers with reviews, by day then reviewer id (nulls last). One statement: the period's range
 * of reviews_reviewed_at_idx read index-only (a long period: the table), grouped by hash, the days
 * formatted after grouping. Throws what PostgreSQL throws for an unknown time zone.
 */
export async function reviewsPerDay(db: Executor, q: ReviewPeriod & { timeZone: string }): Promise<ReviewerDayCount[]> {
  const { rows } = await sql<{ day: string; reviewerId: string | null; reviews: number | string }>`
    select to_char(d.day, 'YYYY-MM-DD') as day, d.reviewer_id, d.reviews
    from (select (r.reviewed_at at time zone ${q.timeZone})::date as day, r.reviewer_id, count(*) as reviews
          from reviews r
          where ${inPeriod(q)}
          group by 1, 2) d
    order by d.day, d.reviewer_id`.execute(db);
  return rows.map((r) => ({ day: r.day, reviewerId: r.reviewerId ?? null, reviews: Number(r.reviews) }));
}

/** One reviewer's totals over a period. */
export interface ReviewerTotals {
  /** The reviewer, null for every review whose reviewer's account is gone. */
  id: string | null;
  /** Their username; 'Deleted account' for id null. */
  username: string;
  /** Approvals and rejections in the period. */
  reviews: number;
  approvals: number;
  rejections: number;
  /**
   * The median, over their reviews in the period, of the time from the judged version's save to
   * its review (reviewed_at − saved_at), in whole seconds (percentile_cont(0.5), rounded); null
   * without reviews.
   */
  medianWaitSeconds: number | null;
}

/** The username the figures give reviews whose reviewer's account is gone. */
export const DELETED_ACCOUNT = "Deleted account";

/**
 * Per reviewer over the period: reviews, approvals, rejections and the median wait
 * (percentile_cont(0.5) of reviewed_at − saved_at, seconds). One row per reviewer with reviews in
 * the period (whatever their role now), plus every active admin without any (zeros, median null),
 * plus one row id null 'Deleted account' when reviews of deleted accounts fall in it; by username
 * (case-insensitive), 'Deleted account' last. One statement. The waits are float8 seconds
 * (date_part: numeric from extract sorts several times slower) gathered per reviewer by a hash
 * aggregate and each reviewer's array sorted in memory by percentile_cont: a plain ordered-set
 * aggregate would first sort every review of the period by reviewer, which spills to disk at a
 * year's 100,000 reviews (decision 025, benchmark in bench/lists.ts).
 */
export async function reviewerTotals(db: Executor, q: ReviewPeriod): Promise<ReviewerTotals[]> {
  const { rows } = await sql<{
    id: string | null;
    username: string | null;
    reviews: number | string;
    approvals: number | string;
    rejections: number | string;
    medianWaitSeconds: number | string | null;
  }>`
    with t as (
      select r.reviewer_id, count(*) as reviews,
             count(*) filter (where r.action = 'approve') as approvals,
             count(*) filter (where r.action = 'reject') as rejections,
             array_agg(greatest(date_part('epoch', r.reviewed_at - r.saved_at), 0)) as waits
      from reviews r
      where ${inPeriod(q)}
      group by r.reviewer_id
    ), x as (
      select t.reviewer_id as id, t.reviews, t.approvals, t.rejections,
             (select percentile_cont(0.5) within group (order by w) from unnest(t.waits) w) as median_wait
      from t
      union all
      select a.id, 0, 0, 0, null from users a
      where a.role = 'Admin' and a.active and not exists (select 1 from t where t.reviewer_id = a.id)
    )
    select x.id, u.username, x.reviews, x.approvals, x.rejections, round(x.median_wait) as median_wait_seconds
    from x
    left join users u on u.id = x.id
    order by x.id is null, lower(u.username), x.id`.execute(db);
  return rows.map((r) => ({
    id: r.id ?? null,
    username: r.id === null ? DELETED_ACCOUNT : String(r.username),
    reviews: Number(r.reviews),
    approvals: Number(r.approvals),
    rejections: Number(r.rejections),
    medianWaitSeconds: r.medianWaitSeconds === null ? null : Number(r.medianWaitSeconds),
  }));
}
