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
 * reviewers with reviews, by day then reviewer id (nulls last); an open end is the first or last
 * review. One statement: for each local day of the period (generate_series of local midnights), that
 * day's range of reviews_reviewed_at_idx read index-only and grouped by reviewer in a small hash;
 * grouping the whole period by an expression of the day instead made PostgreSQL sort a year's
 * 100,000 reviews on disk (2.5 times slower). Throws what PostgreSQL throws for an unknown time zone.
 */
export async function reviewsPerDay(db: Executor, q: ReviewPeriod & { timeZone: string }): Promise<ReviewerDayCount[]> {
  const tz = q.timeZone;
  const { rows } = await sql<{ day: string; reviewerId: string | null; reviews: number | string }>`
    with b as (
      select coalesce(${q.from ?? null}::timestamptz, (select min(reviewed_at) from reviews)) as lo,
             coalesce(${q.to ?? null}::timestamptz, (select max(reviewed_at) + interval '1 microsecond' from reviews)) as hi
    )
    select to_char(d.day, 'YYYY-MM-DD') as day, c.reviewer_id, c.reviews
    from b
    cross join lateral generate_series(date_trunc('day', b.lo at time zone ${tz}), b.hi at time zone ${tz},
                                       interval '1 day') d (day)
    cross join lateral (
      select r.reviewer_id, count(*) as reviews
      from reviews r
      where r.reviewed_at >= greatest(b.lo, d.day at time zone ${tz})
        and r.reviewed_at < least(b.hi, (d.day + interval '1 day') at time zone ${tz})
      group by r.reviewer_id
    ) c
    order by d.day, c.reviewer_id`.execute(db);
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
 * (case-insensitive), 'Deleted account' last. One statement, run in a transaction (the caller's,
 * or its own) with work_mem raised for it alone (`set local`): the period's reviews are sorted by
 * reviewer in memory rather than on disk. The waits are float8 seconds (date_part; the numeric of
 * extract sorts several times slower). Gathering each reviewer's waits in an array by a hash
 * aggregate instead was a third slower (decision 025, benchmark in bench/lists.ts).
 */
export async function reviewerTotals(db: Executor, q: ReviewPeriod): Promise<ReviewerTotals[]> {
  if (!db.isTransaction) return db.transaction().execute((trx) => reviewerTotals(trx, q));
  // The sort feeding the ordered-set aggregate holds a year's reviews (about 100,000 rows, 6 MB):
  // with the default 4 MB it spills to disk.
  await sql`set local work_mem = '32MB'`.execute(db);
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
             percentile_cont(0.5) within group (
               order by greatest(date_part('epoch', r.reviewed_at - r.saved_at), 0)
             ) as median_wait
      from reviews r
      where ${inPeriod(q)}
      group by r.reviewer_id
    ), x as (
      select t.reviewer_id as id, t.reviews, t.approvals, t.rejections, t.median_wait
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
