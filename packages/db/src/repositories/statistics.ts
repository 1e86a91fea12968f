import { sql, type RawBuilder } from "kysely";
import type { DbTransaction, Executor } from "../connection";

/**
 * The Dashboard's figures (SPEC §2.6, issue 9), each one SQL aggregate over the whole table in
 * the database, never rows in memory. Definitions (also in docs/decisions/011):
 * - a user counts in Total Users while active; inactive staff still get an engagement and
 *   report row while they have tasks;
 * - a task's work is its assignee's (tasks.assigned_to), whoever recorded it;
 * - "a submission" is a task's submission holding a transcript or a recording (an empty one,
 *   made by POST /api/createsubmissions before any work, does not count);
 * - review times (submissions.transcript_reviewed_at / recording_reviewed_at) are when the output
 *   became Approved or Rejected, null while it is Pending or absent.
 */

/** The SPEC §3 Statistics records: Total Users, Tasks and Submissions. */
export interface DashboardCounts {
  /** Active administrators. */
  adminCount: number;
  /** Active staff. */
  staffCount: number;
  /** Tasks with is_complete (transcript and recording Approved). */
  completed: number;
  /** Tasks without is_complete. */
  pending: number;
  /** Submissions (holding a transcript or recording) whose submission_date falls on today in the time zone. */
  today: number;
  /** The same for yesterday. */
  yesterday: number;
}

/**
 * A submission holds a transcript or a recording. Read from the statuses, which say exactly that
 * (a transcript is present iff its status is not 'No transcript', a recording iff not 'No
 * translation audio'), so the report's join carries no file paths.
 */
const holdsWork = sql<boolean>`(s.translation_script_approval_status <> 'No transcript'
  or s.recorded_audio_approval_status <> 'No translation audio')`;

/**
 * The Dashboard cards in one statement. "Today" and "yesterday" are calendar days in the IANA
 * time zone `timeZone` at the instant `now`, computed in SQL (`at time zone`, so daylight saving
 * is right), and matched as a submission_date range (index submissions_submission_date_idx).
 * Throws what PostgreSQL throws for an unknown time zone.
 */
export async function dashboardCounts(db: Executor, q: { timeZone: string; now: Date }): Promise<DashboardCounts> {
  const localDay = sql`date_trunc('day', ${q.now}::timestamptz at time zone ${q.timeZone})`;
  const dayStart = (days: number) => sql`((${localDay} + ${days} * interval '1 day') at time zone ${q.timeZone})`;
  const { rows } = await sql<Record<keyof DashboardCounts, string | number>>`
    select
      (select count(*) from users where role = 'Admin' and active) as admin_count,
      (select count(*) from users where role = 'Staff' and active) as staff_count,
      t.completed, t.pending, d.today, d.yesterday
    from (select count(*) filter (where is_complete) as completed, count(*) filter (where not is_complete) as pending
          from tasks) t,
         (select count(*) filter (where s.submission_date >= ${dayStart(0)}) as today,
                 count(*) filter (where s.submission_date < ${dayStart(0)}) as yesterday
          from submissions s
          where s.submission_date >= ${dayStart(-1)} and s.submission_date < ${dayStart(1)} and ${holdsWork}) d`.execute(
    db,
  );
  const r = rows[0]!;
  return {
    adminCount: Number(r.adminCount),
    staffCount: Number(r.staffCount),
    completed: Number(r.completed),
    pending: Number(r.pending),
    today: Number(r.today),
    yesterday: Number(r.yesterday),
  };
}

/** A SPEC §3 User engagement row (Staff overall Activity, Work Load). */
export interface EngagementRow {
  id: string;
  username: string;
  /** Tasks assigned to them. */
  tasks: number;
  /** Of those, complete (is_complete). */
  completed: number;
  /** Of those, not complete. */
  pending: number;
  /** Of those, tasks whose submission holds a transcript or a recording. */
  submissions: number;
}

/**
 * One row per staff member (active, or inactive with tasks), by username: their tasks,
 * complete, not complete, and with a submission, in one statement (tasks left join submissions,
 * grouped by assignee).
 */
export async function engagementRows(db: Executor): Promise<EngagementRow[]> {
  const { rows } = await sql<Record<keyof EngagementRow, string | number>>`
    select u.id, u.username, coalesce(w.tasks, 0) as tasks, coalesce(w.completed, 0) as completed,
           coalesce(w.tasks - w.completed, 0) as pending, coalesce(w.submissions, 0) as submissions
    from users u
    left join (
      select t.assigned_to, count(*) as tasks, count(*) filter (where t.is_complete) as completed,
             count(*) filter (where ${holdsWork}) as submissions
      from tasks t left join submissions s on s.task_id = t.id
      group by t.assigned_to
    ) w on w.assigned_to = u.id
    where u.role = 'Staff' and (u.active or w.tasks > 0)
    order by lower(u.username), u.id`.execute(db);
  return rows.map((r) => ({
    id: String(r.id),
    username: String(r.username),
    tasks: Number(r.tasks),
    completed: Number(r.completed),
    pending: Number(r.pending),
    submissions: Number(r.submissions),
  }));
}

/** A SPEC §3 Team performance row (Team Engagement Report). */
export interface TeamReportRow {
  id: string;
  username: string;
  /** Tasks assigned to them (now; the period does not apply). */
  tasks: number;
  /** Tasks complete, in the period: whose later approval lies in it. */
  completed: number;
  /** Tasks whose submission holds a transcript or recording / tasks × 100, rounded to 2 decimals (0 without tasks; the period does not apply). */
  submissions: number;
  /** approvedTranscripts × transcript rate + approvedRecordings × recording rate, in whole UGX. */
  payment: number;
  /** Tasks whose recording is Approved, approved in the period (the spec's "approved recorded tasks"; equals approvedRecordings). */
  recordedTasks: number;
  /** Transcripts handed in and reviewed: Approved or Rejected, reviewed in the period, plus (without a period) those Pending. */
  translatedScripts: number;
  approvedTranscripts: number;
  approvedRecordings: number;
  /** Transcripts awaiting review now (the period does not apply: they have no review time). */
  pendingTranscripts: number;
  /** Recordings awaiting review now (the period does not apply). */
  pendingRecordings: number;
  rejectedTranscripts: number;
  rejectedRecordings: number;
}

/** A review period [from, to): either end may be left open. */
export interface ReviewPeriod {
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The settings keys of the payment rates (whole UGX, jsonb numbers). */
export const RATE_KEYS = { transcript: "transcript_rate_ugx", recording: "recording_rate_ugx" } as const;
export type RateKind = keyof typeof RATE_KEYS;

/** SQL: the rate of `kind` from settings, 0 when unset. */
function rate(kind: RateKind): RawBuilder<number> {
  return sql<number>`coalesce((select (value #>> '{}')::numeric from settings where key = ${RATE_KEYS[kind]}), 0)`;
}

/**
 * The Team Engagement Report (SPEC §2.6, issue 9): one row per staff member (active, or inactive
 * with tasks), by username, in one statement. Reviews count in `period` when their review time
 * lies in [from, to) (approval time decides the period); without a bound, every review counts.
 * Pending counts, tasks and submissions (%) describe the work as it is now. Payment uses the
 * rates in settings at the time of the call.
 */
export async function teamReportRows(db: Executor, period: ReviewPeriod = {}): Promise<TeamReportRow[]> {
  const bounded = period.from !== undefined || period.to !== undefined;
  const within = (column: RawBuilder<unknown>) =>
    sql.join(
      [
        sql`true`,
        ...(period.from ? [sql`${column} >= ${period.from}::timestamptz`] : []),
        ...(period.to ? [sql`${column} < ${period.to}::timestamptz`] : []),
      ],
      sql` and `,
    );
  const transcriptAt = sql`s.transcript_reviewed_at`;
  const recordingAt = sql`s.recording_reviewed_at`;
  const transcript = (status: string) =>
    sql`s.translation_script_approval_status = ${sql.lit(status)} and ${within(transcriptAt)}`;
  const recording = (status: string) =>
    sql`s.recorded_audio_approval_status = ${sql.lit(status)} and ${within(recordingAt)}`;
  const completedAt = sql`greatest(s.transcript_reviewed_at, s.recording_reviewed_at)`;
  const { rows } = await sql<Record<keyof TeamReportRow, string | number>>`
    select u.id, u.username,
           coalesce(w.tasks, 0) as tasks,
           coalesce(w.completed, 0) as completed,
           coalesce(round(100.0 * w.with_work / nullif(w.tasks, 0), 2), 0) as submissions,
           coalesce(w.approved_transcripts * ${rate("transcript")} + w.approved_recordings * ${rate("recording")}, 0)
             as payment,
           coalesce(w.approved_recordings, 0) as recorded_tasks,
           coalesce(w.approved_transcripts + w.rejected_transcripts
                    ${bounded ? sql`` : sql`+ w.pending_transcripts`}, 0) as translated_scripts,
           coalesce(w.approved_transcripts, 0) as approved_transcripts,
           coalesce(w.approved_recordings, 0) as approved_recordings,
           coalesce(w.pending_transcripts, 0) as pending_transcripts,
           coalesce(w.pending_recordings, 0) as pending_recordings,
           coalesce(w.rejected_transcripts, 0) as rejected_transcripts,
           coalesce(w.rejected_recordings, 0) as rejected_recordings
    from users u
    left join (
      select t.assigned_to,
             count(*) as tasks,
             count(*) filter (where t.is_complete and ${within(completedAt)}) as completed,
             count(*) filter (where ${holdsWork}) as with_work,
             count(*) filter (where ${transcript("Approved")}) as approved_transcripts,
             count(*) filter (where ${recording("Approved")}) as approved_recordings,
             count(*) filter (where s.translation_script_approval_status = 'Pending') as pending_transcripts,
             count(*) filter (where s.recorded_audio_approval_status = 'Pending') as pending_recordings,
             count(*) filter (where ${transcript("Rejected")}) as rejected_transcripts,
             count(*) filter (where ${recording("Rejected")}) as rejected_recordings
      from tasks t left join submissions s on s.task_id = t.id
      group by t.assigned_to
    ) w on w.assigned_to = u.id
    where u.role = 'Staff' and (u.active or w.tasks > 0)
    order by lower(u.username), u.id`.execute(db);
  return rows.map((r) => ({
    id: String(r.id),
    username: String(r.username),
    tasks: Number(r.tasks),
    completed: Number(r.completed),
    submissions: Number(r.submissions),
    payment: Number(r.payment),
    recordedTasks: Number(r.recordedTasks),
    translatedScripts: Number(r.translatedScripts),
    approvedTranscripts: Number(r.approvedTranscripts),
    approvedRecordings: Number(r.approvedRecordings),
    pendingTranscripts: Number(r.pendingTranscripts),
    pendingRecordings: Number(r.pendingRecordings),
    rejectedTranscripts: Number(r.rejectedTranscripts),
    rejectedRecordings: Number(r.rejectedRecordings),
  }));
}

/** The payment rates in whole UGX (0 when a key is missing). */
export interface PaymentRates {
  transcript: number;
  recording: number;
}

/** Both payment rates from settings, in one statement. */
export async function findRates(db: Executor): Promise<PaymentRates> {
  const { rows } = await sql<{ transcript: string | number; recording: string | number }>`
    select ${rate("transcript")} as transcript, ${rate("recording")} as recording`.execute(db);
  return { transcript: Number(rows[0]!.transcript), recording: Number(rows[0]!.recording) };
}

/**
 * Sets the `kind` rate to `value` whole UGX (inserting the key when missing), the row locked
 * until `trx` ends. Returns the previous value (null when the key was missing).
 */
export async function setRate(trx: DbTransaction, kind: RateKind, value: number): Promise<number | null> {
  const key = RATE_KEYS[kind];
  const previous = await trx
    .selectFrom("settings")
    .select("value")
    .where("key", "=", key)
    .forUpdate()
    .executeTakeFirst();
  await trx
    .insertInto("settings")
    .values({ key, value: sql`${JSON.stringify(value)}::jsonb`, updatedAt: new Date() })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => ({ value: eb.ref("excluded.value"), updatedAt: new Date() })),
    )
    .execute();
  return previous === undefined ? null : Number(previous.value);
}
