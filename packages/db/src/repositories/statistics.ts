import { sql, type RawBuilder } from "kysely";
import type { DbTransaction, Executor } from "../connection";
import { GENERIC_PLAN_MARK } from "../generic-plans";
import { periodReviews, type ReviewPeriod } from "./review-periods";

export type { ReviewPeriod };

/**
 * The Dashboard's figures (SPEC §2.6, decision 011), each one SQL aggregate over the whole table in
 * the database, never rows in memory. Definitions (also in docs/decisions/011):
 * - a user counts in Total Users while active; inactive staff still get an engagement and
 *   report row while they have tasks;
 * - a task's work is its assignee's (tasks.assigned_to), whoever recorded it;
 * - "a submission" is a task's submission holding a transcript or a recording (an empty one,
 *   made by POST /api/createsubmissions before any work, does not count);
 * - review times (submissions.transcript_reviewed_at / recording_reviewed_at) are when the output
 *   became Approved or Rejected, null while it is Pending or absent.
 * No statement reads every task: the figures of the work as it is now come from
 * assignee_work_counts (one row per assignee), a period's reviews from assignee_review_days (one
 * row per assignee and UTC day) and, for the partial days at its ends, from submissions through
 * the review-time indexes; triggers on tasks and submissions keep both exact (migration
 * 20261201000000_assignee_work_counts, decision 011), and triggers on audios and
 * translated_recordings keep the audio minutes of approved work exact as durations arrive
 * (migration 20261207000000_assignee_work_audio_minutes, decision 022).
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
 * The Dashboard cards in one statement. Tasks complete and not are summed over the assignees'
 * counters (every task has an assignee). "Today" and "yesterday" are calendar days in the IANA
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
    from (select coalesce(sum(completed), 0) as completed, coalesce(sum(tasks - completed), 0) as pending
          from assignee_work_counts) t,
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
 * complete, not complete, and with a submission, in one statement (users left join their
 * counters in assignee_work_counts).
 */
export async function engagementRows(db: Executor): Promise<EngagementRow[]> {
  const { rows } = await sql<Record<keyof EngagementRow, string | number>>`
    select u.id, u.username, coalesce(c.tasks, 0) as tasks, coalesce(c.completed, 0) as completed,
           coalesce(c.tasks - c.completed, 0) as pending, coalesce(c.with_work, 0) as submissions
    from users u
    left join assignee_work_counts c on c.assignee_id = u.id
    where u.role = 'Staff' and (u.active or c.tasks > 0)
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
  /**
   * approvedTranscripts × transcript rate + approvedRecordings × recording rate + audioMinutes
   * (exact, before rounding) × rate per audio minute, rounded to whole UGX.
   */
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
  /**
   * Minutes of audio of their approved work, in the period: the durations of the audios of their
   * tasks whose transcript was approved plus the durations of their tasks' approved recordings,
   * each counted at its own approval time: whole milliseconds / 60,000, not rounded (screens
   * round for display). A duration not known counts 0.
   */
  audioMinutes: number;
  /** Of audioMinutes, the audios' minutes of approved transcripts. */
  transcriptAudioMinutes: number;
  /** Of audioMinutes, the approved recordings' own minutes. */
  recordingAudioMinutes: number;
  /** Approved transcripts and recordings (in the period) whose duration is not known yet, so count 0 minutes. */
  approvedWithoutDuration: number;
}

/**
 * The settings keys of the payment rates (whole UGX, jsonb numbers): per approved transcript, per
 * approved recording, and per minute of approved audio (optional: unset or 0 adds nothing).
 */
export const RATE_KEYS = {
  transcript: "transcript_rate_ugx",
  recording: "recording_rate_ugx",
  audioMinute: "audio_minute_rate_ugx",
} as const;
export type RateKind = keyof typeof RATE_KEYS;

/**
 * SQL: the rate of `kind` from settings, 0 when unset. The key is written into the SQL as a
 * literal (one of RATE_KEYS, never input), so the all-time report has no parameters and is
 * planned once per connection (teamReportRows).
 */
function rate(kind: RateKind): RawBuilder<number> {
  return sql<number>`coalesce((select (value #>> '{}')::numeric from settings where key = ${sql.lit(RATE_KEYS[kind])}), 0)`;
}

/**
 * The Team Engagement Report (SPEC §2.6): one row per staff member (active, or inactive
 * with tasks), by username, in one statement. Reviews count in `period` when their review time
 * lies in [from, to) (approval time decides the period); without a bound, every review counts.
 * Pending counts, tasks and submissions (%) describe the work as it is now. Payment uses the
 * rates in settings at the time of the call. Audio minutes are those of the approved outputs
 * counted (a transcript: its task's audio; a recording: itself), from the durations known now.
 *
 * Nothing reads every task: the figures as they are now (and, without a period, every review's)
 * come from the assignees' counters (assignee_work_counts), a period's reviews from their daily
 * counts and the partial days at its ends (periodReviews). The all-time report has no parameters
 * and is planned once per connection (GENERIC_PLAN_MARK, decision 017: planning its joins took
 * 0.8 ms for 1 ms of work at 200 staff); a period's plan depends on its length, so it is planned
 * on every call.
 */
export async function teamReportRows(db: Executor, period: ReviewPeriod = {}): Promise<TeamReportRow[]> {
  const bounded = period.from !== undefined || period.to !== undefined;
  // r: the reviews counted per assignee, the period's or, without one, every review (the counters).
  const reviews = bounded ? periodReviews(period) : sql`assignee_work_counts`;
  const { rows } = await sql<Record<keyof TeamReportRow, string | number>>`
    select u.id, u.username,
           coalesce(c.tasks, 0) as tasks,
           coalesce(r.completed, 0) as completed,
           coalesce(round(100.0 * c.with_work / nullif(c.tasks, 0), 2), 0) as submissions,
           round(coalesce(r.approved_transcripts, 0) * ${rate("transcript")}
                 + coalesce(r.approved_recordings, 0) * ${rate("recording")}
                 + (coalesce(r.approved_transcript_ms, 0) + coalesce(r.approved_recording_ms, 0)) / 60000.0
                   * ${rate("audioMinute")}) as payment,
           coalesce(r.approved_recordings, 0) as recorded_tasks,
           coalesce(r.approved_transcripts, 0) + coalesce(r.rejected_transcripts, 0)
             ${bounded ? sql`` : sql`+ coalesce(c.pending_transcripts, 0)`} as translated_scripts,
           coalesce(r.approved_transcripts, 0) as approved_transcripts,
           coalesce(r.approved_recordings, 0) as approved_recordings,
           coalesce(c.pending_transcripts, 0) as pending_transcripts,
           coalesce(c.pending_recordings, 0) as pending_recordings,
           coalesce(r.rejected_transcripts, 0) as rejected_transcripts,
           coalesce(r.rejected_recordings, 0) as rejected_recordings,
           -- Minutes as whole ms / 60,000 in double precision: exact up to that division, unrounded.
           (coalesce(r.approved_transcript_ms, 0) + coalesce(r.approved_recording_ms, 0))::float8 / 60000
             as audio_minutes,
           coalesce(r.approved_transcript_ms, 0)::float8 / 60000 as transcript_audio_minutes,
           coalesce(r.approved_recording_ms, 0)::float8 / 60000 as recording_audio_minutes,
           coalesce(r.approved_without_duration, 0) as approved_without_duration
    from users u
    left join assignee_work_counts c on c.assignee_id = u.id
    left join ${reviews} r on r.assignee_id = u.id
    where u.role = 'Staff' and (u.active or c.tasks > 0)
    order by lower(u.username), u.id ${bounded ? sql`` : sql.raw(GENERIC_PLAN_MARK)}`.execute(db);
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
    audioMinutes: Number(r.audioMinutes),
    transcriptAudioMinutes: Number(r.transcriptAudioMinutes),
    recordingAudioMinutes: Number(r.recordingAudioMinutes),
    approvedWithoutDuration: Number(r.approvedWithoutDuration),
  }));
}

/** The payment rates in whole UGX (0 when a key is missing). */
export interface PaymentRates {
  /** Per approved transcript. */
  transcript: number;
  /** Per approved recording. */
  recording: number;
  /** Per minute of approved audio (0: payment by item only, the default). */
  audioMinute: number;
}

/** The three payment rates from settings, in one statement. */
export async function findRates(db: Executor): Promise<PaymentRates> {
  const { rows } = await sql<Record<keyof PaymentRates, string | number>>`
    select ${rate("transcript")} as transcript, ${rate("recording")} as recording,
           ${rate("audioMinute")} as audio_minute`.execute(db);
  const r = rows[0]!;
  return { transcript: Number(r.transcript), recording: Number(r.recording), audioMinute: Number(r.audioMinute) };
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
