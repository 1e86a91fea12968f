import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql, type RawBuilder } from "kysely";
import { fileLinkFor, type SessionUser } from "@tafsiri/api";
import { createHarness } from "@tafsiri/api/testing/harness";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { seedProject, SeedRefused, type SeedResult } from "../../../bench/support/seed-project";

// `npm run seed` fills a database with a realistic spread (bench/seed.ts,
// bench/support/seed-rows.ts). Seeded here at 300 audios and 5 staff on the run's database
// (PGlite, or PostgreSQL with DATABASE_URL), then checked with plain SQL and through the
// procedures the screens call.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const STAFF_PASSWORD = "Seed#Staff2026";
const ADMIN = { email: "boss@seed.test", username: "boss", password: "Adm1n!strong" };
const AUDIOS = 300;
const DAY = 86_400_000;

const h = await createHarness();
const db = h.deps.db;
let seeded: SeedResult;

beforeAll(async () => {
  seeded = await seedProject(db, {
    audios: AUDIOS,
    staff: 5,
    staffPassword: STAFF_PASSWORD,
    admin: ADMIN,
    storage: h.deps.storage,
  });
}, 180_000);
afterAll(() => h.close());

/** The rows of a query as plain objects. */
async function rows<T>(query: RawBuilder<T>): Promise<T[]> {
  return (await query.execute(db)).rows;
}

/** Audios and translated recordings whose waveform waits for the waveform job. */
function pendingWaveforms(): Promise<number> {
  return count(sql`
    select (select count(*) from audios where waveform_status = 'pending')
         + (select count(*) from translated_recordings where waveform_status = 'pending') as n`);
}

/** One number from a query answering `n`. */
async function count(query: RawBuilder<{ n: string }>): Promise<number> {
  return Number((await rows(query))[0]?.n ?? NaN);
}

/** The counts per value of `value` (an expression) in `table`, as { value: count }. */
async function spread(table: string, value: RawBuilder<unknown>): Promise<Record<string, number>> {
  const result = await rows(
    sql<{
      value: string;
      n: string;
    }>`select (${value})::text as value, count(*) as n from ${sql.table(table)} group by 1`,
  );
  return Object.fromEntries(result.map((r) => [r.value, Number(r.n)]));
}

/** Signs in through the procedure the sign-in screen calls; resolves to the user or the error's code. */
async function signIn(email: string, password: string): Promise<string> {
  try {
    const { user } = await h.caller(null).accounts.login({ email, password });
    return user.role;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** The acting admin as a session user. */
async function adminUser(): Promise<SessionUser> {
  const [row] = await rows(
    sql<SessionUser>`select id, username, email, role, active from users where email = ${ADMIN.email}`,
  );
  if (!row) throw new Error("no admin");
  return row;
}

/** assignee_work_counts and assignee_review_days beside the same figures counted from tasks and submissions. */
async function countersAndDirectCounts() {
  const stored = await rows(sql<Record<string, string>>`
    select assignee_id, tasks, completed, with_work, pending_transcripts, approved_transcripts, rejected_transcripts,
           pending_recordings, approved_recordings, rejected_recordings
    from assignee_work_counts
    where (tasks, completed, with_work, pending_transcripts, approved_transcripts, rejected_transcripts,
           pending_recordings, approved_recordings, rejected_recordings) <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
    order by assignee_id`);
  const direct = await rows(sql<Record<string, string>>`
    select t.assigned_to as assignee_id, count(*) as tasks, count(*) filter (where t.is_complete) as completed,
           count(*) filter (where s.translation_script_approval_status <> 'No transcript'
                              or s.recorded_audio_approval_status <> 'No translation audio') as with_work,
           count(*) filter (where s.translation_script_approval_status = 'Pending') as pending_transcripts,
           count(*) filter (where s.translation_script_approval_status = 'Approved') as approved_transcripts,
           count(*) filter (where s.translation_script_approval_status = 'Rejected') as rejected_transcripts,
           count(*) filter (where s.recorded_audio_approval_status = 'Pending') as pending_recordings,
           count(*) filter (where s.recorded_audio_approval_status = 'Approved') as approved_recordings,
           count(*) filter (where s.recorded_audio_approval_status = 'Rejected') as rejected_recordings
    from tasks t left join submissions s on s.task_id = t.id
    group by t.assigned_to order by t.assigned_to`);
  const storedDays = await rows(sql<Record<string, string>>`
    select day::text as day, assignee_id, completed, approved_transcripts, rejected_transcripts, approved_recordings,
           rejected_recordings
    from assignee_review_days
    where (completed, approved_transcripts, rejected_transcripts, approved_recordings, rejected_recordings) <> (0, 0, 0, 0, 0)
    order by 1, 2`);
  const directDays = await rows(sql<Record<string, string>>`
    select (v.at at time zone 'UTC')::date::text as day, v.assignee_id, sum(v.c) as completed, sum(v.a_t) as approved_transcripts,
           sum(v.r_t) as rejected_transcripts, sum(v.a_r) as approved_recordings, sum(v.r_r) as rejected_recordings
    from (
      select t.assigned_to, s.transcript_reviewed_at, 0, (s.translation_script_approval_status = 'Approved')::int,
             (s.translation_script_approval_status = 'Rejected')::int, 0, 0
      from tasks t join submissions s on s.task_id = t.id where s.transcript_reviewed_at is not null
      union all
      select t.assigned_to, s.recording_reviewed_at, 0, 0, 0, (s.recorded_audio_approval_status = 'Approved')::int,
             (s.recorded_audio_approval_status = 'Rejected')::int
      from tasks t join submissions s on s.task_id = t.id where s.recording_reviewed_at is not null
      union all
      select t.assigned_to, greatest(s.transcript_reviewed_at, s.recording_reviewed_at), 1, 0, 0, 0, 0
      from tasks t join submissions s on s.task_id = t.id where t.is_complete
    ) v (assignee_id, at, c, a_t, r_t, a_r, r_r)
    group by 1, 2 order by 1, 2`);
  const plain = (list: Array<Record<string, string>>) =>
    list.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, /^\d+$/.test(String(v)) ? Number(v) : v])),
    );
  return { stored: plain(stored), direct: plain(direct), storedDays: plain(storedDays), directDays: plain(directDays) };
}

/** Each staff member's team report figures for reviews in [from, to) (null: open), counted directly. */
async function directReport(from: Date | null, to: Date | null) {
  const within = (column: RawBuilder<unknown>) =>
    sql`(${from}::timestamptz is null or ${column} >= ${from}::timestamptz)
        and (${to}::timestamptz is null or ${column} < ${to}::timestamptz)`;
  const list = await rows(sql<Record<string, string>>`
    select u.id, count(t.id) as tasks,
           count(*) filter (where t.is_complete and ${within(sql`greatest(s.transcript_reviewed_at, s.recording_reviewed_at)`)})
             as completed,
           count(*) filter (where s.translation_script_approval_status = 'Approved' and ${within(sql`s.transcript_reviewed_at`)})
             as approved_transcripts,
           count(*) filter (where s.translation_script_approval_status = 'Rejected' and ${within(sql`s.transcript_reviewed_at`)})
             as rejected_transcripts,
           count(*) filter (where s.recorded_audio_approval_status = 'Approved' and ${within(sql`s.recording_reviewed_at`)})
             as approved_recordings,
           count(*) filter (where s.recorded_audio_approval_status = 'Rejected' and ${within(sql`s.recording_reviewed_at`)})
             as rejected_recordings,
           count(*) filter (where s.translation_script_approval_status = 'Pending') as pending_transcripts,
           count(*) filter (where s.recorded_audio_approval_status = 'Pending') as pending_recordings
    from users u left join tasks t on t.assigned_to = u.id left join submissions s on s.task_id = t.id
    where u.role = 'Staff'
    group by u.id having count(t.id) > 0 or bool_or(u.active)
    order by u.id`);
  return list.map((r) => ({
    id: r.id,
    tasks: Number(r.tasks),
    completed: Number(r.completed),
    approvedTranscripts: Number(r.approvedTranscripts),
    rejectedTranscripts: Number(r.rejectedTranscripts),
    approvedRecordings: Number(r.approvedRecordings),
    rejectedRecordings: Number(r.rejectedRecordings),
    pendingTranscripts: Number(r.pendingTranscripts),
    pendingRecordings: Number(r.pendingRecordings),
  }));
}

/** The team report as the Dashboard gets it, reduced to the figures directReport counts, by id. */
async function teamReport(input: { from?: string; to?: string }) {
  const report = await h.caller(await adminUser()).statistics.teamReport(input);
  return report
    .map((r) => ({
      id: r.id,
      tasks: r.tasks,
      completed: r.completed,
      approvedTranscripts: r.approvedTranscripts,
      rejectedTranscripts: r.rejectedTranscripts,
      approvedRecordings: r.approvedRecordings,
      rejectedRecordings: r.rejectedRecordings,
      pendingTranscripts: r.pendingTranscripts,
      pendingRecordings: r.pendingRecordings,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

describe("npm run seed (bench/support/seed-project.ts)", () => {
  it("spreads the audios over both categories and two years, most of them assigned", async () => {
    const categories = await spread("audios", sql.ref("category"));
    expect(categories.Control).toBeGreaterThan(AUDIOS * 0.4);
    expect(categories.Dementia).toBeGreaterThan(AUDIOS * 0.3);
    const tasks = await count(sql`select count(*) as n from tasks`);
    expect(tasks).toBeGreaterThan(AUDIOS * 0.85);
    expect(tasks).toBeLessThan(AUDIOS);
    const [span] = await rows(sql<{ oldest: Date; newest: Date }>`
      select min(created_at) as oldest, max(created_at) as newest from audios`);
    expect(Date.now() - new Date(span!.oldest).getTime()).toBeGreaterThan(725 * DAY);
    expect(Date.now() - new Date(span!.oldest).getTime()).toBeLessThan(731 * DAY);
    expect(Date.now() - new Date(span!.newest).getTime()).toBeLessThan(3 * DAY);
  });

  it("has submissions in every status, dated over two years, with outputs and tasks that agree", async () => {
    expect(Object.keys(await spread("submissions", sql.ref("translation_script_approval_status"))).sort()).toEqual([
      "Approved",
      "No transcript",
      "Pending",
      "Rejected",
    ]);
    expect(Object.keys(await spread("submissions", sql.ref("recorded_audio_approval_status"))).sort()).toEqual([
      "Approved",
      "No translation audio",
      "Pending",
      "Rejected",
    ]);
    expect(Object.keys(await spread("submissions", sql.ref("approval_status"))).sort()).toEqual([
      "Approved",
      "Pending",
      "Rejected",
    ]);
    const complete = await spread("tasks", sql.ref("is_complete"));
    expect(complete.true).toBeGreaterThan(0);
    expect(complete.false).toBeGreaterThan(0);

    const [dates] = await rows(sql<{ first: Date; last: Date; future: string }>`
      select min(submission_date) as first, max(submission_date) as last,
             count(*) filter (where greatest(submission_date, updated_at, transcript_reviewed_at, recording_reviewed_at)
                                    > now()) as future
      from submissions`);
    expect(new Date(dates!.last).getTime() - new Date(dates!.first).getTime()).toBeGreaterThan(650 * DAY);
    expect(Number(dates!.future)).toBe(0);

    // Each submission as the services leave it: derived statuses, review times, current files.
    const wrong = await rows(sql<{ what: string; n: string }>`
      select 'approval status' as what, count(*) as n from submissions s
      where s.approval_status <> case
        when s.translation_script_approval_status = 'Approved' and s.recorded_audio_approval_status = 'Approved' then 'Approved'
        when 'Rejected' in (s.translation_script_approval_status, s.recorded_audio_approval_status) then 'Rejected'
        else 'Pending' end
      union all
      select 'task stages', count(*) from tasks t join submissions s on s.task_id = t.id
      where (t.translation_status = 'Completed') <> (s.translation_script_approval_status = 'Approved')
         or (t.recording_status = 'Completed') <> (s.recorded_audio_approval_status = 'Approved')
         or t.is_complete <> (s.approval_status = 'Approved')
      union all
      select 'review times', count(*) from submissions s
      where (s.transcript_reviewed_at is null) = (s.translation_script_approval_status in ('Approved', 'Rejected'))
         or (s.recording_reviewed_at is null) = (s.recorded_audio_approval_status in ('Approved', 'Rejected'))
      union all
      select 'current transcript', count(*) from submissions s
      where (s.translation_script is null) <> (s.translation_script_approval_status = 'No transcript')
         or s.translation_script is distinct from (select v.file_key from transcript_versions v where v.submission_id = s.id
                                                   order by v.created_at desc limit 1)
      union all
      select 'current recording', count(*) from submissions s
      where (s.recorded_audio is null) <> (s.recorded_audio_approval_status = 'No translation audio')
         or s.recorded_audio is distinct from (select r.file_key from translated_recordings r where r.submission_id = s.id
                                               order by r.created_at desc limit 1)
         or (s.recorded_audio is not null and s.recorded_by is null)
      union all
      select 'recommendation to the assignee or an inactive account', count(*)
      from recommendations r join tasks t on t.id = r.task_id join users u on u.id = r.recommended_to
      where r.recommended_to = t.assigned_to or not u.active`);
    expect(Object.fromEntries(wrong.map((w) => [w.what, Number(w.n)]))).toEqual({
      "approval status": 0,
      "task stages": 0,
      "review times": 0,
      "current transcript": 0,
      "current recording": 0,
      "recommendation to the assignee or an inactive account": 0,
    });
  });

  it("keeps the per-assignee counters equal to a direct count, and the team report agrees with one", async () => {
    const { stored, direct, storedDays, directDays } = await countersAndDirectCounts();
    expect(stored).toEqual(direct);
    expect(storedDays).toEqual(directDays);
    expect(await teamReport({})).toEqual(await directReport(null, null));
    const from = new Date(Date.now() - 200 * DAY - 5 * 3_600_000);
    const to = new Date(Date.now() - 20 * DAY + 7 * 3_600_000);
    expect(await teamReport({ from: from.toISOString(), to: to.toISOString() })).toEqual(await directReport(from, to));
    const overview = await h.caller(await adminUser()).statistics.overview();
    const complete = await spread("tasks", sql.ref("is_complete"));
    expect(overview.tasks).toEqual({ completed: complete.true, pending: complete.false });
    expect(overview.users).toEqual({ adminCount: 3, staffCount: 5 });
  });

  it("writes the audit entries, notifications, comments and recommendations the services write", async () => {
    const actions = await spread("audit_log", sql`action || ' ' || entity`);
    for (const action of [
      "create audio",
      "attach initial-transcript",
      "assign task",
      "open audio",
      "save transcript",
      "upload recording",
      "approve transcript",
      "reject transcript",
      "approve recording",
      "reject recording",
      "comment submission",
      "recommend task",
      "create user",
    ]) {
      expect(actions[action], action).toBeGreaterThan(0);
    }
    expect(await count(sql`select count(*) as n from comments`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from recommendations`)).toBeGreaterThan(0);

    const asAdmin = h.caller(await adminUser());
    const logs = await asAdmin.logs.list({ page: 1 });
    expect(logs.items.length).toBe(50);
    // Every entry reads as a sentence (no '<action> <entity>' fallback) and names a real audio.
    for (const entry of logs.items) {
      expect(entry.sentence).not.toBe(`${entry.action} ${entry.entity}`);
      if (entry.audio?.exists) expect(entry.audio.filename).toMatch(/^(control|dementia)_\d{6}$/);
    }
    const adminBell = await asAdmin.notifications.list({});
    expect(adminBell.items.length).toBeGreaterThan(0);
    const [staff] = await rows(sql<SessionUser>`select id, username, email, role, active from users
                                                where email = 'staff001@seed.local'`);
    const staffBell = await h.caller(staff!).notifications.list({});
    expect(staffBell.items.some((n) => /^(boss|reviewer0\d) (approved|rejected) the /.test(n.message))).toBe(true);
  });

  it("lets the seeded accounts sign in with the printed passwords", async () => {
    expect(seeded.staffEmails).toEqual([1, 2, 3, 4, 5].map((n) => `staff00${n}@seed.local`));
    expect(seeded.reviewerEmails).toEqual(["reviewer01@seed.local", "reviewer02@seed.local"]);
    expect(seeded.admin).toEqual({ email: ADMIN.email, created: true, generatedPassword: undefined });
    expect(await signIn(ADMIN.email, ADMIN.password)).toBe("Admin");
    expect(await signIn("staff001@seed.local", STAFF_PASSWORD)).toBe("Staff");
    expect(await signIn("staff005@seed.local", STAFF_PASSWORD)).toBe("Staff");
    expect(await signIn("reviewer02@seed.local", STAFF_PASSWORD)).toBe("Admin");
    expect(await signIn("staff001@seed.local", "Wrong#Pass1")).toBe("UNAUTHORIZED");
  });

  it("serves the screens' lists, search and files at this size", async () => {
    const [staff] = await rows(sql<SessionUser>`select id, username, email, role, active from users
                                                where email = 'staff001@seed.local'`);
    const asStaff = h.caller(staff!);
    const asAdmin = h.caller(await adminUser());
    expect((await asStaff.tasks.list({ page: 1, limit: 10 })).items.length).toBeGreaterThan(0);
    expect((await asAdmin.tasks.list({ page: 1, limit: 10 })).items.length).toBe(10);
    const unassigned = await Promise.all(
      (["Control", "Dementia"] as const).map((category) =>
        asAdmin.audios.unassigned({ category, page: 1, limit: 100 }),
      ),
    );
    expect(unassigned.reduce((sum, page) => sum + page.items.length, 0)).toBeGreaterThan(0);
    expect((await asAdmin.submissions.list({ page: 1, status: "needsReview" })).items.length).toBeGreaterThan(0);
    expect((await asAdmin.search.audios({ q: "control_0" })).length).toBeGreaterThan(0);

    // With storage, every key a row points at has its file, and the audios' are playable WAVs.
    const keys = await rows(sql<{ key: string; size: string | null }>`
      select file_key as key, size_bytes::text as size from audios
      union all select transcript_key, null from audios where transcript_key is not null
      union all select file_key, null from transcript_versions
      union all select file_key, size_bytes::text from translated_recordings`);
    const missing: string[] = [];
    for (const { key, size } of keys) {
      if (!(await h.deps.storage.exists(key))) missing.push(key);
      else if (size !== null) expect((await fs.stat(path.join(h.filesDir, key))).size).toBe(Number(size));
    }
    expect(missing).toEqual([]);
    expect(seeded.files?.files).toBe(keys.length);
    const [task] = await rows(sql<{ fileKey: string }>`
      select a.file_key from audios a join tasks t on t.audio_id = a.id where t.assigned_to = ${staff!.id} limit 1`);
    expect(await fileLinkFor(h.deps, staff!, task!.fileKey)).toMatch(/^\/files\//);
    const head = (await fs.readFile(path.join(h.filesDir, task!.fileKey))).subarray(0, 12).toString("latin1");
    expect(head.startsWith("RIFF") && head.endsWith("WAVE")).toBe(true);
  });

  it("refuses a database that has audios unless --force, which adds to them", async () => {
    const again = { audios: 40, staff: 5, admin: ADMIN, staffPassword: "Other#Pass2026" };
    await expect(seedProject(db, again)).rejects.toThrow(SeedRefused);
    expect(await count(sql`select count(*) as n from audios`)).toBe(AUDIOS);
    const pendingBefore = await pendingWaveforms();
    const added = await seedProject(db, { ...again, force: true });
    expect(added.admin.created).toBe(false);
    // Rows seeded with files wait for the waveform job; rows without files are left as it would
    // leave them (the file is missing: 'failed'), so a server started on them has nothing to do.
    expect(pendingBefore).toBeGreaterThan(AUDIOS);
    expect(await pendingWaveforms()).toBe(pendingBefore);
    expect(
      await count(sql`select count(*) as n from audios
                      where waveform_status = 'failed' and substring(filename from '[0-9]+$')::int > ${AUDIOS}`),
    ).toBe(40);
    expect(await count(sql`select count(*) as n from audios`)).toBe(AUDIOS + 40);
    expect(await count(sql`select max(substring(filename from '[0-9]+$')::int) as n from audios`)).toBe(AUDIOS + 40);
    expect(await count(sql`select count(*) as n from users where role = 'Staff'`)).toBe(5);
    expect(await signIn("staff003@seed.local", "Other#Pass2026")).toBe("Staff");
    const { stored, direct } = await countersAndDirectCounts();
    expect(stored).toEqual(direct);
  }, 120_000);
});

describe("npm run seed (the command, bench/seed.ts)", () => {
  /** Runs `tsx bench/seed.ts args` with `env`; resolves to its exit code and output. */
  function runSeed(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve, reject) => {
      const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
      for (const name of ["DATABASE_URL", "ADMIN_PASSWORD", "ADMIN_EMAIL"]) if (!(name in env)) delete childEnv[name];
      const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), [path.join(ROOT, "bench/seed.ts"), ...args], {
        cwd: ROOT,
        env: childEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("error", reject);
      child.on("exit", (code) => resolve({ code, output }));
    });
  }

  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it("seeds the app's database, prints how to sign in, and refuses to seed it twice", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-seed-"));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: dataDir };
    const template = inject("dbTemplate");
    if (template.kind === "postgres") {
      const target = await createTestDb(template);
      cleanups.push(() => target.close());
      env.DATABASE_URL = target.url!;
    }
    const first = await runSeed(["--audios", "40", "--staff", "2", "--password", "Cli#Pass2026"], env);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(/Audios: 40 \(\d+ Control, \d+ Dementia\)/);
    expect(first.output).toMatch(/admin@tafsiri\.local with password \S+ \(generated now/);
    expect(first.output).toContain("staff001@seed.local … staff002@seed.local");
    expect(first.output).toContain("all with password Cli#Pass2026");
    const second = await runSeed(["--audios", "40", "--staff", "2"], env);
    expect(second.code).toBe(1);
    expect(second.output).toContain("This database already has 40 audios");
  }, 240_000);
});
