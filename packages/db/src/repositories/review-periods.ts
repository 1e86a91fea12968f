import { sql, type RawBuilder } from "kysely";

/**
 * A review period's reviews per assignee for the Team Engagement Report (SPEC §2.6, decision 011):
 * whole UTC days from assignee_review_days, the partial days at its ends from submissions through
 * the review-time indexes, so no statement reads every task.
 */

/** A review period [from, to): either end may be left open. */
export interface ReviewPeriod {
  from?: Date | undefined;
  to?: Date | undefined;
}

const DAY_MS = 86_400_000;

/** The UTC midnight at or after `t` (`up`), or at or before it. */
function utcMidnight(t: Date, up: boolean): Date {
  const floor = Math.floor(t.getTime() / DAY_MS) * DAY_MS;
  return new Date(up && floor < t.getTime() ? floor + DAY_MS : floor);
}

/** A span of review times [from, to) read from submissions, counted with `sign` (1 or −1). */
interface Edge {
  from: Date;
  to: Date;
  sign: 1 | -1;
}

/**
 * How the report reads `period`: whole UTC days [days.from, days.to) (either end open; null for
 * none) from assignee_review_days, and `edges` read from the submissions' review times, added
 * (sign 1) or taken away (sign −1). A partial day at either end of the period is read as itself
 * when it is at most 12 hours long, otherwise as its whole day less the rest (a month bounded by
 * midnights in Africa/Kampala, UTC+3, reads 3 hours at each end), so an end costs at most 12
 * hours of reviews. A period inside one UTC day is read as itself. Together they count every
 * review time in the period exactly once.
 */
function splitPeriod(period: ReviewPeriod): { days: { from?: Date; to?: Date } | null; edges: Edge[] } {
  const { from, to } = period;
  let dayFrom = from && utcMidnight(from, true);
  let dayTo = to && utcMidnight(to, false);
  if (from && to && dayFrom && dayTo && dayFrom.getTime() > dayTo.getTime())
    return { days: null, edges: [{ from, to, sign: 1 }] };
  const edges: Edge[] = [];
  if (from && dayFrom && dayFrom.getTime() > from.getTime()) {
    if (dayFrom.getTime() - from.getTime() <= DAY_MS / 2) edges.push({ from, to: dayFrom, sign: 1 });
    else {
      dayFrom = new Date(dayFrom.getTime() - DAY_MS);
      edges.push({ from: dayFrom, to: from, sign: -1 });
    }
  }
  if (to && dayTo && dayTo.getTime() < to.getTime()) {
    if (to.getTime() - dayTo.getTime() <= DAY_MS / 2) edges.push({ from: dayTo, to, sign: 1 });
    else {
      dayTo = new Date(dayTo.getTime() + DAY_MS);
      edges.push({ from: to, to: dayTo, sign: -1 });
    }
  }
  const noDays = dayFrom && dayTo && dayFrom.getTime() >= dayTo.getTime();
  return { days: noDays ? null : { from: dayFrom, to: dayTo }, edges };
}

/** SQL: `column` lies in one of the edges (through the review-time indexes). */
function inEdges(column: RawBuilder<unknown>, edges: Edge[]): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(
    edges.map((e) => sql`(${column} >= ${e.from}::timestamptz and ${column} < ${e.to}::timestamptz)`),
    sql` or `,
  )})`;
}

/** SQL: the sign of the edge `column` lies in, 0 when none (or null). */
function edgeSign(column: RawBuilder<unknown>, edges: Edge[]): RawBuilder<number> {
  return sql<number>`case ${sql.join(
    edges.map(
      (e) => sql`when ${column} >= ${e.from}::timestamptz and ${column} < ${e.to}::timestamptz then ${sql.lit(e.sign)}`,
    ),
    sql` `,
  )} else 0 end`;
}

/** A date as YYYY-MM-DD in UTC. */
function utcDate(t: Date): string {
  return t.toISOString().slice(0, 10);
}

/**
 * SQL: the reviews of `period` per assignee (assignee_id, completed, approved_transcripts,
 * approved_recordings, rejected_transcripts, rejected_recordings, approved_transcript_ms,
 * approved_recording_ms, approved_without_duration): the sums of its UTC days in
 * assignee_review_days, plus or minus the submissions reviewed in its edges (splitPeriod), read
 * through the review-time indexes (submissions_transcript_reviewed_at_idx,
 * submissions_recording_reviewed_at_idx) and joined to their tasks for the assignee, to their audio
 * and their recording for the durations (by primary key and translated_recordings_submission_idx;
 * whole ms as the counters keep them). A task completes at its later review time, which is one of
 * the two, so the submissions read include it.
 */
export function periodReviews(period: ReviewPeriod): RawBuilder<unknown> {
  const { days, edges } = splitPeriod(period);
  const parts: RawBuilder<unknown>[] = [];
  if (days) {
    parts.push(sql`
      select assignee_id, completed, approved_transcripts, approved_recordings, rejected_transcripts,
             rejected_recordings, approved_transcript_ms, approved_recording_ms, approved_without_duration
      from assignee_review_days
      where ${sql.join(
        [
          sql`true`,
          ...(days.from ? [sql`day >= ${utcDate(days.from)}::date`] : []),
          ...(days.to ? [sql`day < ${utcDate(days.to)}::date`] : []),
        ],
        sql` and `,
      )}`);
  }
  if (edges.length > 0) {
    const transcriptAt = sql`s.transcript_reviewed_at`;
    const recordingAt = sql`s.recording_reviewed_at`;
    const transcript = (status: string) =>
      sql`case when s.translation_script_approval_status = ${sql.lit(status)} then ${edgeSign(transcriptAt, edges)} else 0 end`;
    const recording = (status: string) =>
      sql`case when s.recorded_audio_approval_status = ${sql.lit(status)} then ${edgeSign(recordingAt, edges)} else 0 end`;
    const completedAt = sql`greatest(s.transcript_reviewed_at, s.recording_reviewed_at)`;
    const approvedTranscript = sql`s.translation_script_approval_status = 'Approved'`;
    const approvedRecording = sql`s.recorded_audio_approval_status = 'Approved'`;
    parts.push(sql`
      select t.assigned_to as assignee_id,
             case when t.is_complete then ${edgeSign(completedAt, edges)} else 0 end as completed,
             ${transcript("Approved")} as approved_transcripts, ${recording("Approved")} as approved_recordings,
             ${transcript("Rejected")} as rejected_transcripts, ${recording("Rejected")} as rejected_recordings,
             ${transcript("Approved")} * coalesce(d.audio_ms, 0) as approved_transcript_ms,
             ${recording("Approved")} * coalesce(d.recording_ms, 0) as approved_recording_ms,
             case when ${approvedTranscript} and d.audio_ms is null then ${edgeSign(transcriptAt, edges)} else 0 end
               + case when ${approvedRecording} and d.recording_ms is null then ${edgeSign(recordingAt, edges)} else 0 end
               as approved_without_duration
      from submissions s
      -- Each task by its primary key: the edges hold few reviews, and a hash join would read
      -- every task (LIMIT 1 keeps the planner from flattening this into such a join).
      cross join lateral (select t.assigned_to, t.is_complete, t.audio_id from tasks t where t.id = s.task_id limit 1) t
      -- The durations as the counters keep them (migration 20261207000000): whole ms, null when not known.
      cross join lateral (
        select (select round(a.duration_seconds * 1000)::bigint from audios a where a.id = t.audio_id) as audio_ms,
               (select round(max(r.duration_seconds) * 1000)::bigint from translated_recordings r
                where r.submission_id = s.id and r.file_key = s.recorded_audio) as recording_ms
      ) d
      where ${inEdges(transcriptAt, edges)} or ${inEdges(recordingAt, edges)}`);
  }
  if (parts.length === 0) parts.push(sql`select null::uuid as assignee_id, 0, 0, 0, 0, 0, 0, 0, 0 where false`);
  return sql`(
    select assignee_id, sum(completed) as completed, sum(approved_transcripts) as approved_transcripts,
           sum(approved_recordings) as approved_recordings, sum(rejected_transcripts) as rejected_transcripts,
           sum(rejected_recordings) as rejected_recordings, sum(approved_transcript_ms) as approved_transcript_ms,
           sum(approved_recording_ms) as approved_recording_ms,
           sum(approved_without_duration) as approved_without_duration
    from (${sql.join(parts, sql` union all `)}) v
    group by assignee_id
  )`;
}
