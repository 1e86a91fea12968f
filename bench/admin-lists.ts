/**
 * Admin lists benchmark (issue 9): seeds a fresh database, then measures the Logs list
 * (logs.list and its filters' choices, logs.filters) and the Accounts list (accounts.list) through
 * real tRPC callers as an admin: p50/p99/max per call, in ms.
 *
 * The database: with DATABASE_URL, a fresh temporary database `tafsiri_bench_<hex>` on that
 * server (bench/support/bench-database.ts), dropped at the end, also when the run fails or is
 * interrupted; without it, a fresh embedded PGlite (in memory).
 *
 * The data, seeded set-based: 5 administrators (`bench-admin` and `bench-admin-2` … `-5`, the last
 * one inactive) and 200 staff (one in ten inactive); 100,000 audios (bench/support/seed-audios.ts);
 * an audit log of `--entries` (default 300,000) entries over the last year, one every ~105 s at
 * 300,000, written in time order (ids grow with time), with the actions a running project writes
 * in these shares: staff open audios (20%), save transcripts (18%), upload recordings (10%),
 * comment (5%) and create submissions (0.3%); admins upload audios (15%), assign (12%), approve
 * (12%) and reject (4%) transcripts and recordings, and rarely reassign, recommend, set a task's
 * stages, delete an audio, or create, edit, deactivate or activate an account. Nine admin entries in
 * ten are `bench-admin`'s; staff entries are spread evenly over the staff. Each entry's detail is
 * shaped as the services write it (audioId, assignedTo, from/to, recommendedTo, filename, ...) and
 * points at a real audio or user, so the page's joins find their rows.
 *
 * Usage: npm run bench -- admin-lists [--entries 300000] [--runs 200] [--explain 20]
 *   --explain <ms>  after a measurement whose p99 exceeds <ms>, prints the SQL, parameters and
 *                   EXPLAIN (ANALYZE, BUFFERS) of every statement one of its calls runs (the call
 *                   with i = 1: for the random-page measurements, a page deep in the list).
 */
import { sql } from "kysely";
import type { DbHandle } from "@tafsiri/db";
import { appRouter, createCallerFactory, type AppDeps, type SessionUser } from "@tafsiri/api";
import { benchOptions } from "./support/args";
import { withAppDeps } from "./support/app-deps";
import { seedBenchUsers } from "./support/bench-users";
import { seedAudios } from "./support/seed-audios";
import { census } from "./support/census";
import { explainCall } from "./support/explain";
import { measure, timedSeconds } from "./support/measure";
import { onTemporaryDatabase, type BenchEnvironment } from "./support/temporary-database";

const { size: entryCount, runs, explainOverMs } = benchOptions("entries", 300_000);
const AUDIO_COUNT = 100_000;
const STAFF_COUNT = 200;
const EXTRA_ADMINS = 4;

type Db = DbHandle["db"];

interface Seeded {
  admin: SessionUser;
  /** A staff member whose entries are measured (the actor filter). */
  staff: SessionUser;
}

async function seed(db: Db): Promise<Seeded> {
  const { admin, staff } = await seedBenchUsers(db, STAFF_COUNT, { inactiveEvery: 10 });
  // More administrators, sharing bench-admin's password hash; the last one inactive.
  await sql`
    insert into users (username, email, password_hash, role, active)
    select 'bench-admin-' || g, 'bench-admin-' || g || '@example.test', u.password_hash, 'Admin', g <= ${EXTRA_ADMINS}
    from generate_series(2, ${EXTRA_ADMINS + 1}) g, users u where u.id = ${admin.id}`.execute(db);
  await seedAudios(db, AUDIO_COUNT, admin.id);
  // h: the entry's percentiles (kind, actor, the audio and user it concerns); kinds: each kind's
  // share as a range of per-mille [lo, hi), and whether an admin or a staff member acts.
  await sql`
    with kinds (action, entity, lo, hi, by_admin) as (values
      ('open', 'audio', 0, 200, false), ('save', 'transcript', 200, 380, false),
      ('upload', 'recording', 380, 480, false), ('comment', 'submission', 480, 530, false),
      ('create', 'submission', 530, 533, false),
      ('create', 'audio', 533, 683, true), ('assign', 'task', 683, 803, true),
      ('approve', 'transcript', 803, 863, true), ('approve', 'recording', 863, 923, true),
      ('reject', 'transcript', 923, 948, true), ('reject', 'recording', 948, 963, true),
      ('reassign', 'task', 963, 973, true), ('recommend', 'task', 973, 983, true),
      ('set-status', 'task', 983, 991, true), ('delete', 'audio', 991, 995, true),
      ('create', 'user', 995, 997, true), ('edit', 'user', 997, 998, true),
      ('deactivate', 'user', 998, 999, true), ('activate', 'user', 999, 1000, true)),
    staff as (select id, row_number() over (order by username) - 1 as k from users where role = 'Staff'),
    admins as (select id, row_number() over (order by username) - 1 as k from users where role = 'Admin'),
    h as (
      select g, abs(hashtext(g || ':k')) % 1000 as kind, abs(hashtext(g || ':s')) % ${STAFF_COUNT} as actor,
             abs(hashtext(g || ':u')) % ${STAFF_COUNT} as concerned,
             case when abs(hashtext(g || ':a')) % 10 = 0 then 1 + abs(hashtext(g || ':b')) % ${EXTRA_ADMINS} else 0 end
               as admin,
             1 + abs(hashtext(g || ':f')) % ${AUDIO_COUNT} as audio
      from generate_series(1, ${entryCount}) g
    )
    insert into audit_log (actor_id, action, entity, entity_id, detail, created_at)
    select case when k.by_admin then ad.id else st.id end, k.action, k.entity,
           case when k.entity in ('audio', 'initial-transcript') then au.id::text
                when k.entity = 'user' then cu.id::text
                when k.entity = 'setting' then 'transcript_rate_ugx'
                else gen_random_uuid()::text end,
           case k.action || ' ' || k.entity
             when 'create audio' then jsonb_build_object('filename', au.filename, 'category', au.category)
             when 'delete audio' then jsonb_build_object('filename', au.filename, 'files', 3)
             when 'open audio' then '{}'::jsonb
             when 'assign task' then jsonb_build_object('audioId', au.id, 'assignedTo', cu.id)
             when 'reassign task' then jsonb_build_object('audioId', au.id, 'from', st.id, 'to', cu.id)
             when 'recommend task' then jsonb_build_object('audioId', au.id, 'recommendedTo', cu.id)
             when 'set-status task' then jsonb_build_object('audioId', au.id, 'translationStatus', 'Completed')
             when 'save transcript' then jsonb_build_object('audioId', au.id, 'fileName', au.filename || '.cha')
             when 'upload recording' then jsonb_build_object('audioId', au.id, 'fileKey', 'recordings/' || au.id || '.webm')
             when 'comment submission' then jsonb_build_object('audioId', au.id, 'commentId', gen_random_uuid())
             when 'create submission' then jsonb_build_object('taskId', gen_random_uuid(), 'audioId', au.id)
             when 'create user' then jsonb_build_object('role', 'Staff')
             when 'edit user' then jsonb_build_object('changed', jsonb_build_array('email'), 'role', 'Staff')
             when 'deactivate user' then '{}'::jsonb
             when 'activate user' then '{}'::jsonb
             else jsonb_build_object('audioId', au.id, 'status', case k.action when 'approve' then 'Approved' else 'Rejected' end,
                                     'from', 'Pending')
           end,
           now() - h.g * interval '365 days' / ${entryCount}
             - (abs(hashtext(h.g || ':t')) % 1000) * interval '365 days' / ${entryCount} / 1000
    from h
    join kinds k on h.kind >= k.lo and h.kind < k.hi
    join staff st on st.k = h.actor
    join staff cu on cu.k = h.concerned
    join admins ad on ad.k = h.admin
    join audios au on au.filename = 'bench_' || h.audio
    order by h.g desc`.execute(db);
  await sql`vacuum analyze`.execute(db);
  // The staff member with the most entries is measured (the actor filter's largest staff list).
  const busiest = await sql<{ actorId: string }>`
    select actor_id from audit_log a join users u on u.id = a.actor_id where u.role = 'Staff'
    group by actor_id order by count(*) desc, actor_id limit 1`.execute(db);
  const member = staff.find((s) => s.id === busiest.rows[0]?.actorId);
  if (!member) throw new Error("No staff entries: seed more entries.");
  return { admin, staff: member };
}

const caller = createCallerFactory(appRouter);
let seeded: Seeded;
const callerFor = (deps: AppDeps) => caller({ ...deps, user: seeded.admin });
type Caller = ReturnType<typeof callerFor>;
type Call = (c: Caller, i: number) => Promise<unknown>;

/** An ISO date (YYYY-MM-DD, UTC) `days` days before now. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

async function run({ where, db, dataDir }: BenchEnvironment): Promise<void> {
  const { value, seconds } = await timedSeconds(() => seed(db));
  seeded = value;
  await withAppDeps(db, dataDir, {}, async (deps) => {
    const asAdmin = callerFor(deps);
    console.log(
      `Database: ${where}; ${entryCount.toLocaleString("en")} audit entries, ` +
        `${AUDIO_COUNT.toLocaleString("en")} audios, ${STAFF_COUNT} staff; ${runs} runs each (ms)`,
    );
    const seededRows = await census(db, {
      "audit entries": sql`(select count(*) from audit_log)`,
      actions: sql`(select count(distinct action) from audit_log)`,
      users: sql`(select count(*) from users)`,
      audios: sql`(select count(*) from audios)`,
    });
    console.log(`Seeded in ${seconds.toFixed(1)} s: ${seededRows}`);

    /** Measures `call`; over --explain (p99), explains the statements of its call i = 1. */
    async function bench(name: string, call: Call): Promise<void> {
      const { p99 } = await measure(name, runs, (i) => call(asAdmin, i));
      if (explainOverMs !== undefined && p99 > explainOverMs)
        await explainCall(db, (recorded) => call(callerFor({ ...deps, db: recorded }), 1));
    }

    // Logs (issue 9 Build 5): 50 entries a page, newest first.
    const pages = (await asAdmin.logs.list({})).totalPages;
    const staffPages = (await asAdmin.logs.list({ actorId: seeded.staff.id })).totalPages;
    const approvePages = (await asAdmin.logs.list({ action: "approve" })).totalPages;
    const week = { from: daysAgo(37), to: daysAgo(30) };
    const weekPages = (await asAdmin.logs.list(week)).totalPages;
    console.log(
      `Logs: ${pages.toLocaleString("en")} pages of 50; ${seeded.staff.username} ${staffPages} pages, ` +
        `'approve' ${approvePages.toLocaleString("en")}, ${week.from} to ${week.to} ${weekPages}`,
    );
    await bench("logs.list page 1", (c) => c.logs.list({ page: 1 }));
    await bench(`logs.list random page (of ${pages.toLocaleString("en")})`, (c, i) =>
      c.logs.list({ page: 1 + ((i * 7919) % pages) }),
    );
    await bench(`logs.list last page (${pages.toLocaleString("en")})`, (c) => c.logs.list({ page: pages }));
    await bench(`logs.list actor (${seeded.staff.username}), page 1`, (c) =>
      c.logs.list({ actorId: seeded.staff.id, page: 1 }),
    );
    await bench(`logs.list actor (${seeded.staff.username}), last page (${staffPages})`, (c) =>
      c.logs.list({ actorId: seeded.staff.id, page: staffPages }),
    );
    await bench("logs.list actor bench-admin, page 1", (c) => c.logs.list({ actorId: seeded.admin.id, page: 1 }));
    await bench("logs.list action 'approve', page 1", (c) => c.logs.list({ action: "approve", page: 1 }));
    await bench(`logs.list action 'approve', random page (of ${approvePages})`, (c, i) =>
      c.logs.list({ action: "approve", page: 1 + ((i * 7919) % approvePages) }),
    );
    await bench("logs.list action 'deactivate' (rare), page 1", (c) => c.logs.list({ action: "deactivate", page: 1 }));
    await bench(`logs.list a week (${week.from} to ${week.to}), page 1`, (c) => c.logs.list({ ...week, page: 1 }));
    await bench(`logs.list a week, last page (${weekPages})`, (c) => c.logs.list({ ...week, page: weekPages }));
    await bench(`logs.list from ${daysAgo(90)} (90 days), page 1`, (c) => c.logs.list({ from: daysAgo(90), page: 1 }));
    await bench(`logs.list actor + 'save' + 90 days, page 1`, (c) =>
      c.logs.list({ actorId: seeded.staff.id, action: "save", from: daysAgo(90), page: 1 }),
    );
    await bench("logs.filters (actions and actors)", (c) => c.logs.filters());

    // Accounts (SPEC §2.10): every account, or filtered by role and/or active.
    const accounts = (await asAdmin.accounts.list({})).length;
    await bench(`accounts.list all (${accounts})`, (c) => c.accounts.list({}));
    await bench("accounts.list Staff", (c) => c.accounts.list({ role: "Staff" }));
    await bench("accounts.list Admin", (c) => c.accounts.list({ role: "Admin" }));
    await bench("accounts.list active Staff", (c) => c.accounts.list({ role: "Staff", active: true }));
    await bench("accounts.list inactive", (c) => c.accounts.list({ active: false }));
  });
}

await onTemporaryDatabase(run);
