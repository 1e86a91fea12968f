import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../connection";

/**
 * The reviewer figures of the Dashboard (decision 025): how many reviews each admin made per day,
 * and how long the work they judged had waited for them. Both read `reviews` (one row per approve
 * or reject) for a period of review times, index-only: reviews per day through
 * reviews_reviewed_at_idx (reviewed_at, reviewer_id), each reviewer's totals through
 * reviews_reviewer_period_idx (reviewer_id, reviewed_at) including the action and the wait in
 * seconds; each is one SQL aggregate. A review whose reviewer's
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
const DELETED_ACCOUNT = "Deleted account";

/**
 * Per reviewer over the period: reviews, approvals, rejections and the median wait
 * (percentile_cont(0.5) of `wait_seconds`, reviewed_at − saved_at in whole seconds). One row per
 * reviewer with reviews in the period (whatever their role now), plus every active admin without
 * any (zeros, median null), plus one row id null 'Deleted account' when reviews of deleted accounts
 * fall in it; by username (case-insensitive), 'Deleted account' last. One statement: the reviewers
 * ever seen are read by a skip scan of reviews_reviewer_period_idx (one index probe per distinct
 * reviewer, a handful of admins), and each one's period is that index's range read index-only,
 * already in reviewer order, so only each reviewer's own waits are sorted for the median. Grouping
 * the period's reviews by reviewer instead sorted a year's 100,000 reviews (p99 170 ms at 100,000
 * audios; this reads it in about 30 ms; decision 025, bench/lists.ts). Runs in a transaction (the
 * caller's, or its own) with work_mem raised and JIT off for it alone, so one reviewer's year sorts
 * in memory and no time goes on compiling.
 */
export async function reviewerTotals(db: Executor, q: ReviewPeriod): Promise<ReviewerTotals[]> {
  if (!db.isTransaction) return db.transaction().execute((trx) => reviewerTotals(trx, q));
  await sql`set local work_mem = '32MB'`.execute(db);
  // Its estimated cost passes PostgreSQL's JIT threshold, and compiling took longer (about 16 ms)
  // than it saved.
  await sql`set local jit = off`.execute(db);
  const { rows } = await sql<{
    id: string | null;
    username: string | null;
    reviews: number | string;
    approvals: number | string;
    rejections: number | string;
    medianWaitSeconds: number | string | null;
  }>`
    with recursive seen (id) as (
      (select r.reviewer_id from reviews r where r.reviewer_id is not null order by r.reviewer_id limit 1)
      union all
      select (select r.reviewer_id from reviews r where r.reviewer_id > seen.id order by r.reviewer_id limit 1)
      from seen where seen.id is not null
    ), candidates as (
      select id from seen where id is not null
      union
      select a.id from users a where a.role = 'Admin' and a.active
    ), totals as (
      select c.id, t.reviews, t.approvals, t.rejections, t.median_wait
      from candidates c
      cross join lateral (
        select count(*) as reviews,
               count(*) filter (where r.action = 'approve') as approvals,
               count(*) filter (where r.action = 'reject') as rejections,
               percentile_cont(0.5) within group (order by r.wait_seconds) as median_wait
        from reviews r
        where r.reviewer_id = c.id and ${inPeriod(q)}
      ) t
      union all
      select null, count(*), count(*) filter (where r.action = 'approve'),
             count(*) filter (where r.action = 'reject'),
             percentile_cont(0.5) within group (order by r.wait_seconds)
      from reviews r
      where r.reviewer_id is null and ${inPeriod(q)}
      having count(*) > 0
    )
    select x.id, u.username, x.reviews, x.approvals, x.rejections, round(x.median_wait) as median_wait_seconds
    from totals x
    left join users u on u.id = x.id
    where x.reviews > 0 or (u.role = 'Admin' and u.active)
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
