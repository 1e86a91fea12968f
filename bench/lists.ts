/**
 * List benchmark (decision 016 for the counts; participants and the study balance, decision 024; speech measures, decision 035): every page, report, search and count the web app or the REST
 * layer serves, timed through real tRPC callers (the REST paths call the same services) on
 * `npm run seed`'s project data, one call after another: p50/p99/max per call in ms, and PASS or
 * FAIL against the targets of support/targets.ts (server time p99 under 100 ms on PostgreSQL, the team report
 * under 50 ms; under 250 ms on PGlite). Exits 1 when a line fails.
 *
 * The database: by default a fresh temporary one (DATABASE_URL's server, or an in-memory PGlite)
 * seeded now with `--audios` audios (default 100,000) and `--staff` staff (default 200) and dropped
 * afterwards; with `--existing`, the database `npm start` uses as `npm run seed` left it. The
 * calls act as the oldest admin and as the active staff member with the most tasks.
 *
 * Two parts, both by default (`--part calls` or `--part http` for one):
 * - calls: each call timed one after another through tRPC callers in this process (below);
 * - http (PostgreSQL only): the real server as a child process loaded by autocannon, every list page
 *   over tRPC and over its REST path, and the team report, each against tRPC accounts.me measured in
 *   the same run (support/http-lists.ts: at least half its requests per second, p99 under 100 ms).
 *
 * Usage: npm run bench -- lists [--audios 100000] [--staff 200] [--existing] [--runs 200] [--explain 20] [--only text]
 *          [--part calls|http] [--connections 20] [--duration 10] [--password P]
 *   --only <text>   measures only the lines whose name contains <text> (e.g. --only reviewers; several texts
 *                   separated by commas: any of them)
 *   --password <p>  the seeded accounts' password for the http part (the one given to `npm run seed -- --password`;
 *                   default Bench#2026x, the temporary seed's)
 *   --explain <ms>  after a measurement whose p99 exceeds <ms>, prints the SQL, parameters and
 *                   EXPLAIN (ANALYZE, BUFFERS) of every statement its call i = 1 runs.
 */
import { sql } from "kysely";
import { appRouter, createCallerFactory, type AppDeps, type SessionUser } from "@tafsiri/api";
import { reviewerTotals, reviewsPerDay } from "@tafsiri/db/repositories/reviewer-figures";
import { refreshSpeechMeasureGroups } from "@tafsiri/db/repositories/speech-measures";
import { withAppDeps } from "./support/app-deps";
import { wholeNumber } from "./support/args";
import { httpListPart, type HttpListOptions } from "./support/http-lists";
import { explainCall } from "./support/explain";
import { measure } from "./support/measure";
import { onSeededDatabase, seededOptions, type SeededEnvironment } from "./support/seeded-database";
import { p99TargetMs, verdict, Verdicts } from "./support/targets";

const options = seededOptions({
  only: undefined,
  part: undefined,
  connections: "20",
  duration: "10",
  password: "Bench#2026x",
});
const only = options.extra.only;
const { runs, explainOverMs } = options;
const part = options.extra.part;
if (part !== undefined && part !== "calls" && part !== "http")
  throw new Error(`--part must be calls or http (got ${part}).`);
const httpOptions: HttpListOptions = {
  connections: wholeNumber("connections", options.extra.connections ?? "20", 1),
  duration: wholeNumber("duration", options.extra.duration ?? "10", 1),
  password: options.extra.password ?? "Bench#2026x",
  only,
};
const TIME_ZONE = "Africa/Kampala";

const caller = createCallerFactory(appRouter);
type Caller = ReturnType<typeof caller>;
interface Callers {
  asAdmin: Caller;
  asStaff: Caller;
}
type Call = (c: Callers, i: number) => Promise<unknown>;

/** YYYY-MM-DD of `date` in TIME_ZONE. */
function dayOf(date: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE }).format(date);
}

async function run(env: SeededEnvironment): Promise<void> {
  const verdicts = new Verdicts();
  if (part !== "http") await callsPart(env, verdicts);
  if (part !== "calls") await httpListPart(env, httpOptions, verdicts);
  verdicts.finish();
}

/** The calls part: every page, report, search and count timed one call after another through tRPC callers. */
async function callsPart(env: SeededEnvironment, verdicts: Verdicts): Promise<void> {
  const { db, admin, staff, engine } = env;
  await withAppDeps(db, env.dataDir, { timezone: TIME_ZONE }, async (deps) => {
    const callersFor = (d: AppDeps, a: SessionUser, s: SessionUser): Callers => ({
      asAdmin: caller({ ...d, user: a }),
      asStaff: caller({ ...d, user: s }),
    });
    const callers = callersFor(deps, admin, staff);
    console.log(
      `\nDatabase: ${env.where}; as admin ${admin.username} and staff ${staff.username}; ${runs} runs each (ms)`,
    );

    /** Measures `call` against the target of `kind`; over --explain (p99), explains its call i = 1. */
    async function bench(name: string, call: Call, kind: "list" | "team report" = "list"): Promise<void> {
      if (only !== undefined && !only.split(",").some((text) => name.includes(text))) return;
      const summary = await measure(name, runs, (i) => call(callers, i));
      const target = p99TargetMs(engine, kind);
      console.log(`${"".padEnd(52)} ${verdicts.record(name, summary.p99 < target, verdict(summary, target))}`);
      if (explainOverMs !== undefined && summary.p99 > explainOverMs)
        await explainCall(db, (recorded) => call(callersFor({ ...deps, db: recorded }, admin, staff), 1));
    }
    const { asAdmin, asStaff } = callers;
    const pagesOf = async (list: Promise<{ totalPages: number }>) => Math.max(1, (await list).totalPages);

    // Tasks (SPEC §2.8): 10 a page.
    const taskPages = await pagesOf(asAdmin.tasks.list({ page: 1, limit: 10 }));
    await bench("tasks.list admin, page 1 of 10", (c) => c.asAdmin.tasks.list({ page: 1, limit: 10 }));
    await bench(`tasks.list admin, random page (of ${taskPages})`, (c, i) =>
      c.asAdmin.tasks.list({ page: 1 + ((i * 7919) % taskPages), limit: 10 }),
    );
    await bench(`tasks.list admin, last page (${taskPages})`, (c) =>
      c.asAdmin.tasks.list({ page: taskPages, limit: 10 }),
    );
    const staffTaskPages = await pagesOf(asStaff.tasks.list({ page: 1, limit: 10 }));
    await bench("tasks.list staff, page 1 of 10", (c) => c.asStaff.tasks.list({ page: 1, limit: 10 }));
    await bench(`tasks.list staff, last page (${staffTaskPages})`, (c) =>
      c.asStaff.tasks.list({ page: staffTaskPages, limit: 10 }),
    );

    // Manage Audios (SPEC §2.18) and the Assign page's unassigned audios.
    for (const category of ["Control", "Dementia"] as const) {
      const pages = await pagesOf(asAdmin.audios.list({ category, page: 1, limit: 50 }));
      await bench(`audios.list ${category}, random page of 50 (of ${pages})`, (c, i) =>
        c.asAdmin.audios.list({ category, page: 1 + ((i * 31) % pages), limit: 50 }),
      );
      await bench(`audios.list ${category}, last page (${pages})`, (c) =>
        c.asAdmin.audios.list({ category, page: pages, limit: 50 }),
      );
      const unassigned = await asAdmin.audios.unassigned({ category, page: 1, limit: 100 });
      await bench(`audios.unassigned ${category}, page 1 of 100 (of ${unassigned.totalPages})`, (c) =>
        c.asAdmin.audios.unassigned({ category, page: 1, limit: 100 }),
      );
    }

    // Submissions (SPEC §2.7): 20 a page, newest change first, with the four filters' counts.
    const firstPage = await asAdmin.submissions.list({ page: 1 });
    const lastPage = Math.max(1, firstPage.totalPages);
    await bench("submissions.list admin, page 1", (c) => c.asAdmin.submissions.list({ page: 1 }));
    await bench(`submissions.list admin, last page (${lastPage})`, (c) =>
      c.asAdmin.submissions.list({ page: lastPage }),
    );
    for (const status of ["needsReview", "approved", "rejected"] as const) {
      await bench(`submissions.list admin, '${status}' page 1`, (c) => c.asAdmin.submissions.list({ page: 1, status }));
    }
    await bench("submissions.list staff, page 1", (c) => c.asStaff.submissions.list({ page: 1 }));

    // Review mode (decision 025): 'next' from keys spread over the whole queue (oldest change
    // first), so the position's count of the rows before the key runs from none to all of them.
    for (const filter of ["needsReview", "all"] as const) {
      const { rows: keys } = await sql<{ id: string; updatedAt: string }>`
        select id, "updatedAt" from (
          select id, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "updatedAt",
                 row_number() over (order by updated_at, id) as rn, count(*) over () as n
          from submissions
          where ${filter === "all" ? sql`true` : sql`translation_script_approval_status = 'Pending' or recorded_audio_approval_status = 'Pending'`}
        ) k where rn % greatest(1, n / 100) = 0`.execute(db);
      if (keys.length > 0)
        await bench(`review queue next, '${filter}' (${keys.length} keys across the queue)`, (c, i) =>
          c.asAdmin.submissions.reviewQueue({ filter, move: "next", from: keys[i % keys.length]! }),
        );
    }

    // The comments of the submission with the most comments.
    const { rows: thread } = await sql<{ audioId: string; n: string }>`
      select t.audio_id as "audioId", count(*) as n from comments c
      join submissions s on s.id = c.submission_id join tasks t on t.id = s.task_id
      group by t.audio_id order by count(*) desc limit 1`.execute(db);
    const threadAudio = thread[0]?.audioId;
    if (threadAudio)
      await bench(`comments.list admin, longest thread (${thread[0]?.n})`, (c) =>
        c.asAdmin.comments.list({ audioId: threadAudio }),
      );

    // Recommended Recordings (SPEC §2.9).
    const recommendationPages = await pagesOf(asAdmin.recommendations.list({ page: 1, limit: 10 }));
    await bench(`recommendations.list admin, random page (of ${recommendationPages})`, (c, i) =>
      c.asAdmin.recommendations.list({ page: 1 + ((i * 7919) % recommendationPages), limit: 10 }),
    );
    await bench("recommendations.list staff, page 1", (c) => c.asStaff.recommendations.list({ page: 1, limit: 10 }));

    // Search (SPEC §2.4): 3 to 5 digits of a filename, from many matches down to one; a wide one.
    const keyword = (i: number) => String(10000 + ((i * 7919) % 90000)).slice(0, 3 + (i % 3));
    await bench("search.audios admin, 3-5 digit keyword", (c, i) => c.asAdmin.search.audios({ q: keyword(i) }));
    await bench("search.audios staff, 3-5 digit keyword", (c, i) => c.asStaff.search.audios({ q: keyword(i) }));
    await bench("search.audios admin, 'control' (half the audios)", (c) => c.asAdmin.search.audios({ q: "control" }));

    // The bell (SPEC §2.3): the newest notifications and the unread count.
    await bench("notifications.list admin (unread count)", (c) => c.asAdmin.notifications.list({ limit: 20 }));
    await bench("notifications.list staff", (c) => c.asStaff.notifications.list({ limit: 20 }));
    // 'Show older' (SPEC §2.3): pages after a cursor, the next one and one from the middle of the
    // admin's notifications (the cursor is base64url of "<created_at, microseconds, UTC>_<id>").
    const olderCursor = (await asAdmin.notifications.list({ limit: 20 })).nextCursor;
    if (olderCursor)
      await bench("notifications.list admin, 'Show older' (page 2)", (c) =>
        c.asAdmin.notifications.list({ limit: 20, cursor: olderCursor }),
      );
    const { rows: middle } = await sql<{ key: string }>`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id as key
      from notifications where recipient_id = ${admin.id}
      order by created_at desc, id desc
      offset (select count(*) / 2 from notifications where recipient_id = ${admin.id}) limit 1`.execute(db);
    const middleKey = middle[0]?.key;
    if (middleKey) {
      const cursor = Buffer.from(middleKey).toString("base64url");
      await bench("notifications.list admin, 'Show older' from the middle", (c) =>
        c.asAdmin.notifications.list({ limit: 20, cursor }),
      );
    }

    // Logs (SPEC §2.1): 50 a page.
    const logPages = await pagesOf(asAdmin.logs.list({ page: 1 }));
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    const week = { from: dayOf(monthAgo), to: dayOf(new Date(monthAgo.getTime() + 7 * 86_400_000)) };
    await bench("logs.list page 1", (c) => c.asAdmin.logs.list({ page: 1 }));
    await bench(`logs.list random page (of ${logPages})`, (c, i) =>
      c.asAdmin.logs.list({ page: 1 + ((i * 7919) % logPages) }),
    );
    await bench(`logs.list last page (${logPages})`, (c) => c.asAdmin.logs.list({ page: logPages }));
    await bench(`logs.list actor ${staff.username}, page 1`, (c) => c.asAdmin.logs.list({ actorId: staff.id }));
    await bench(`logs.list actor ${admin.username}, page 1`, (c) => c.asAdmin.logs.list({ actorId: admin.id }));
    await bench("logs.list action 'approve', page 1", (c) => c.asAdmin.logs.list({ action: "approve" }));
    await bench(`logs.list a week (${week.from} to ${week.to}), page 1`, (c) => c.asAdmin.logs.list(week));
    await bench("logs.filters (actions and actors)", (c) => c.asAdmin.logs.filters());

    // Dataset exports (decision 019): the Export page. The seed makes none, so 500 finished ones are
    // added for the run (as one admin's, a year of them) and removed after it.
    const { rows: added } = await sql<{ id: string }>`
      insert into exports (created_by, created_at, category, status_choice, chat_settings, choice_key, content_key,
                           state, done, total, file_key, size_bytes, finished_at, expires_at)
      select ${admin.id}, now() - make_interval(hours => n * 17), null, 'completed',
             '{"languages":["eng"],"participantRole":"Participant","corpus":"tafsiri"}', 'bench-' || n, null,
             'done', 1000, 1000, 'exports/bench-' || n || '.zip', 500000000,
             now() - make_interval(hours => n * 17), now() - make_interval(hours => n * 17 - 24)
      from generate_series(1, 500) as n
      returning id`.execute(db);
    try {
      await bench("exports.list page 1", (c) => c.asAdmin.exports.list({ page: 1 }));
      await bench("exports.list random page (of 50)", (c, i) =>
        c.asAdmin.exports.list({ page: 1 + ((i * 7919) % 50) }),
      );
    } finally {
      await sql`delete from exports where id = any(${added.map((r) => r.id)}::uuid[])`.execute(db);
    }

    // API tokens (decision 036), Management → API tokens: the seed makes none, so every account gets
    // 10 for the run (made over two years; some revoked, expired, never used), removed after it.
    await sql`
      insert into api_tokens (user_id, name, token_hash, hint, scope, session_version, expires_at, last_used_at,
                              last_used_ip, revoked_at, created_at)
      select u.id, 'bench token ' || n, 'bench-' || u.id || '-' || n, 'tfs_' || substr(md5(u.id::text || n), 1, 6),
             case when n % 3 = 0 then 'write' else 'read' end, u.session_version,
             case when n % 4 = 0 then null else now() + make_interval(days => 400 - n * 60) end,
             case when n % 2 = 0 then now() - make_interval(hours => n * 5) end,
             case when n % 2 = 0 then '192.0.2.' || n end,
             case when n % 5 = 0 then now() - make_interval(days => n) end,
             now() - make_interval(days => (n * 73 + abs(hashtext(u.id::text)) % 700) % 730)
      from users u cross join generate_series(1, 10) as n`.execute(db);
    await sql`vacuum analyze api_tokens`.execute(db);
    try {
      const tokenPages = Math.max(1, Math.ceil((await asAdmin.apiTokens.all({ page: 1, limit: 20 })).total / 20));
      await bench(`apiTokens.all page 1 (of ${tokenPages})`, (c) => c.asAdmin.apiTokens.all({ page: 1, limit: 20 }));
      await bench(`apiTokens.all random page`, (c, i) =>
        c.asAdmin.apiTokens.all({ page: 1 + ((i * 7919) % tokenPages), limit: 20 }),
      );
      await bench(`apiTokens.all last page`, (c) => c.asAdmin.apiTokens.all({ page: tokenPages, limit: 20 }));
    } finally {
      await sql`delete from api_tokens where token_hash like 'bench-%'`.execute(db);
    }

    // Webhooks (decision 037), an endpoint's delivery log: the seed makes none, so 5 endpoints hear of
    // 100,000 events over two years for the run (500,000 deliveries, 1% failed), removed after it.
    const { rows: endpoints } = await sql<{ id: string }>`
      insert into webhook_endpoints (url, description, event_types, secret, created_by)
      select 'https://bench.example.org/hooks/' || n, 'bench lists', array['audio.uploaded'], 'whsec_bench', ${admin.id}
      from generate_series(1, 5) as n
      returning id`.execute(db);
    try {
      await sql`
        insert into webhook_events (type, body, created_at)
        select 'audio.uploaded', '{"bench":' || n || '}', now() - make_interval(secs => n * 630)
        from generate_series(1, 100000) as n`.execute(db);
      await sql`
        insert into webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at, first_attempt_at,
                                        last_status_code, last_error, last_duration_ms, created_at, updated_at)
        select e.id, v.id, case when hashtext(v.id::text || e.id::text) % 100 = 0 then 'failed' else 'delivered' end,
               1, v.created_at, v.created_at, 204, null, 35, v.created_at, v.created_at
        from webhook_events v cross join webhook_endpoints e
        where v.body like '{"bench":%' and e.description = 'bench lists'`.execute(db);
      // As autovacuum leaves them: the visibility map set, so counts and pages can read the index alone.
      await sql`vacuum analyze webhook_events`.execute(db);
      await sql`vacuum analyze webhook_deliveries`.execute(db);
      const endpointId = endpoints[0]!.id;
      const deliveryPages = Math.max(
        1,
        Math.ceil((await asAdmin.webhooks.deliveries({ endpointId, page: 1, limit: 20 })).total / 20),
      );
      await bench(`webhooks.deliveries page 1 (of ${deliveryPages})`, (c) =>
        c.asAdmin.webhooks.deliveries({ endpointId, page: 1, limit: 20 }),
      );
      await bench(`webhooks.deliveries random page`, (c, i) =>
        c.asAdmin.webhooks.deliveries({ endpointId, page: 1 + ((i * 7919) % deliveryPages), limit: 20 }),
      );
      await bench(`webhooks.deliveries last page`, (c) =>
        c.asAdmin.webhooks.deliveries({ endpointId, page: deliveryPages, limit: 20 }),
      );
    } finally {
      await sql`delete from webhook_events where body like '{"bench":%'`.execute(db);
      await sql`delete from webhook_endpoints where description = 'bench lists'`.execute(db);
    }

    // Accounts (SPEC §2.10) and the staff picker.
    await bench("accounts.list all", (c) => c.asAdmin.accounts.list({}));
    await bench("accounts.list active Staff", (c) => c.asAdmin.accounts.list({ role: "Staff", active: true }));
    await bench("accounts.staff (the staff picker)", (c) => c.asAdmin.accounts.staff());

    // Participants (decision 024): Management → Participants, a participant's recordings, and the
    // dashboard's study balance (group × sex × age band, participants and approved recordings).
    const participantPages = await pagesOf(asAdmin.participants.list({ page: 1 }));
    await bench("participants.list page 1", (c) => c.asAdmin.participants.list({ page: 1 }));
    await bench(`participants.list random page (of ${participantPages})`, (c, i) =>
      c.asAdmin.participants.list({ page: 1 + ((i * 7919) % participantPages) }),
    );
    await bench(`participants.list last page (${participantPages})`, (c) =>
      c.asAdmin.participants.list({ page: participantPages }),
    );
    await bench("participants.list code search (2-4 characters)", (c, i) =>
      c.asAdmin.participants.list({ search: `S${String((i * 7919) % 1000).padStart(3, "0")}`.slice(0, 2 + (i % 3)) }),
    );
    await bench("participants.list Dementia, consent withdrawn, page 1", (c) =>
      c.asAdmin.participants.list({ group: "Dementia", consent: "withdrawn", page: 1 }),
    );
    const { rows: someone } = await sql<{ id: string }>`select id from participants order by code limit 1`.execute(db);
    const participantId = someone[0]?.id;
    if (participantId)
      await bench("participants.audios (a participant's recordings)", (c) =>
        c.asAdmin.participants.audios({ participantId }),
      );
    await bench("participants.balance (the study balance)", (c) => c.asAdmin.participants.balance());

    // Decision 035: the dashboard's speech measures by group. The seed measures nothing, so every
    // audio with an approved transcript gets a PAR and an INV row of varied values for the run
    // (set-based), removed after it.
    const { rows: begun } = await sql<{ at: Date }>`select clock_timestamp() as at`.execute(db);
    const { rows: measured } = await sql<{ audios: number }>`
      with approved as (
        select t.audio_id, a.category, row_number() over (order by t.audio_id) as n
        from submissions s join tasks t on t.id = s.task_id join audios a on a.id = t.audio_id
        where s.translation_script_approval_status = 'Approved'
      ), inserted as (
        insert into speech_measures (audio_id, category, speaker, duration_ms, segment_count, speaking_ms, speaking_ratio,
                                     phonation_ms, pause_count, mean_pause_ms, response_latency_ms, response_count,
                                     segments_per_minute)
        select a.audio_id, a.category, sp.speaker, 600000, 10 + a.n % 40, 100000 + (a.n * 7919) % 300000,
               (100000 + (a.n * 7919) % 300000) / 600000.0, 80000 + (a.n * 104729) % 200000, (a.n * 31) % 60,
               250 + (a.n * 613) % 1500, case when sp.speaker = 'PAR' then (a.n * 389) % 3000 - 500 end,
               case when sp.speaker = 'PAR' then 10 else 0 end, (10 + a.n % 40) / 10.0
        from approved a cross join (values ('PAR'), ('INV')) as sp(speaker)
        on conflict do nothing
        returning audio_id
      )
      select count(distinct audio_id)::int as audios from inserted`.execute(db);
    try {
      // The measures job's summary of them, once a round (not a request: timed once, no target).
      const refreshStarted = performance.now();
      await refreshSpeechMeasureGroups(db);
      console.log(
        `  refreshSpeechMeasureGroups (the job's, each round): ${(performance.now() - refreshStarted).toFixed(0)} ms`,
      );
      await bench(`participants.measures (speech measures by group, ${measured[0]?.audios ?? 0} audios)`, (c) =>
        c.asAdmin.participants.measures(),
      );
    } finally {
      await sql`delete from speech_measures where measured_at >= ${begun[0]!.at}`.execute(db);
      await refreshSpeechMeasureGroups(db);
    }

    // Dashboard (SPEC §2.6).
    const now = new Date();
    const monthStart = dayOf(now).slice(0, 8) + "01";
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    const lastMonthStart = dayOf(lastMonth).slice(0, 8) + "01";
    const yearAgo = dayOf(new Date(now.getTime() - 365 * 86_400_000));
    await bench("statistics.overview (the cards)", (c) => c.asAdmin.statistics.overview());
    await bench("statistics.engagement", (c) => c.asAdmin.statistics.engagement());
    await bench("statistics.teamReport all time", (c) => c.asAdmin.statistics.teamReport({}), "team report");
    await bench(
      `statistics.teamReport this month (from ${monthStart})`,
      (c) => c.asAdmin.statistics.teamReport({ from: monthStart }),
      "team report",
    );
    await bench(
      `statistics.teamReport last month`,
      (c) => c.asAdmin.statistics.teamReport({ from: lastMonthStart, to: monthStart }),
      "team report",
    );
    await bench(
      `statistics.teamReport a year (from ${yearAgo})`,
      (c) => c.asAdmin.statistics.teamReport({ from: yearAgo }),
      "team report",
    );
    await bench("statistics.rates", (c) => c.asAdmin.statistics.rates());

    // The Reviews section (decision 025): per admin totals and median wait, and reviews per day,
    // for the last 30 and 365 days in the admin's time zone; each of its two queries alone too.
    for (const days of [30, 365]) {
      const from = dayOf(new Date(now.getTime() - days * 86_400_000));
      // Midnight in Kampala (UTC+3 all year), as the procedure reads the date.
      const period = { from: new Date(`${from}T00:00:00+03:00`) };
      await bench(`statistics.reviewers ${days} days (from ${from})`, (c) =>
        c.asAdmin.statistics.reviewers({ from, timeZone: TIME_ZONE }),
      );
      await bench(`  reviewerTotals ${days} days (medians)`, () => reviewerTotals(db, period));
      await bench(`  reviewsPerDay ${days} days`, () => reviewsPerDay(db, { ...period, timeZone: TIME_ZONE }));
    }
    await bench("statistics.reviewers all time", (c) => c.asAdmin.statistics.reviewers({ timeZone: TIME_ZONE }));
  });
}

await onSeededDatabase(options, run);
