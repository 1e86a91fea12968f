/**
 * List benchmark: seeds a realistic amount of data (default 20,000 audios with tasks,
 * submissions and recommendations over 50 staff) into a fresh embedded database, or into
 * DATABASE_URL's server when set, then measures the list procedures and the search through
 * real tRPC callers: p50/p99/max per call, in ms.
 * Usage: npm run bench [-- --audios 20000 --runs 200]
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { createDb, migrateToLatest } from "@tafsiri/db";
import {
  appRouter,
  createCallerFactory,
  createEventBus,
  createLocalStorage,
  type AppDeps,
  type SessionUser,
} from "@tafsiri/api";
import { createUser } from "@tafsiri/api/testing/services";
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";

const { values } = parseArgs({
  options: { audios: { type: "string", default: "20000" }, runs: { type: "string", default: "200" } },
});
const audioCount = Number(values.audios);
const runs = Number(values.runs);

const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-"));
const handle = await createDb({ databaseUrl: process.env.DATABASE_URL });
await migrateToLatest(handle.db);
const db = handle.db;

async function seed(): Promise<{ admin: SessionUser; staff: SessionUser }> {
  const admin = await createUser(db, {
    username: "bench-admin",
    email: "bench-admin@example.test",
    password: "Bench#2026x",
    role: "Admin",
  });
  const staffRows = [];
  for (let i = 0; i < 50; i++) {
    staffRows.push(
      await createUser(db, {
        username: `bench-staff-${i}`,
        email: `bench-staff-${i}@example.test`,
        password: "Bench#2026x",
        role: "Staff",
      }),
    );
  }
  await sql`
    insert into audios (filename, category, file_key, mime_type, size_bytes, uploaded_by, created_at)
    select 'bench_' || g, case when g % 2 = 0 then 'Control' else 'Dementia' end, 'audios/bench_' || g || '.wav',
           'audio/wav', 1000, ${admin.id}, now() - (g || ' seconds')::interval
    from generate_series(1, ${audioCount}) g`.execute(db);
  // Nine audios in ten get a task, spread over the staff; half of the tasks have a submission.
  await sql`
    insert into tasks (audio_id, assigned_to, created_at)
    select a.id, (array[${sql.join(staffRows.map((s) => sql`${s.id}::uuid`))}])[1 + (row_number() over (order by a.id)) % 50], a.created_at
    from audios a where right(a.filename, 1) <> '0'`.execute(db);
  await sql`
    insert into submissions (task_id, created_by, translation_script_approval_status, recorded_audio_approval_status)
    select t.id, t.assigned_to, 'Pending', 'Pending' from tasks t where (hashtext(t.id::text) % 2) = 0`.execute(db);
  // One task in eight (one in four of those with a submission) is recommended to the next staff member.
  await sql`
    insert into recommendations (task_id, recommended_to, recommended_by, created_at)
    select t.id, (array[${sql.join(staffRows.map((s) => sql`${s.id}::uuid`))}])[1 + (row_number() over (order by t.id) + 1) % 50],
           t.assigned_to, t.created_at + interval '1 hour'
    from tasks t join submissions s on s.task_id = t.id where (hashtext(t.id::text) % 4) = 0`.execute(db);
  await sql`analyze`.execute(db);
  const s = staffRows[0]!;
  return {
    admin: { id: admin.id, username: admin.username, email: admin.email, role: "Admin", active: true },
    staff: { id: s.id, username: s.username, email: s.email, role: "Staff", active: true },
  };
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5).toFixed(2), p99: at(0.99).toFixed(2), max: sorted[sorted.length - 1]!.toFixed(2) };
}

async function measure(name: string, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await call(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await call(i);
    samples.push(performance.now() - start);
  }
  console.log(`${name.padEnd(44)} ${JSON.stringify(stats(samples))}`);
}

const { admin, staff } = await seed();
const caller = createCallerFactory(appRouter);
const events = await createEventBus({ db });
const deps: AppDeps = {
  db,
  storage: createLocalStorage(path.join(dataDir, "files")),
  jwtSecret: new TextEncoder().encode("bench-secret-bench-secret-bench-secret"),
  events,
};
const asAdmin = caller({ ...deps, user: admin });
const asStaff = caller({ ...deps, user: staff });
const pages = Math.floor((audioCount * 0.9) / 10);

console.log(`Database: ${handle.kind}; ${audioCount} audios, 50 staff; ${runs} runs each (ms)`);
await measure("tasks.list admin, random page of 10", (i) =>
  asAdmin.tasks.list({ page: 1 + ((i * 7919) % pages), limit: 10 }),
);
await measure("tasks.list staff, page 1 of 10", () => asStaff.tasks.list({ page: 1, limit: 10 }));
await measure("audios.list Control, random page of 50", (i) =>
  asAdmin.audios.list({ category: "Control", page: 1 + ((i * 31) % 100), limit: 50 }),
);
await measure("audios.unassigned Dementia, page 1 of 100", () =>
  asAdmin.audios.unassigned({ category: "Dementia", page: 1, limit: 100 }),
);
const recommendationPages = Math.max(1, Math.floor(audioCount / 90));
await measure("recommendations.list admin, random page", (i) =>
  asAdmin.recommendations.list({ page: 1 + ((i * 7919) % recommendationPages), limit: 10 }),
);
await measure("recommendations.list staff, page 1 of 10", () => asStaff.recommendations.list({ page: 1, limit: 10 }));
// Keywords of 3 to 5 digits found inside filenames ('bench_<n>'): from about 110 matches down to 1.
const keyword = (i: number) => String((i * 7919) % audioCount).slice(0, 3 + (i % 3));
await measure("search.audios admin, 3-5 digit keyword", (i) => asAdmin.search.audios({ q: keyword(i) }));
await measure("search.audios staff, 3-5 digit keyword", (i) => asStaff.search.audios({ q: keyword(i) }));
await measure("search.audios admin, 'bench_1' (~11k hits)", () => asAdmin.search.audios({ q: "bench_1" }));

await events.close();
await handle.close();
rmSync(dataDir, { recursive: true, force: true });
