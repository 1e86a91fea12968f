import { afterAll, describe, expect, it } from "vitest";
import { sql, type RawBuilder } from "kysely";
import type { SessionUser } from "../src/context";
import { createHarness } from "../src/testing/harness";
import { uploadRecording } from "../src/uploads/store-upload";
import { listCountsStoredAndRecomputed } from "./list-counts-fixture";
import { kampalaMidnight, TIME_ZONE } from "./statistics-fixture";
import { newAudio, recommend, tempWav } from "./workflow-fixtures";
import * as audioMinutesMigration from "../../../migrations/20261207000000_assignee_work_audio_minutes";

// Decision 011: the counters behind the Dashboard (assignee_work_counts, one row per
// assignee; assignee_review_days, one row per assignee and UTC day) are kept by triggers on tasks
// and submissions. A seeded, random-ish sequence of real workflow operations through the services
// (assign, bulk assign, reassign, save, upload, approve, reject, delete an output, delete an
// audio, set a task's stages, an empty submission, deactivate and reactivate) and of direct writes
// (review times; a submission and its task changed, or deleted, in one statement) must leave both
// equal to the aggregates recomputed from tasks and submissions after every step, and the team
// report equal to the single join it replaced.

const h = await createHarness();
afterAll(() => h.close());
h.deps.timezone = TIME_ZONE;
const admin = await h.createUser("Admin");
const staff = await Promise.all([1, 2, 3, 4].map(() => h.createUser("Staff")));
const asAdmin = h.caller(admin);
const db = h.deps.db;

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COUNT_COLUMNS = [
  "tasks",
  "completed",
  "withWork",
  "pendingTranscripts",
  "approvedTranscripts",
  "rejectedTranscripts",
  "pendingRecordings",
  "approvedRecordings",
  "rejectedRecordings",
  "approvedTranscriptMs",
  "approvedRecordingMs",
  "approvedWithoutDuration",
] as const;
const DAY_COLUMNS = [
  "completed",
  "approvedTranscripts",
  "rejectedTranscripts",
  "approvedRecordings",
  "rejectedRecordings",
  "approvedTranscriptMs",
  "approvedRecordingMs",
  "approvedWithoutDuration",
] as const;

/**
 * SQL: each task (t) with its submission (s), its audio's duration (audio_ms) and its submission's
 * recording's (recording_ms), whole ms, null when not known: the durations joined directly, a
 * reference independent of the triggers' scalar subqueries.
 */
const TASK_WORK = sql`
  tasks t
  join audios a on a.id = t.audio_id
  left join submissions s on s.task_id = t.id
  left join translated_recordings r on r.submission_id = s.id and r.file_key = s.recorded_audio
  cross join lateral (select round(a.duration_seconds * 1000)::bigint as audio_ms,
                             round(r.duration_seconds * 1000)::bigint as recording_ms) d`;

/** Rows as plain objects of numbers (ids and days as text), rows whose counts are all 0 left out, sorted. */
function normalized(rows: Array<Record<string, unknown>>, keys: string[], counts: readonly string[]) {
  return rows
    .map((r) => {
      const out: Record<string, string | number> = {};
      for (const k of keys) out[k] = String(r[k]);
      for (const c of counts) out[c] = Number(r[c]);
      return out;
    })
    .filter((r) => counts.some((c) => r[c] !== 0))
    .sort((a, b) =>
      keys
        .map((k) => String(a[k]))
        .join("|")
        .localeCompare(keys.map((k) => String(b[k])).join("|")),
    );
}

/** The stored counters and the same figures recomputed from tasks and submissions. */
async function storedAndRecomputed() {
  const stored = await sql<Record<string, unknown>>`select * from assignee_work_counts`.execute(db);
  const recomputed = await sql<Record<string, unknown>>`
    select t.assigned_to as assignee_id,
           count(*) as tasks,
           count(*) filter (where t.is_complete) as completed,
           count(*) filter (where s.translation_script_approval_status <> 'No transcript'
                              or s.recorded_audio_approval_status <> 'No translation audio') as with_work,
           count(*) filter (where s.translation_script_approval_status = 'Pending') as pending_transcripts,
           count(*) filter (where s.translation_script_approval_status = 'Approved') as approved_transcripts,
           count(*) filter (where s.translation_script_approval_status = 'Rejected') as rejected_transcripts,
           count(*) filter (where s.recorded_audio_approval_status = 'Pending') as pending_recordings,
           count(*) filter (where s.recorded_audio_approval_status = 'Approved') as approved_recordings,
           count(*) filter (where s.recorded_audio_approval_status = 'Rejected') as rejected_recordings,
           coalesce(sum(d.audio_ms) filter (where s.translation_script_approval_status = 'Approved'), 0)
             as approved_transcript_ms,
           coalesce(sum(d.recording_ms) filter (where s.recorded_audio_approval_status = 'Approved'), 0)
             as approved_recording_ms,
           count(*) filter (where s.translation_script_approval_status = 'Approved' and d.audio_ms is null)
             + count(*) filter (where s.recorded_audio_approval_status = 'Approved' and d.recording_ms is null)
             as approved_without_duration
    from ${TASK_WORK}
    group by t.assigned_to`.execute(db);
  const storedDays = await sql<Record<string, unknown>>`
    select day::text as day, assignee_id, completed, approved_transcripts, rejected_transcripts,
           approved_recordings, rejected_recordings, approved_transcript_ms, approved_recording_ms,
           approved_without_duration
    from assignee_review_days`.execute(db);
  const recomputedDays = await sql<Record<string, unknown>>`
    select (v.at at time zone 'UTC')::date::text as day, v.assignee_id, sum(v.completed) as completed,
           sum(v.approved_transcripts) as approved_transcripts, sum(v.rejected_transcripts) as rejected_transcripts,
           sum(v.approved_recordings) as approved_recordings, sum(v.rejected_recordings) as rejected_recordings,
           sum(v.approved_transcript_ms) as approved_transcript_ms, sum(v.approved_recording_ms) as approved_recording_ms,
           sum(v.approved_without_duration) as approved_without_duration
    from (
      select t.assigned_to, s.transcript_reviewed_at, 0,
             (s.translation_script_approval_status = 'Approved')::integer,
             (s.translation_script_approval_status = 'Rejected')::integer, 0, 0,
             case when s.translation_script_approval_status = 'Approved' then coalesce(d.audio_ms, 0) else 0 end,
             0,
             (s.translation_script_approval_status = 'Approved' and d.audio_ms is null)::integer
      from ${TASK_WORK}
      where s.translation_script_approval_status in ('Approved', 'Rejected') and s.transcript_reviewed_at is not null
      union all
      select t.assigned_to, s.recording_reviewed_at, 0, 0, 0,
             (s.recorded_audio_approval_status = 'Approved')::integer,
             (s.recorded_audio_approval_status = 'Rejected')::integer,
             0,
             case when s.recorded_audio_approval_status = 'Approved' then coalesce(d.recording_ms, 0) else 0 end,
             (s.recorded_audio_approval_status = 'Approved' and d.recording_ms is null)::integer
      from ${TASK_WORK}
      where s.recorded_audio_approval_status in ('Approved', 'Rejected') and s.recording_reviewed_at is not null
      union all
      select t.assigned_to, greatest(s.transcript_reviewed_at, s.recording_reviewed_at), 1, 0, 0, 0, 0, 0, 0, 0
      from tasks t join submissions s on s.task_id = t.id
      where t.is_complete and greatest(s.transcript_reviewed_at, s.recording_reviewed_at) is not null
    ) v (assignee_id, at, completed, approved_transcripts, rejected_transcripts, approved_recordings, rejected_recordings,
         approved_transcript_ms, approved_recording_ms, approved_without_duration)
    group by 1, 2`.execute(db);
  return {
    stored: normalized(stored.rows, ["assigneeId"], COUNT_COLUMNS),
    recomputed: normalized(recomputed.rows, ["assigneeId"], COUNT_COLUMNS),
    storedDays: normalized(storedDays.rows, ["day", "assigneeId"], DAY_COLUMNS),
    recomputedDays: normalized(recomputedDays.rows, ["day", "assigneeId"], DAY_COLUMNS),
  };
}

/** The team report as the single join over every task and submission computed it before the counters. */
async function referenceReport(from: Date | null, to: Date | null) {
  const within = (column: RawBuilder<unknown>) =>
    sql`(${from}::timestamptz is null or ${column} >= ${from}::timestamptz)
        and (${to}::timestamptz is null or ${column} < ${to}::timestamptz)`;
  const transcriptAt = sql`s.transcript_reviewed_at`;
  const recordingAt = sql`s.recording_reviewed_at`;
  const rate = (key: string) => sql`coalesce((select (value #>> '{}')::numeric from settings where key = ${key}), 0)`;
  const bounded = from !== null || to !== null;
  const { rows } = await sql<Record<string, string | number>>`
    select u.id, u.username,
           coalesce(w.tasks, 0) as tasks,
           coalesce(w.completed, 0) as completed,
           coalesce(round(100.0 * w.with_work / nullif(w.tasks, 0), 2), 0) as submissions,
           coalesce(round(w.approved_transcripts * ${rate("transcript_rate_ugx")}
                    + w.approved_recordings * ${rate("recording_rate_ugx")}
                    + (w.transcript_ms + w.recording_ms) / 60000.0 * ${rate("audio_minute_rate_ugx")}), 0) as payment,
           coalesce(w.approved_recordings, 0) as recorded_tasks,
           coalesce(w.approved_transcripts + w.rejected_transcripts
                    ${bounded ? sql`` : sql`+ w.pending_transcripts`}, 0) as translated_scripts,
           coalesce(w.approved_transcripts, 0) as approved_transcripts,
           coalesce(w.approved_recordings, 0) as approved_recordings,
           coalesce(w.pending_transcripts, 0) as pending_transcripts,
           coalesce(w.pending_recordings, 0) as pending_recordings,
           coalesce(w.rejected_transcripts, 0) as rejected_transcripts,
           coalesce(w.rejected_recordings, 0) as rejected_recordings,
           coalesce((w.transcript_ms + w.recording_ms)::float8 / 60000, 0) as audio_minutes,
           coalesce(w.transcript_ms::float8 / 60000, 0) as transcript_audio_minutes,
           coalesce(w.recording_ms::float8 / 60000, 0) as recording_audio_minutes,
           coalesce(w.without_duration, 0) as approved_without_duration
    from users u
    left join (
      select t.assigned_to,
             count(*) as tasks,
             count(*) filter (where t.is_complete
                              and ${within(sql`greatest(s.transcript_reviewed_at, s.recording_reviewed_at)`)}) as completed,
             count(*) filter (where s.translation_script_approval_status <> 'No transcript'
                              or s.recorded_audio_approval_status <> 'No translation audio') as with_work,
             count(*) filter (where s.translation_script_approval_status = 'Approved' and ${within(transcriptAt)})
               as approved_transcripts,
             count(*) filter (where s.recorded_audio_approval_status = 'Approved' and ${within(recordingAt)})
               as approved_recordings,
             count(*) filter (where s.translation_script_approval_status = 'Pending') as pending_transcripts,
             count(*) filter (where s.recorded_audio_approval_status = 'Pending') as pending_recordings,
             count(*) filter (where s.translation_script_approval_status = 'Rejected' and ${within(transcriptAt)})
               as rejected_transcripts,
             count(*) filter (where s.recorded_audio_approval_status = 'Rejected' and ${within(recordingAt)})
               as rejected_recordings,
             coalesce(sum(d.audio_ms) filter (where s.translation_script_approval_status = 'Approved'
                                              and ${within(transcriptAt)}), 0) as transcript_ms,
             coalesce(sum(d.recording_ms) filter (where s.recorded_audio_approval_status = 'Approved'
                                                  and ${within(recordingAt)}), 0) as recording_ms,
             count(*) filter (where s.translation_script_approval_status = 'Approved' and ${within(transcriptAt)}
                              and d.audio_ms is null)
               + count(*) filter (where s.recorded_audio_approval_status = 'Approved' and ${within(recordingAt)}
                                  and d.recording_ms is null) as without_duration
      from ${TASK_WORK}
      group by t.assigned_to
    ) w on w.assigned_to = u.id
    where u.role = 'Staff' and (u.active or w.tasks > 0)
    order by lower(u.username), u.id`.execute(db);
  return rows.map((r) => {
    const out: Record<string, string | number> = { id: String(r.id), username: String(r.username) };
    for (const [k, v] of Object.entries(r)) if (k !== "id" && k !== "username") out[k] = Number(v);
    return out;
  });
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Periods whose ends fall on UTC midnights, Kampala midnights and arbitrary instants, open or not. */
function periods(random: () => number): Array<[Date | null, Date | null]> {
  const midnight = kampalaMidnight();
  const instant = () => new Date(Date.now() - Math.floor(random() * 40 * DAY) + 2 * HOUR);
  const a = instant();
  const b = instant();
  const [early, late] = a.getTime() <= b.getTime() ? [a, new Date(b.getTime() + 1)] : [b, a];
  const utcMidnight = Math.floor(Date.now() / DAY) * DAY;
  return [
    [new Date(midnight - 30 * DAY), new Date(midnight + DAY)],
    [new Date(utcMidnight - 20 * DAY), new Date(utcMidnight - 3 * DAY)],
    [early, late],
    [early, null],
    [null, late],
    [new Date(early.getTime() - (early.getTime() % HOUR)), new Date(early.getTime() + 5 * HOUR)],
    // Inside one UTC day; across one UTC midnight with long partial days on both sides.
    [new Date(utcMidnight - 5 * DAY + HOUR), new Date(utcMidnight - 5 * DAY + 20 * HOUR)],
    [new Date(utcMidnight - 2 * DAY - 20 * HOUR), new Date(utcMidnight - 2 * DAY + 20 * HOUR)],
  ];
}

/** Error codes a refused operation may answer; anything else fails the test. */
const REFUSALS = new Set(["BAD_REQUEST", "CONFLICT", "FORBIDDEN", "NOT_FOUND"]);

describe("assignee_work_counts and assignee_review_days (triggers)", () => {
  it("are back-filled and start equal to the recomputed aggregates", async () => {
    const { stored, recomputed, storedDays, recomputedDays } = await storedAndRecomputed();
    expect(stored).toEqual(recomputed);
    expect(storedDays).toEqual(recomputedDays);
  });

  it("stay exact through a random sequence of workflow operations, and the report equals the single join", async () => {
    const random = prng(20261123);
    const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
    const audios: string[] = [];
    const inactive = new Set<string>();
    const activeStaff = () => staff.filter((s) => !inactive.has(s.id));

    /** Our audios that still exist, each with its task and submission statuses (null when absent). */
    const states = async () =>
      audios.length === 0
        ? []
        : db
            .selectFrom("audios")
            .leftJoin("tasks", "tasks.audioId", "audios.id")
            .leftJoin("submissions", "submissions.taskId", "tasks.id")
            .select([
              "audios.id as audioId",
              "tasks.id as taskId",
              "tasks.assignedTo",
              "submissions.id as submissionId",
              "submissions.translationScriptApprovalStatus as transcript",
              "submissions.recordedAudioApprovalStatus as recording",
              "submissions.transcriptReviewedAt",
              "submissions.recordingReviewedAt",
            ])
            .where("audios.id", "in", audios)
            .orderBy("audios.createdAt")
            .orderBy("audios.id")
            .execute();
    type State = Awaited<ReturnType<typeof states>>[number];
    /** A random audio of ours whose state passes `filter`; undefined when there is none. */
    const someWork = async (filter: (state: State) => boolean = () => true) => pick((await states()).filter(filter));
    const assigneeOf = (userId: string | null | undefined): SessionUser | undefined =>
      staff.find((s) => s.id === userId && !inactive.has(s.id));

    // Each operation answers false when it found nothing to act on.
    const operations: Record<string, () => Promise<boolean>> = {
      assign: async () => {
        const audio = await newAudio(h, admin);
        audios.push(audio.id);
        const to = pick(activeStaff()) ?? staff[0]!;
        await asAdmin.tasks.assign({ audioId: audio.id, staffId: to.id });
        return true;
      },
      bulkAssign: async () => {
        const created = [await newAudio(h, admin), await newAudio(h, admin)];
        audios.push(...created.map((a) => a.id));
        await asAdmin.tasks.bulkAssign({
          assignments: created.map((a) => ({ audioId: a.id, staffId: (pick(activeStaff()) ?? staff[0]!).id })),
        });
        return true;
      },
      reassign: async () => {
        const work = await someWork((w) => w.taskId !== null);
        const to = pick(activeStaff().filter((s) => s.id !== work?.assignedTo));
        if (!work || !to) return false;
        await asAdmin.tasks.reassign({ audioId: work.audioId, staffId: to.id });
        return true;
      },
      saveTranscript: async () => {
        const work = await someWork((w) => assigneeOf(w.assignedTo) !== undefined);
        const by = assigneeOf(work?.assignedTo);
        if (!work || !by) return false;
        await h.caller(by).transcripts.save({ audioId: work.audioId, text: `Draft ${random().toFixed(6)}.` });
        return true;
      },
      uploadRecording: async () => {
        const work = await someWork((w) => assigneeOf(w.assignedTo) !== undefined);
        const by = assigneeOf(work?.assignedTo);
        if (!work || !by) return false;
        await uploadRecording(h.deps, by, { audioId: work.audioId, recordedBy: by.id, file: await tempWav(h) });
        return true;
      },
      recommendedRecording: async () => {
        // Another staff member records an audio recommended to them: it counts for the assignee.
        const work = await someWork((w) => w.transcript !== null && w.transcript !== "No transcript");
        const other = pick(activeStaff().filter((s) => s.id !== work?.assignedTo));
        if (!work?.taskId || !other) return false;
        const already = await db
          .selectFrom("recommendations")
          .select("id")
          .where("taskId", "=", work.taskId)
          .where("recommendedTo", "=", other.id)
          .executeTakeFirst();
        if (!already) await recommend(h, work.audioId, other, admin);
        await uploadRecording(h.deps, other, { audioId: work.audioId, recordedBy: other.id, file: await tempWav(h) });
        return true;
      },
      approveTranscript: async () => {
        const work = await someWork((w) => w.transcript === "Pending");
        if (!work) return false;
        await asAdmin.transcripts.approve({ audioId: work.audioId });
        return true;
      },
      rejectTranscript: async () => {
        const work = await someWork((w) => w.transcript === "Pending");
        if (!work) return false;
        await asAdmin.transcripts.reject({ audioId: work.audioId, reason: "Please check it." });
        return true;
      },
      approveRecording: async () => {
        const work = await someWork((w) => w.recording === "Pending");
        if (!work) return false;
        await asAdmin.recordings.approve({ audioId: work.audioId });
        return true;
      },
      rejectRecording: async () => {
        const work = await someWork((w) => w.recording === "Pending");
        if (!work) return false;
        await asAdmin.recordings.reject({ audioId: work.audioId });
        return true;
      },
      removeTranscript: async () => {
        const work = await someWork((w) => w.transcript !== null && w.transcript !== "No transcript");
        if (!work) return false;
        await asAdmin.transcripts.remove({ audioId: work.audioId });
        return true;
      },
      removeRecording: async () => {
        const work = await someWork((w) => w.recording !== null && w.recording !== "No translation audio");
        if (!work) return false;
        await asAdmin.recordings.remove({ audioId: work.audioId });
        return true;
      },
      setStages: async () => {
        const work = await someWork((w) => w.taskId !== null);
        if (!work?.taskId) return false;
        const stage = () => (random() < 0.5 ? "Completed" : "In Progress");
        await asAdmin.tasks.setStatus({ taskId: work.taskId, translationStatus: stage(), recordingStatus: stage() });
        return true;
      },
      emptySubmission: async () => {
        const audio = await newAudio(h, admin);
        audios.push(audio.id);
        const to = pick(activeStaff()) ?? staff[0]!;
        const task = await asAdmin.tasks.assign({ audioId: audio.id, staffId: to.id });
        await h.caller(to).submissions.ensure({ taskId: task.id });
        return true;
      },
      deleteAudio: async () => {
        // Rather one with work in it: the task and its submission go with the audio.
        const work = (await someWork((w) => w.submissionId !== null)) ?? (await someWork());
        if (!work) return false;
        await asAdmin.audios.delete({ audioId: work.audioId });
        audios.splice(audios.indexOf(work.audioId), 1);
        return true;
      },
      deactivate: async () => {
        // At most two of the four inactive at a time, so work keeps flowing.
        const who = inactive.size >= 2 ? pick(staff.filter((s) => inactive.has(s.id))) : pick(staff);
        if (!who) return false;
        const active = inactive.has(who.id);
        await asAdmin.accounts.setActive({ userId: who.id, active });
        if (active) inactive.delete(who.id);
        else inactive.add(who.id);
        return true;
      },
      backdateReviews: async () => {
        // A direct write of review times (as a data fix or the fixtures would): the triggers follow it.
        const work = await someWork((w) => w.transcriptReviewedAt !== null || w.recordingReviewedAt !== null);
        if (!work?.submissionId) return false;
        const at = () => new Date(Date.now() - Math.floor(random() * 40 * DAY));
        await db
          .updateTable("submissions")
          .set({
            transcriptReviewedAt: work.transcriptReviewedAt && at(),
            recordingReviewedAt: work.recordingReviewedAt && at(),
          })
          .where("id", "=", work.submissionId)
          .execute();
        return true;
      },
      oneStatementFix: async () => {
        // A data fix changing a submission and reassigning its task in one statement: the
        // triggers see both changes at its end, in no particular order.
        const work = await someWork((w) => w.submissionId !== null);
        const to = pick(staff.filter((s) => s.id !== work?.assignedTo));
        if (!work?.taskId || !to) return false;
        await sql`
          with s as (update submissions set recorded_audio_approval_status = 'Rejected', recording_reviewed_at = now()
                     where task_id = ${work.taskId} returning task_id)
          update tasks set assigned_to = ${to.id} where id in (select task_id from s)`.execute(db);
        return true;
      },
      audioDuration: async () => {
        // The waveform job decodes an audio (a duration in seconds), or fails to (null), maybe after approval.
        const work = await someWork();
        if (!work) return false;
        const seconds = random() < 0.2 ? null : Math.round(random() * 72_000) / 10;
        await db.updateTable("audios").set({ durationSeconds: seconds }).where("id", "=", work.audioId).execute();
        return true;
      },
      recordingDuration: async () => {
        // The same for a translated recording (its submission's current one or an older take).
        const work = await someWork((w) => w.submissionId !== null);
        if (!work?.submissionId) return false;
        const takes = await db
          .selectFrom("translatedRecordings")
          .select("id")
          .where("submissionId", "=", work.submissionId)
          .execute();
        const take = pick(takes);
        if (!take) return false;
        const seconds = random() < 0.2 ? null : Math.round(random() * 72_000) / 10;
        await db
          .updateTable("translatedRecordings")
          .set({ durationSeconds: seconds })
          .where("id", "=", take.id)
          .execute();
        return true;
      },
      bulkDurations: async () => {
        // One statement changing many durations (a back-fill): reconciled once, set-based.
        if (audios.length === 0) return false;
        await sql`update audios set duration_seconds = coalesce(duration_seconds, 60) + 1.5
                  where id = any(${audios}::uuid[])`.execute(db);
        return true;
      },
      oneStatementDelete: async () => {
        // A submission and its task deleted in one statement (the audio stays, unassigned).
        const work = await someWork((w) => w.submissionId !== null);
        if (!work?.taskId) return false;
        await sql`
          with s as (delete from submissions where task_id = ${work.taskId} returning task_id)
          delete from tasks where id in (select task_id from s)`.execute(db);
        return true;
      },
    };
    const weights: Array<[string, number]> = [
      ["assign", 5],
      ["bulkAssign", 2],
      ["reassign", 3],
      ["saveTranscript", 6],
      ["uploadRecording", 5],
      ["recommendedRecording", 2],
      ["approveTranscript", 5],
      ["rejectTranscript", 2],
      ["approveRecording", 5],
      ["rejectRecording", 2],
      ["removeTranscript", 2],
      ["removeRecording", 2],
      ["setStages", 2],
      ["emptySubmission", 2],
      ["deleteAudio", 1],
      ["deactivate", 2],
      ["backdateReviews", 6],
      ["oneStatementFix", 1],
      ["oneStatementDelete", 1],
      ["audioDuration", 5],
      ["recordingDuration", 4],
      ["bulkDurations", 1],
    ];
    const total = weights.reduce((sum, [, w]) => sum + w, 0);
    const done: Record<string, number> = {};
    let sawComplete = false;
    let mostDays = 0;

    // Payment includes audio minutes (decision 022) from here on.
    await asAdmin.statistics.setRates({ audioMinute: 37 });
    let sawMinutes = false;

    for (let step = 0; step < 200; step++) {
      let roll = random() * total;
      const [name] = weights.find(([, w]) => (roll -= w) < 0) ?? weights[0]!;
      try {
        if (await operations[name]!()) done[name] = (done[name] ?? 0) + 1;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (!code || !REFUSALS.has(code)) throw error;
      }
      const { stored, recomputed, storedDays, recomputedDays } = await storedAndRecomputed();
      expect(stored, `after step ${step} (${name})`).toEqual(recomputed);
      expect(storedDays, `after step ${step} (${name})`).toEqual(recomputedDays);
      // The list counts (decision 016) go through the same operations.
      const lists = await listCountsStoredAndRecomputed(db);
      expect(lists.stored, `list counts after step ${step} (${name})`).toEqual(lists.recomputed);
      expect(lists.wrongFlags, `has_task after step ${step} (${name})`).toBe(0);
      sawComplete ||= stored.some((r) => r.completed !== 0);
      sawMinutes ||=
        stored.some((r) => r.approvedTranscriptMs !== 0) && stored.some((r) => r.approvedRecordingMs !== 0);
      mostDays = Math.max(mostDays, new Set(storedDays.map((r) => r.day)).size);
      if (step % 10 === 9) {
        for (const [from, to] of [[null, null] as [null, null], ...periods(random)]) {
          const input = { ...(from ? { from: from.toISOString() } : {}), ...(to ? { to: to.toISOString() } : {}) };
          await expect(
            asAdmin.statistics.teamReport(input),
            `after step ${step}: ${JSON.stringify(input)}`,
          ).resolves.toEqual(await referenceReport(from, to));
        }
      }
    }
    // The sequence did real work of every kind.
    for (const [name] of weights) expect(done[name] ?? 0, name).toBeGreaterThan(0);
    expect(sawComplete).toBe(true);
    expect(sawMinutes).toBe(true);
    // Reviews were spread over several days (the backdating), so the periods read days and edges.
    expect(mostDays).toBeGreaterThan(3);
  }, 300_000);

  it("the audio minutes migration goes down and up again, its back-fill counting the durations known", async () => {
    const before = await storedAndRecomputed();
    expect(before.stored.some((r) => r.approvedTranscriptMs !== 0)).toBe(true);
    await audioMinutesMigration.down(db);
    const columns = await sql<{ n: number }>`
      select count(*)::integer as n from information_schema.columns
      where table_name in ('assignee_work_counts', 'assignee_review_days', 'assignee_work_tasks')
        and column_name in ('approved_transcript_ms', 'approved_recording_ms', 'approved_without_duration',
                            'audio_ms', 'recording_ms')`.execute(db);
    expect(columns.rows[0]!.n).toBe(0);
    // The counters work as before meanwhile, and a duration changed then is counted by the back-fill.
    const audio = await newAudio(h, admin);
    await asAdmin.tasks.assign({ audioId: audio.id, staffId: staff[0]!.id });
    await db.updateTable("audios").set({ durationSeconds: 12.5 }).execute();
    await audioMinutesMigration.up(db);
    const after = await storedAndRecomputed();
    expect(after.stored).toEqual(after.recomputed);
    expect(after.storedDays).toEqual(after.recomputedDays);
  });

  it("a truncate of tasks and submissions clears the counters", async () => {
    await sql`truncate tasks cascade`.execute(db);
    const { stored, storedDays } = await storedAndRecomputed();
    expect(stored).toEqual([]);
    expect(storedDays).toEqual([]);
  });
});
