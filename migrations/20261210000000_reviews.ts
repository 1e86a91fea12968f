import { sql, type Kysely } from "kysely";

/**
 * One row per review (decision 025): who approved or rejected which output of a submission, when,
 * and when the reviewed version was saved (and the wait between, in seconds). It feeds the reviewer figures (reviews per admin per
 * day, the time work waited for its review), the transcript's version history ('how it was
 * reviewed') and the diff against the version last reviewed. A transcript review names the
 * transcript version it judged; a recording review the translated recording.
 * Reviews made before this table existed are taken from the audit log's approve/reject entries,
 * each matched to the newest version saved before it.
 * Frozen in time: imports no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("reviews")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("submission_id", "uuid", (c) => c.notNull().references("submissions.id").onDelete("cascade"))
    .addColumn("output", "text", (c) => c.notNull().check(sql`output in ('transcript', 'recording')`))
    .addColumn("action", "text", (c) => c.notNull().check(sql`action in ('approve', 'reject')`))
    .addColumn("reviewer_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reviewed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("saved_at", "timestamptz", (c) => c.notNull())
    .addColumn("transcript_version_id", "uuid", (c) => c.references("transcript_versions.id").onDelete("set null"))
    .addColumn("recording_id", "uuid", (c) => c.references("translated_recordings.id").onDelete("set null"))
    .addColumn("reason", "text")
    .execute();
  // The wait the reviewer figures take the median of, in whole seconds, kept beside the review.
  await sql`
    alter table reviews add column wait_seconds integer generated always as
      (greatest(0, floor(extract(epoch from (reviewed_at - saved_at))))::integer) stored`.execute(db);
  await sql`create index reviews_submission_idx on reviews (submission_id, reviewed_at)`.execute(db);
  // The reviewer figures read from these indexes alone: a period's reviews by day, and each
  // reviewer's reviews of a period with their actions and waits.
  await sql`create index reviews_reviewed_at_idx on reviews (reviewed_at, reviewer_id)`.execute(db);
  await sql`create index reviews_reviewer_period_idx on reviews (reviewer_id, reviewed_at) include (wait_seconds, action)`.execute(
    db,
  );
  await sql`create index reviews_transcript_version_idx on reviews (transcript_version_id)`.execute(db);
  await sql`create index reviews_recording_idx on reviews (recording_id)`.execute(db);
  await backfillReviews(db);
}

/**
 * Fills `reviews` from the audit log's approve/reject entries of transcripts and recordings, each
 * matched to the newest version saved before the review (exported for its test).
 */
export async function backfillReviews(db: Kysely<any>): Promise<void> {
  await sql`
    insert into reviews (submission_id, output, action, reviewer_id, reviewed_at, saved_at, transcript_version_id, reason)
    select s.id, 'transcript', a.action, u.id, a.created_at, coalesce(v.created_at, a.created_at), v.id,
           a.detail->>'reason'
    from audit_log a
    join submissions s on s.id::text = a.entity_id
    left join users u on u.id = a.actor_id
    left join lateral (
      select tv.id, tv.created_at from transcript_versions tv
      where tv.submission_id = s.id and tv.created_at <= a.created_at
      order by tv.created_at desc limit 1
    ) v on true
    where a.entity = 'transcript' and a.action in ('approve', 'reject')`.execute(db);
  await sql`
    insert into reviews (submission_id, output, action, reviewer_id, reviewed_at, saved_at, recording_id, reason)
    select s.id, 'recording', a.action, u.id, a.created_at, coalesce(r.created_at, a.created_at), r.id,
           a.detail->>'reason'
    from audit_log a
    join submissions s on s.id::text = a.entity_id
    left join users u on u.id = a.actor_id
    left join lateral (
      select tr.id, tr.created_at from translated_recordings tr
      where tr.submission_id = s.id and tr.created_at <= a.created_at
      order by tr.created_at desc limit 1
    ) r on true
    where a.entity = 'recording' and a.action in ('approve', 'reject')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reviews").ifExists().execute();
}
