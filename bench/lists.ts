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
 *   --explain <ms>  after a measurement whose p50 exceeds <ms>, prints EXPLAIN (ANALYZE, BUFFERS)
 *                   of every SQL statement one of its calls runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import {
  CompiledQuery,
  PostgresQueryCompiler,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { createDb, migrateToLatest, type DbHandle } from "@tafsiri/db";
import {
  appRouter,
  createCallerFactory,
  createEventBus,
  createLocalStorage,
  type AppDeps,
  type SessionUser,
} from "@tafsiri/api";
import { createUser } from "@tafsiri/api/testing/services";
import { benchDatabase, type BenchDatabase } from "./support/bench-database";
import { summarize } from "./support/stats";

const { values } = parseArgs({
  options: {
    audios: { type: "string", default: "100000" },
    runs: { type: "string", default: "200" },
    explain: { type: "string" },
  },
});
const audioCount = wholeNumber("audios", values.audios, 100);
const runs = wholeNumber("runs", values.runs, 1);
const explainOverMs = values.explain === undefined ? undefined : Number(values.explain);
if (explainOverMs !== undefined && !(explainOverMs >= 0)) throw new Error("--explain must be a number of ms.");
const STAFF_COUNT = 50;
/** The submission with many comments (comments.list). */
const THREAD_LENGTH = 50;

function wholeNumber(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be a whole number of at least ${min} (got ${value}).`);
  return n;
}

type Db = DbHandle["db"];

interface Seeded {
  admin: SessionUser;
  staff: SessionUser;
  /** An audio of `staff` whose submission has THREAD_LENGTH comments. */
  threadAudioId: string;
}

function sessionUser(user: { id: string; username: string; email: string }, role: SessionUser["role"]): SessionUser {
  return { id: user.id, username: user.username, email: user.email, role, active: true };
}

async function seed(db: Db): Promise<Seeded> {
  const admin = await createUser(db, {
    username: "bench-admin",
    email: "bench-admin@example.test",
    password: "Bench#2026x",
    role: "Admin",
  });
  const staffRows = [];
  for (let i = 0; i < STAFF_COUNT; i++) {
    staffRows.push(
      await createUser(db, {
        username: `bench-staff-${i}`,
        email: `bench-staff-${i}@example.test`,
        password: "Bench#2026x",
        role: "Staff",
      }),
    );
  }
  const staffIds = sql`array[${sql.join(staffRows.map((s) => sql`${s.id}::uuid`))}]`;
  await sql`
    insert into audios (filename, category, file_key, mime_type, size_bytes, uploaded_by, created_at)
    select 'bench_' || g, case when g % 2 = 0 then 'Control' else 'Dementia' end, 'audios/bench_' || g || '.wav',
           'audio/wav', 1000, ${admin.id}, now() - g * interval '5 minutes'
    from generate_series(1, ${audioCount}) g`.execute(db);
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
           case when transcript = 'Approved' and recording = 'Approved' then 'Approved'
                when transcript = 'Rejected' or recording = 'Rejected' then 'Rejected'
                else 'Pending' end,
           case when recording <> 'No translation audio' then assigned_to end, updated_at
    from (
      select id, assigned_to, u,
             case when t < 5 then 'No transcript' when t < 20 then 'Pending' when t < 90 then 'Approved'
                  else 'Rejected' end as transcript,
             case when r < 15 then 'No translation audio' when r < 30 then 'Pending' when r < 92 then 'Approved'
                  else 'Rejected' end as recording,
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
  await sql`
    update tasks t
    set translation_status = case when s.translation_script_approval_status = 'Approved' then 'Completed'
                                  else 'In Progress' end,
        recording_status = case when s.recorded_audio_approval_status = 'Approved' then 'Completed'
                                else 'In Progress' end,
        is_complete = s.approval_status = 'Approved',
        updated_at = s.updated_at
    from submissions s where s.task_id = t.id`.execute(db);
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
  return { admin: sessionUser(admin, "Admin"), staff: sessionUser(staff, "Staff"), threadAudioId: target.audioId };
}

/** Counts of the seeded rows, for the header. */
async function census(db: Db): Promise<string> {
  const { rows } = await sql<Record<string, string>>`
    select (select count(*) from tasks) as tasks, (select count(*) from submissions) as submissions,
           (select count(*) from comments) as comments, (select count(*) from recommendations) as recommendations`.execute(
    db,
  );
  const r = rows[0]!;
  return Object.entries(r)
    .map(([k, v]) => `${Number(v).toLocaleString("en")} ${k}`)
    .join(", ");
}

/**
 * Collects the SQL of the statements run through the database it is plugged into. A query
 * builder used as a subquery is transformed too but never executed: only the queries whose
 * results come back are kept.
 */
class QueryRecorder implements KyselyPlugin {
  readonly executed: CompiledQuery[] = [];
  private readonly compiled = new Map<unknown, CompiledQuery>();
  private readonly compiler = new PostgresQueryCompiler();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.compiled.set(args.queryId, this.compiler.compileQuery(args.node, args.queryId));
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const query = this.compiled.get(args.queryId);
    if (query) this.executed.push(query);
    return Promise.resolve(args.result);
  }
}

/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of every statement call i = 1 runs (i = 0 is page 1 of the
 * random-page measurements, i = 1 a page deep in the list).
 */
async function explain(db: Db, deps: AppDeps, call: Call): Promise<void> {
  const recorder = new QueryRecorder();
  await call(callersFor({ ...deps, db: db.withPlugin(recorder) }), 1);
  for (const query of recorder.executed) {
    console.log(`  -- ${query.sql}\n  -- parameters: ${JSON.stringify(query.parameters)}`);
    const plan = await db.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]),
    );
    for (const row of plan.rows) console.log(`  ${Object.values(row)[0]}`);
  }
}

const caller = createCallerFactory(appRouter);
let seeded: Seeded;
function callersFor(deps: AppDeps) {
  return { asAdmin: caller({ ...deps, user: seeded.admin }), asStaff: caller({ ...deps, user: seeded.staff }) };
}
type Callers = ReturnType<typeof callersFor>;
type Call = (callers: Callers, i: number) => Promise<unknown>;

async function run(bench: BenchDatabase, handle: DbHandle, dataDir: string): Promise<void> {
  const db = handle.db;
  await migrateToLatest(db);
  const seedStart = performance.now();
  seeded = await seed(db);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const events = await createEventBus({ db });
  try {
    const deps: AppDeps = {
      db,
      storage: createLocalStorage(path.join(dataDir, "files")),
      jwtSecret: new TextEncoder().encode("bench-secret-bench-secret-bench-secret"),
      events,
    };
    const callers = callersFor(deps);
    const where = bench.name ? `${bench.label}, temporary database ${bench.name}` : bench.label;
    console.log(
      `Database: ${where}; ${audioCount.toLocaleString("en")} audios, ${STAFF_COUNT} staff; ${runs} runs each (ms)`,
    );
    console.log(`Seeded in ${seedSeconds.toFixed(1)} s: ${await census(db)}`);

    async function measure(name: string, call: Call): Promise<void> {
      for (let i = 0; i < 10; i++) await call(callers, i);
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        await call(callers, i);
        samples.push(performance.now() - start);
      }
      const { p50, p99, max } = summarize(samples);
      console.log(
        `${name.padEnd(52)} ${JSON.stringify({ p50: p50.toFixed(2), p99: p99.toFixed(2), max: max.toFixed(2) })}`,
      );
      if (explainOverMs !== undefined && p50 > explainOverMs) await explain(db, deps, call);
    }

    const { asAdmin } = callers;
    const taskPages = Math.max(1, (await asAdmin.tasks.list({ page: 1, limit: 10 })).totalPages);
    await measure("tasks.list admin, random page of 10", (c, i) =>
      c.asAdmin.tasks.list({ page: 1 + ((i * 7919) % taskPages), limit: 10 }),
    );
    await measure("tasks.list staff, page 1 of 10", (c) => c.asStaff.tasks.list({ page: 1, limit: 10 }));
    await measure("audios.list Control, random page of 50", (c, i) =>
      c.asAdmin.audios.list({ category: "Control", page: 1 + ((i * 31) % 100), limit: 50 }),
    );
    // The unassigned audios are those whose number ends in 0: all Control, so Dementia has none
    // (the whole category is checked for nothing).
    await measure("audios.unassigned Control, page 1 of 100", (c) =>
      c.asAdmin.audios.unassigned({ category: "Control", page: 1, limit: 100 }),
    );
    await measure("audios.unassigned Dementia (none), page 1 of 100", (c) =>
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
    await measure("submissions.list admin, page 1", (c) => c.asAdmin.submissions.list({ page: 1 }));
    await measure(`submissions.list admin, last page (${lastPage})`, (c) =>
      c.asAdmin.submissions.list({ page: lastPage }),
    );
    await measure("submissions.list admin, 'Needs review' page 1", (c) =>
      c.asAdmin.submissions.list({ page: 1, status: "needsReview" }),
    );
    await measure("submissions.list staff, page 1", (c) => c.asStaff.submissions.list({ page: 1 }));

    const thread = await asAdmin.comments.list({ audioId: seeded.threadAudioId });
    await measure(`comments.list admin, submission of ${thread.length} comments`, (c) =>
      c.asAdmin.comments.list({ audioId: seeded.threadAudioId }),
    );
    await measure(`comments.list staff, submission of ${thread.length} comments`, (c) =>
      c.asStaff.comments.list({ audioId: seeded.threadAudioId }),
    );

    // Recommended Recordings (SPEC §2.9).
    const recommendationPages = Math.max(1, (await asAdmin.recommendations.list({ page: 1, limit: 10 })).totalPages);
    await measure("recommendations.list admin, random page of 10", (c, i) =>
      c.asAdmin.recommendations.list({ page: 1 + ((i * 7919) % recommendationPages), limit: 10 }),
    );
    await measure("recommendations.list staff, page 1 of 10", (c) =>
      c.asStaff.recommendations.list({ page: 1, limit: 10 }),
    );

    // Keywords of 3 to 5 digits found inside filenames ('bench_<n>'): from a few hundred matches down to 1.
    const keyword = (i: number) => String((i * 7919) % audioCount).slice(0, 3 + (i % 3));
    await measure("search.audios admin, 3-5 digit keyword", (c, i) => c.asAdmin.search.audios({ q: keyword(i) }));
    await measure("search.audios staff, 3-5 digit keyword", (c, i) => c.asStaff.search.audios({ q: keyword(i) }));
    const wide = (await asAdmin.search.audios({ q: "bench_1" })).length;
    await measure(`search.audios admin, 'bench_1' (${wide} results)`, (c) => c.asAdmin.search.audios({ q: "bench_1" }));
  } finally {
    await events.close();
  }
}

const bench = await benchDatabase(process.env.DATABASE_URL);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-"));
let handle: DbHandle | undefined;
let cleaned: Promise<void> | undefined;
/** Closes the connections, drops the temporary database and removes the files; once. */
function cleanUp(): Promise<void> {
  cleaned ??= (async () => {
    try {
      await handle?.close();
    } catch {
      // the drop below ends the connections anyway
    }
    await bench.drop();
    rmSync(dataDir, { recursive: true, force: true });
  })();
  return cleaned;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: dropping the temporary database.`);
    void cleanUp().finally(() => process.exit(130));
  });
}
try {
  handle = await createDb({ databaseUrl: bench.url });
  await run(bench, handle, dataDir);
} finally {
  await cleanUp();
}
