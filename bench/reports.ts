/**
 * Report benchmark (issue 9): seeds a fresh database, then measures the Dashboard's statistics
 * procedures through real tRPC callers as an admin: p50/p99/max per call, in ms.
 *
 * The database: with DATABASE_URL, a fresh temporary database `tafsiri_bench_<hex>` on that
 * server (bench/support/bench-database.ts), dropped at the end, also when the run fails or is
 * interrupted; without it, a fresh embedded PGlite (in memory).
 *
 * The data (default 100,000 tasks over 200 staff), seeded set-based: one audio per task, uploaded
 * one every 5 minutes (the oldest about a year ago); tasks spread round-robin over the staff (one
 * staff member in ten inactive); 85% of the tasks have a submission: transcript 5% 'No
 * transcript', 15% Pending, 70% Approved, 10% Rejected; recording 15% 'No translation audio',
 * 15% Pending, 62% Approved, 8% Rejected; approval_status, stage statuses and is_complete derived
 * as the reviews derive them; a reviewed output's review time lies between its task's creation
 * and now (so a month holds about a twelfth of the reviews); submission dates spread over the
 * same span, some today and yesterday.
 *
 * Usage: npm run bench -- reports [--tasks 100000] [--runs 200] [--explain 20]
 *   --explain <ms>  after a measurement whose p99 exceeds <ms>, prints the SQL, parameters and
 *                   EXPLAIN (ANALYZE, BUFFERS) of every statement one of its calls runs (the call
 *                   with i = 0; a report runs one statement).
 */
import { sql } from "kysely";
import type { DbHandle } from "@tafsiri/db";
import { appRouter, createCallerFactory, type SessionUser } from "@tafsiri/api";
import { benchOptions } from "./support/args";
import { withAppDeps } from "./support/app-deps";
import { seedBenchUsers } from "./support/bench-users";
import { approvalStatus, deriveTaskStatuses, recordingStatus, transcriptStatus } from "./support/review-statuses";
import { seedAudios } from "./support/seed-audios";
import { census } from "./support/census";
import { explainCall } from "./support/explain";
import { measure, timedSeconds } from "./support/measure";
import { onTemporaryDatabase, type BenchEnvironment } from "./support/temporary-database";

const { size: taskCount, runs, explainOverMs } = benchOptions("tasks", 100_000);
const STAFF_COUNT = 200;

type Db = DbHandle["db"];

async function seed(db: Db): Promise<SessionUser> {
  // One staff member in ten is inactive.
  const { admin } = await seedBenchUsers(db, STAFF_COUNT, { inactiveEvery: 10 });
  await seedAudios(db, taskCount, admin.id);
  await sql`
    insert into tasks (audio_id, assigned_to, created_at, updated_at)
    select a.id, s.id, a.created_at + interval '1 hour', a.created_at + interval '1 hour'
    from (select id, created_at, row_number() over (order by id) % ${STAFF_COUNT} as k from audios) a
    join (select id, row_number() over (order by id) - 1 as k from users where role = 'Staff') s on s.k = a.k`.execute(
    db,
  );
  // t, r: the transcript's and recording's percentiles; ut, ur: where their review time lies
  // between the task's creation and now; d: where the submission date lies.
  await sql`
    insert into submissions (task_id, created_by, submission_date, translation_script,
                             translation_script_approval_status, recorded_audio, recorded_audio_approval_status,
                             approval_status, recorded_by, updated_at, transcript_reviewed_at, recording_reviewed_at)
    select id, assigned_to, created_at + (now() - created_at) * d,
           case when transcript <> 'No transcript' then 'transcripts/' || id || '.cha' end, transcript,
           case when recording <> 'No translation audio' then 'recordings/' || id || '.webm' end, recording,
           ${approvalStatus("transcript", "recording")},
           case when recording <> 'No translation audio' then assigned_to end,
           now(),
           case when transcript in ('Approved', 'Rejected') then created_at + (now() - created_at) * ut end,
           case when recording in ('Approved', 'Rejected') then created_at + (now() - created_at) * ur end
    from (
      select id, assigned_to, created_at, ut, ur, d,
             ${transcriptStatus("t")} as transcript,
             ${recordingStatus("r")} as recording
      from (
        select t.id, t.assigned_to, t.created_at,
               abs(hashtext(t.id::text || ':t')) % 100 as t,
               abs(hashtext(t.id::text || ':r')) % 100 as r,
               (abs(hashtext(t.id::text || ':ut')) % 1000000) / 1000000.0 as ut,
               (abs(hashtext(t.id::text || ':ur')) % 1000000) / 1000000.0 as ur,
               (abs(hashtext(t.id::text || ':d')) % 1000000) / 1000000.0 as d
        from tasks t where abs(hashtext(t.id::text)) % 100 < 85
      ) h
    ) s`.execute(db);
  await deriveTaskStatuses(db, { updatedAt: false });
  await sql`vacuum analyze`.execute(db);
  return admin;
}

const caller = createCallerFactory(appRouter);
type Caller = ReturnType<typeof caller>;
type Call = (c: Caller, i: number) => Promise<unknown>;

async function run({ where, db, dataDir }: BenchEnvironment): Promise<void> {
  const { value: admin, seconds } = await timedSeconds(() => seed(db));
  await withAppDeps(db, dataDir, { timezone: "Africa/Kampala" }, async (deps) => {
    const asAdmin = caller({ ...deps, user: admin });
    console.log(
      `Database: ${where}; ${taskCount.toLocaleString("en")} tasks, ${STAFF_COUNT} staff; ${runs} runs each (ms)`,
    );
    const seededRows = await census(db, {
      staff: sql`(select count(*) from users where role = 'Staff')`,
      tasks: sql`(select count(*) from tasks)`,
      submissions: sql`(select count(*) from submissions)`,
      "complete tasks": sql`(select count(*) from tasks where is_complete)`,
    });
    console.log(`Seeded in ${seconds.toFixed(1)} s: ${seededRows}`);

    /** Measures `call`; over --explain (p99), explains the statement of its call i = 0. */
    async function bench(name: string, call: Call): Promise<void> {
      const { p99 } = await measure(name, runs, (i) => call(asAdmin, i));
      if (explainOverMs !== undefined && p99 > explainOverMs)
        await explainCall(db, (recorded) => call(caller({ ...deps, db: recorded, user: admin }), 0));
    }

    const month = new Date();
    const firstOf = (monthsAhead: number) => {
      const d = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + monthsAhead, 1));
      return d.toISOString().slice(0, 10);
    };
    const monthStart = firstOf(0);
    const lastMonthStart = firstOf(-1);
    const nextMonthStart = firstOf(1);
    const yearAgo = firstOf(-11);
    const report = await asAdmin.statistics.teamReport({});
    const inMonth = await asAdmin.statistics.teamReport({ from: monthStart });
    const total = (rows: typeof report) =>
      rows.reduce((sum, r) => sum + r.approvedTranscripts + r.approvedRecordings, 0);
    console.log(
      `Team report: ${report.length} rows; ${total(report).toLocaleString("en")} approvals all time, ` +
        `${total(inMonth).toLocaleString("en")} since ${monthStart}`,
    );
    await bench("statistics.overview (cards)", (c) => c.statistics.overview());
    await bench("statistics.engagement (200 staff)", (c) => c.statistics.engagement());
    await bench("statistics.teamReport all time", (c) => c.statistics.teamReport({}));
    await bench(`statistics.teamReport this month (from ${monthStart})`, (c) =>
      c.statistics.teamReport({ from: monthStart }),
    );
    // What the Dashboard's period menu sends: a month [from, to), midnights in Africa/Kampala (so
    // partial UTC days at both ends), and a custom year.
    await bench(`statistics.teamReport last month (${lastMonthStart} to ${monthStart})`, (c) =>
      c.statistics.teamReport({ from: lastMonthStart, to: monthStart }),
    );
    await bench(`statistics.teamReport a year (${yearAgo} to ${nextMonthStart})`, (c) =>
      c.statistics.teamReport({ from: yearAgo, to: nextMonthStart }),
    );
    await bench("statistics.rates", (c) => c.statistics.rates());
  });
}

await onTemporaryDatabase(run);
