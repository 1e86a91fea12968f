/**
 * List benchmark: seeds a realistic amount of data into a fresh database, then measures the
 * list procedures, the comments of a submission and the search through real tRPC callers:
 * p50/p99/max per call, in ms.
 *
 * The database: with DATABASE_URL, a fresh temporary database `tafsiri_bench_<hex>` on that
 * server (bench/support/bench-database.ts), dropped at the end, also when the run fails or is
 * interrupted; without it, a fresh embedded PGlite (in memory).
 *
 * The data (default 100,000 audios, 50 staff), seeded set-based (`insert … select …
 * generate_series`): audios half Control, half Dementia, uploaded one every 5 minutes (so the
 * newest is now and the oldest about a year ago at 100,000); nine in ten have a task, spread
 * over the staff; half of the tasks have a submission, whose statuses are spread as a running
 * project's: transcript 5% 'No transcript', 15% Pending, 70% Approved, 10% Rejected; recording
 * 15% 'No translation audio', 15% Pending, 62% Approved, 8% Rejected; approval_status, the task's
 * stage statuses and is_complete derived as the reviews derive them (services/submissions.ts,
 * applyTransition), so about 43% Approved, 17% Rejected, 28% 'Needs review'. A submission's
 * updated_at lies anywhere between its task's creation and now, so the Submissions list's order
 * is not the upload order. One submission in five has 1 to 3 comments (the assignee and the
 * admin in turn); one submission has 50 (measured by comments.list, as the admin and as its
 * assignee, the staff member whose lists are measured). One task in eight (one in four of those
 * with a submission) is recommended to the next staff member.
 *
 * Usage: npm run bench -- lists [--audios 100000] [--runs 200] [--explain 20]
 *   --explain <ms>  after a measurement whose p50 exceeds <ms>, prints the SQL, parameters and
 *                   EXPLAIN (ANALYZE, BUFFERS) of every statement one of its calls runs (the call
 *                   with i = 1: for the random-page measurements, a page deep in the list).
 */
import { sql } from "kysely";
import type { DbHandle } from "@tafsiri/db";
import { appRouter, createCallerFactory, type AppDeps, type SessionUser } from "@tafsiri/api";
import { benchOptions } from "./support/args";
import { withAppDeps } from "./support/app-deps";
import { seedBenchUsers } from "./support/bench-users";
import { approvalStatus, deriveTaskStatuses, recordingStatus, transcriptStatus } from "./support/review-statuses";
import { seedAudios } from "./support/seed-audios";
import { census } from "./support/census";
import { explainCall } from "./support/explain";
import { measure, timedSeconds } from "./support/measure";
import { onTemporaryDatabase, type BenchEnvironment } from "./support/temporary-database";

const { size: audioCount, runs, explainOverMs } = benchOptions("audios", 100_000);
const STAFF_COUNT = 50;
/** The submission with many comments (comments.list). */
const THREAD_LENGTH = 50;

type Db = DbHandle["db"];

interface Seeded {
  admin: SessionUser;
  staff: SessionUser;
  /** An audio of `staff` whose submission has THREAD_LENGTH comments. */
  threadAudioId: string;
}

async function seed(db: Db): Promise<Seeded> {
  const { admin, staff: staffRows } = await seedBenchUsers(db, STAFF_COUNT);
  const staffIds = sql`array[${sql.join(staffRows.map((s) => sql`${s.id}::uuid`))}]`;
  await seedAudios(db, audioCount, admin.id);
  // Nine audios in ten get a task, spread over the staff.
  await sql`
    insert into tasks (audio_id, assigned_to, created_at, updated_at)
    select a.id, (${staffIds})[1 + (row_number() over (order by a.id)) % ${STAFF_COUNT}],
           a.created_at + interval '1 hour', a.created_at + interval '1 hour'
    from audios a where right(a.filename, 1) <> '0'`.execute(db);
  // Half of the tasks have a submission; t and r are the transcript's and the recording's
  // percentiles, u where updated_at lies between the task's creation and now.
  await sql`
    insert into submissions (task_id, created_by, submission_date, translation_script,
                             translation_script_approval_status, recorded_audio, recorded_audio_approval_status,
                             approval_status, recorded_by, updated_at)
    select id, assigned_to, updated_at - (u % 86400) * interval '1 second' / 10,
           case when transcript <> 'No transcript' then 'transcripts/' || id || '.cha' end, transcript,
           case when recording <> 'No translation audio' then 'recordings/' || id || '.webm' end, recording,
           ${approvalStatus("transcript", "recording")},
           case when recording <> 'No translation audio' then assigned_to end, updated_at
    from (
      select id, assigned_to, u,
             ${transcriptStatus("t")} as transcript,
             ${recordingStatus("r")} as recording,
             created_at + (now() - created_at) * (u / 1000000.0) as updated_at
      from (
        select t.id, t.assigned_to, t.created_at,
               abs(hashtext(t.id::text || ':t')) % 100 as t,
               abs(hashtext(t.id::text || ':r')) % 100 as r,
               abs(hashtext(t.id::text || ':u')) % 1000000 as u
        from tasks t where (hashtext(t.id::text) % 2) = 0
      ) h
    ) s`.execute(db);
  // The tasks' stage statuses follow their submissions' (SPEC §4, applyTransition).
  await deriveTaskStatuses(db, { updatedAt: true });
  // One submission in five has 1 to 3 comments, the assignee and the admin in turn.
  await sql`
    insert into comments (submission_id, text, posted_by, posted_at)
    select s.id, 'Bench comment ' || n || ' on this submission.',
           case when n % 2 = 1 then s.created_by else ${admin.id}::uuid end,
           s.submission_date + n * interval '10 minutes'
    from submissions s, generate_series(1, 1 + abs(hashtext(s.id::text || ':c')) % 3) n
    where abs(hashtext(s.id::text || ':c')) % 5 = 0`.execute(db);
  // The staff member measured is the assignee of the first submission without comments, which
  // gets THREAD_LENGTH of them.
  const thread = await sql<{ submissionId: string; audioId: string; assignedTo: string }>`
    select s.id as submission_id, t.audio_id, t.assigned_to
    from submissions s join tasks t on t.id = s.task_id
    where not exists (select from comments c where c.submission_id = s.id)
    order by s.id limit 1`.execute(db);
  const target = thread.rows[0];
  const staff = staffRows.find((s) => s.id === target?.assignedTo);
  if (!target || !staff) throw new Error("No submission without comments: seed more audios.");
  await sql`
    insert into comments (submission_id, text, posted_by, posted_at)
    select ${target.submissionId}, 'Bench thread comment ' || n || ', a sentence or two of feedback on the work.',
           case when n % 2 = 1 then ${staff.id}::uuid else ${admin.id}::uuid end,
           now() - (${THREAD_LENGTH} - n) * interval '1 hour'
    from generate_series(1, ${THREAD_LENGTH}) n`.execute(db);
  // One task in eight (one in four of those with a submission) is recommended to the next staff member.
  await sql`
    insert into recommendations (task_id, recommended_to, recommended_by, created_at)
    select t.id, (${staffIds})[1 + (row_number() over (order by t.id) + 1) % ${STAFF_COUNT}],
           t.assigned_to, t.created_at + interval '1 hour'
    from tasks t join submissions s on s.task_id = t.id where (hashtext(t.id::text) % 4) = 0`.execute(db);
  await sql`vacuum analyze`.execute(db);
  return { admin, staff, threadAudioId: target.audioId };
}

const caller = createCallerFactory(appRouter);
let seeded: Seeded;
function callersFor(deps: AppDeps) {
  return { asAdmin: caller({ ...deps, user: seeded.admin }), asStaff: caller({ ...deps, user: seeded.staff }) };
}
type Callers = ReturnType<typeof callersFor>;
type Call = (callers: Callers, i: number) => Promise<unknown>;

async function run({ where, db, dataDir }: BenchEnvironment): Promise<void> {
  const { value, seconds } = await timedSeconds(() => seed(db));
  seeded = value;
  await withAppDeps(db, dataDir, {}, async (deps) => {
    const callers = callersFor(deps);
    console.log(
      `Database: ${where}; ${audioCount.toLocaleString("en")} audios, ${STAFF_COUNT} staff; ${runs} runs each (ms)`,
    );
    const seededRows = await census(db, {
      tasks: sql`(select count(*) from tasks)`,
      submissions: sql`(select count(*) from submissions)`,
      comments: sql`(select count(*) from comments)`,
      recommendations: sql`(select count(*) from recommendations)`,
    });
    console.log(`Seeded in ${seconds.toFixed(1)} s: ${seededRows}`);

    /** Measures `call`; over --explain (p50), explains the statements of its call i = 1. */
    async function bench(name: string, call: Call): Promise<void> {
      const { p50 } = await measure(name, runs, (i) => call(callers, i));
      if (explainOverMs !== undefined && p50 > explainOverMs)
        await explainCall(db, (recorded) => call(callersFor({ ...deps, db: recorded }), 1));
    }

    const { asAdmin } = callers;
    const taskPages = Math.max(1, (await asAdmin.tasks.list({ page: 1, limit: 10 })).totalPages);
    await bench("tasks.list admin, random page of 10", (c, i) =>
      c.asAdmin.tasks.list({ page: 1 + ((i * 7919) % taskPages), limit: 10 }),
    );
    await bench("tasks.list staff, page 1 of 10", (c) => c.asStaff.tasks.list({ page: 1, limit: 10 }));
    await bench("audios.list Control, random page of 50", (c, i) =>
      c.asAdmin.audios.list({ category: "Control", page: 1 + ((i * 31) % 100), limit: 50 }),
    );
    // The unassigned audios are those whose number ends in 0: all Control, so Dementia has none
    // (the whole category is checked for nothing).
    await bench("audios.unassigned Control, page 1 of 100", (c) =>
      c.asAdmin.audios.unassigned({ category: "Control", page: 1, limit: 100 }),
    );
    await bench("audios.unassigned Dementia (none), page 1 of 100", (c) =>
      c.asAdmin.audios.unassigned({ category: "Dementia", page: 1, limit: 100 }),
    );

    // Submissions (SPEC §2.7): 20 per page, newest change first.
    const firstPage = await asAdmin.submissions.list({ page: 1 });
    const lastPage = Math.max(1, firstPage.totalPages);
    const { counts } = firstPage;
    console.log(
      `Submissions: ${counts.all} all, ${counts.needsReview} needs review, ${counts.approved} approved, ` +
        `${counts.rejected} rejected; ${lastPage} pages of 20`,
    );
    await bench("submissions.list admin, page 1", (c) => c.asAdmin.submissions.list({ page: 1 }));
    await bench(`submissions.list admin, last page (${lastPage})`, (c) =>
      c.asAdmin.submissions.list({ page: lastPage }),
    );
    await bench("submissions.list admin, 'Needs review' page 1", (c) =>
      c.asAdmin.submissions.list({ page: 1, status: "needsReview" }),
    );
    await bench("submissions.list staff, page 1", (c) => c.asStaff.submissions.list({ page: 1 }));

    const thread = await asAdmin.comments.list({ audioId: seeded.threadAudioId });
    await bench(`comments.list admin, submission of ${thread.length} comments`, (c) =>
      c.asAdmin.comments.list({ audioId: seeded.threadAudioId }),
    );
    await bench(`comments.list staff, submission of ${thread.length} comments`, (c) =>
      c.asStaff.comments.list({ audioId: seeded.threadAudioId }),
    );

    // Recommended Recordings (SPEC §2.9).
    const recommendationPages = Math.max(1, (await asAdmin.recommendations.list({ page: 1, limit: 10 })).totalPages);
    await bench("recommendations.list admin, random page of 10", (c, i) =>
      c.asAdmin.recommendations.list({ page: 1 + ((i * 7919) % recommendationPages), limit: 10 }),
    );
    await bench("recommendations.list staff, page 1 of 10", (c) =>
      c.asStaff.recommendations.list({ page: 1, limit: 10 }),
    );

    // Keywords of 3 to 5 digits found inside filenames ('bench_<n>'): from a few hundred matches down to 1.
    const keyword = (i: number) => String((i * 7919) % audioCount).slice(0, 3 + (i % 3));
    await bench("search.audios admin, 3-5 digit keyword", (c, i) => c.asAdmin.search.audios({ q: keyword(i) }));
    await bench("search.audios staff, 3-5 digit keyword", (c, i) => c.asStaff.search.audios({ q: keyword(i) }));
    const wide = (await asAdmin.search.audios({ q: "bench_1" })).length;
    await bench(`search.audios admin, 'bench_1' (${wide} results)`, (c) => c.asAdmin.search.audios({ q: "bench_1" }));
  });
}

await onTemporaryDatabase(run);
