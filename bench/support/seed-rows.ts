import { performance } from "node:perf_hooks";
import { sql, type RawBuilder } from "kysely";
import type { Database } from "@tafsiri/db";
import { approvalStatus } from "./review-statuses";

/**
 * The rows of `npm run seed` (bench/seed.ts), written set-based (`insert … select` over
 * generate_series and temporary planning tables) in the caller's transaction, through the real
 * tables: the triggers on tasks and submissions keep the per-assignee counters exact as they go.
 *
 * The history: audios uploaded evenly over the last two years; most assigned (in their last two
 * weeks, most not yet); the assignee works on the submission (transcript versions, then translated
 * recordings), the admins review each (rejected versions are followed by a new one), older work is
 * mostly approved, recent work still pending. Every event writes the audit entry and the
 * notifications the services write for it (same actions, details and sentences). Draws come from
 * hashes of the audio's number, so a size gives the same spread every time.
 */

/** Days of history the seed spreads its audios over. */
const SEED_SPAN_DAYS = 730;
/** The e-mail domain of the seeded accounts. */
export const SEED_DOMAIN = "seed.local";
/** Seeded staff member n (1-based) is inactive when n is a multiple of this (left the project). */
export const INACTIVE_EVERY = 20;
/** Seeded administrators besides the first admin (`reviewer01@seed.local`, …), who review too. */
const REVIEWER_COUNT = 2;

const LINKS = {
  transcript: "/audiomanagement/trascript",
  translatedAudio: "/audiomanagement/translatedaudio",
  recordings: "/Recordings/",
  feedback: "/audiomanagement/feedback",
} as const;

/** The seeded accounts' usernames and e-mails: `staff001` … and `reviewer01` …. */
export function seedAccountNames(staffCount: number): {
  staff: Array<{ username: string; email: string }>;
  reviewers: Array<{ username: string; email: string }>;
} {
  const width = Math.max(3, String(staffCount).length);
  const account = (username: string) => ({ username, email: `${username}@${SEED_DOMAIN}` });
  return {
    staff: Array.from({ length: staffCount }, (_, i) => account(`staff${String(i + 1).padStart(width, "0")}`)),
    reviewers: Array.from({ length: REVIEWER_COUNT }, (_, i) => account(`reviewer${String(i + 1).padStart(2, "0")}`)),
  };
}

/** SQL: a uniform draw in [0, 1) for the row's number `n` (column `column`) and `tag`, the same every run. */
function draw(tag: string, column = "n"): RawBuilder<number> {
  return sql<number>`(((hashtext(${sql.ref(column)}::text || ${sql.lit(`:${tag}`)})::bigint + 2147483648) % 1000000)::float8
                      / 1000000)`;
}

/** SQL: one of `texts`, chosen by `index` (a whole number ≥ 0; wraps around). */
function pick(texts: readonly string[], index: RawBuilder<number>): RawBuilder<string> {
  return sql<string>`(array[${sql.join(texts.map((t) => sql.lit(t)))}])[1 + (${index})::int % ${sql.lit(texts.length)}]`;
}

/** SQL: the instant `hours` (an expression) into the work on planned audio `p`, scaled to end by now. */
function workAt(hours: RawBuilder<number>): RawBuilder<Date> {
  return sql<Date>`(p.sub_created + p.k * (${hours}) * interval '1 hour')`;
}

/** SEED_TRACE=1 prints each statement's time (to see where a slow seed spends it). */
const TRACE = process.env.SEED_TRACE === "1";

/**
 * Runs `query` in `trx`; with SEED_TRACE=1 prints how long `label` took, and with
 * SEED_EXPLAIN=<label> runs it under EXPLAIN (ANALYZE, BUFFERS) and prints the plan.
 */
async function run(trx: Database, label: string, query: RawBuilder<unknown>): Promise<void> {
  const start = performance.now();
  if (process.env.SEED_EXPLAIN === label) {
    const { rows } = await sql<Record<string, string>>`explain (analyze, buffers) ${query}`.execute(trx);
    for (const row of rows) console.log(Object.values(row)[0]);
  } else await query.execute(trx);
  if (TRACE) console.log(`  ${label}: ${(performance.now() - start).toFixed(0)} ms`);
}

const INTERVIEWER_LINES = [
  "Tell me about the picture in front of you.",
  "What did you do this morning?",
  "Can you describe your home village?",
  "What happens next in the story?",
  "Tell me about your family.",
  "How did you come here today?",
  "What is the woman in the kitchen doing?",
  "Name as many animals as you can.",
] as const;
const PARTICIPANT_LINES = [
  "The boy is standing on the stool and it is falling.",
  "I woke up early and went to the garden to dig.",
  "Our village is near the lake, we fish and grow matooke.",
  "Then the mother comes and she is washing the plates.",
  "I have five children, two are in Kampala.",
  "My son brought me on a boda boda.",
  "The water is running over from the sink onto the floor.",
  "Cow, goat, dog, hen, the one with long neck, giraffe.",
  "I do not remember &-uh the name of that place.",
  "She is &-um she is drying the dishes (..) yes.",
] as const;
const TRANSCRIPT_REASONS = [
  "Some words are left untranslated.",
  "The speaker turns are mixed up; please check *INV and *PAR.",
  "Pauses and fillers are not marked.",
  "The second half does not match the audio.",
  "Please follow the CHAT conventions for repetitions.",
] as const;
const RECORDING_REASONS = [
  "The recording is too quiet; please record again.",
  "Background noise makes parts hard to hear.",
  "The recording stops before the end of the transcript.",
  "Please read the translation more slowly.",
] as const;
const DISCUSSION_LINES = [
  "Should I keep the participant's repetitions in the translation?",
  "Please mark the long pause near the end.",
  "The speaker switches to Luganda in the middle; I translated it as well.",
  "Thanks, this looks good.",
  "Part of the audio is unclear; I marked it with xxx.",
  "Could you check the last three lines again?",
] as const;

/**
 * Creates the temporary tables the seed plans in (dropped when the transaction ends). Resolves
 * when created.
 */
export async function createSeedTables(trx: Database): Promise<void> {
  const statements = [
    sql`create temp table seed_staff (id uuid primary key, k_all int not null, k_active int) on commit drop`,
    sql`create temp table seed_admins (id uuid primary key, k int not null) on commit drop`,
    sql`create temp table seed_audio (
          n bigint primary key, audio_id uuid not null, filename text not null, category text not null,
          created_at timestamptz not null, uploader uuid not null, has_initial boolean not null, size_bytes bigint not null,
          task_id uuid, assignee uuid, first_assignee uuid, assigner uuid, task_created timestamptz,
          sub_id uuid, sub_created timestamptz, transcript text, recording text,
          versions int not null default 0, recordings int not null default 0,
          g_t float8, r_t float8, g_r float8, r_r float8, t0 float8, k float8,
          reviewer uuid, rec_reviewer uuid, recorder uuid, recommended_to uuid, recommender uuid,
          comments int not null default 0, twin_deleted boolean not null default false,
          last_version_id uuid, last_recording_id uuid) on commit drop`,
    sql`create temp table seed_version (
          id uuid primary key, sub_id uuid not null, audio_id uuid not null, n bigint not null, seq int not null,
          file_name text not null, file_key text not null, body text not null, created_by uuid, created_at timestamptz not null,
          status text, reviewed_at timestamptz, reviewer uuid, reason text) on commit drop`,
    sql`create temp table seed_recording (
          id uuid primary key, sub_id uuid not null, audio_id uuid not null, n bigint not null, seq int not null,
          file_key text not null, recorded_by uuid, created_at timestamptz not null,
          status text, reviewed_at timestamptz, reviewer uuid, reason text) on commit drop`,
    sql`create temp table seed_comment (
          id uuid primary key, sub_id uuid not null, audio_id uuid not null, body text not null, posted_by uuid,
          posted_at timestamptz not null, discussion boolean not null, by_admin boolean not null) on commit drop`,
    sql`create temp table seed_event (
          ts timestamptz not null, actor uuid, action text not null, entity text not null, entity_id text,
          detail jsonb not null, audio_id uuid, admins_message text, user_id uuid, user_message text, link text)
        on commit drop`,
  ];
  for (const statement of statements) await statement.execute(trx);
}

/** What seedAccounts made: the ids the work is spread over. */
export interface SeedAccounts {
  /** Seeded staff (active or not), in username order. */
  staffCount: number;
  activeStaffCount: number;
  /** The administrators who upload, assign and review: the first admin, then the reviewers. */
  adminCount: number;
}

/**
 * Creates the seeded staff (`staff001@seed.local` …, one in INACTIVE_EVERY inactive, with the
 * deactivation in the audit log) and REVIEWER_COUNT administrators, all with `passwordHash`;
 * accounts that already exist (a seed added to an earlier one) keep their rows and get
 * `passwordHash`. Fills seed_staff and seed_admins (`adminId` first). Resolves to the counts.
 */
export async function seedAccounts(
  trx: Database,
  { staffCount, passwordHash, adminId }: { staffCount: number; passwordHash: string; adminId: string },
): Promise<SeedAccounts> {
  const names = seedAccountNames(staffCount);
  const accounts = [
    ...names.staff.map((a, i) => ({ ...a, role: "Staff", active: (i + 1) % INACTIVE_EVERY !== 0, i })),
    ...names.reviewers.map((a, i) => ({ ...a, role: "Admin", active: true, i })),
  ];
  const rows = sql.join(
    accounts.map(
      (a) => sql`(${a.username}::text, ${a.email}::text, ${a.role}::text, ${a.active}::boolean, ${a.i}::int)`,
    ),
  );
  // Accounts join during the month before the first audio, in order.
  const created = await sql<{ id: string; role: string; active: boolean; createdAt: Date }>`
    insert into users (username, email, password_hash, role, active, created_at)
    select v.username, v.email, ${passwordHash}, v.role, v.active,
           now() - interval '1 day' * ${sql.lit(SEED_SPAN_DAYS + 30)} + v.i * interval '30 days' / ${sql.lit(staffCount + 1)}
    from (values ${rows}) v (username, email, role, active, i)
    on conflict do nothing
    returning id, role, active, created_at`.execute(trx);
  const emails = accounts.map((a) => a.email.toLowerCase());
  await sql`update users set password_hash = ${passwordHash}
            where lower(email) = any(${sql`array[${sql.join(emails.map((e) => sql`${e}::text`))}]`})`.execute(trx);
  await sql`
    insert into seed_staff (id, k_all, k_active)
    select id, (row_number() over (order by username) - 1)::int,
           case when active then (row_number() over (partition by active order by username) - 1)::int end
    from users where role = 'Staff' and lower(email) = any(${sql`array[${sql.join(
      names.staff.map((a) => sql`${a.email.toLowerCase()}::text`),
    )}]`})`.execute(trx);
  await sql`
    insert into seed_admins (id, k)
    select id, case when id = ${adminId}::uuid then 0 else row_number() over (order by id = ${adminId}::uuid, username)::int end
    from users where id = ${adminId}::uuid or (role = 'Admin' and active and lower(email) = any(${sql`array[${sql.join(
      names.reviewers.map((a) => sql`${a.email.toLowerCase()}::text`),
    )}]`}))`.execute(trx);
  // Who made the accounts made now, and who left.
  const createdIds = sql`array[${sql.join(created.rows.map((r) => sql`${r.id}::uuid`))}]::uuid[]`;
  if (created.rows.length > 0) {
    await sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail)
      select u.created_at, ${adminId}::uuid, 'create', 'user', u.id::text, jsonb_build_object('role', u.role)
      from users u where u.id = any(${createdIds})
      union all
      select now() - (30 + ${draw("left", "u.id")} * 300) * interval '1 day', ${adminId}::uuid, 'deactivate', 'user',
             u.id::text, '{}'::jsonb
      from users u where u.id = any(${createdIds}) and not u.active`.execute(trx);
  }
  await sql`analyze seed_staff`.execute(trx);
  await sql`analyze seed_admins`.execute(trx);
  const { rows: counts } = await sql<{ staff: number; active: number; admins: number }>`
    select (select count(*) from seed_staff)::int as staff,
           (select count(*) from seed_staff where k_active is not null)::int as active,
           (select count(*) from seed_admins)::int as admins`.execute(trx);
  const c = counts[0] ?? { staff: 0, active: 0, admins: 0 };
  if (c.active === 0) throw new Error("The seed needs at least one active staff member (--staff 1 or more).");
  return { staffCount: c.staff, activeStaffCount: c.active, adminCount: c.admins };
}

/** One slice of the audios to seed, and the figures that place it in the whole run. */
export interface SeedChunk {
  /** The number of the slice's first audio minus one (filenames are `control_000123`, `dementia_000124`). */
  firstNumber: number;
  /** The slice's first audio's position in the run, minus one (0 for the first slice). */
  offset: number;
  /** Audios in this slice. */
  count: number;
  /** Audios in the whole run (their upload times spread over SEED_SPAN_DAYS). */
  total: number;
  /** size_bytes of every audio and recording row (the generated WAV's when files are written); undefined: a realistic spread. */
  audioBytes: number | undefined;
  recordingBytes: number | undefined;
}

/**
 * Plans and inserts one slice of audios with everything that follows from them: tasks,
 * submissions, transcript versions, translated recordings, comments, recommendations, and the
 * audit entries and notifications of every step (with the accounts' entries, for the first
 * slice). Needs createSeedTables and seedAccounts first. Resolves when inserted.
 */
export async function seedChunk(trx: Database, chunk: SeedChunk, accounts: SeedAccounts): Promise<void> {
  const { firstNumber, offset, count, total } = chunk;
  const lit = sql.lit;
  await run(trx, "truncate seed_audio", sql`truncate seed_audio, seed_version, seed_recording, seed_comment`);
  // Without files the waveform job would find every file missing and mark its row 'failed', one
  // by one, for hours after a server starts on the seeded database (while benchmarks measure it):
  // the rows are written as it would leave them. With files it computes their peaks as for uploads.
  const waveformStatus = lit(chunk.audioBytes === undefined ? "failed" : "pending");
  const audioBytes =
    chunk.audioBytes === undefined ? sql`(1000000 + ${draw("size")} * 39000000)::bigint` : lit(chunk.audioBytes);
  // The plan: one row per audio with every decision about it.
  await run(
    trx,
    "insert into seed_audio",
    sql`
    insert into seed_audio (n, audio_id, filename, category, created_at, uploader, has_initial, size_bytes,
                            task_id, assignee, first_assignee, assigner, task_created, sub_id, sub_created,
                            transcript, recording, versions, recordings, g_t, r_t, g_r, r_r, t0,
                            reviewer, rec_reviewer, comments, twin_deleted, last_version_id, last_recording_id)
    with d as materialized (
      select ${lit(firstNumber)}::bigint + g as n, ${lit(offset)} + g as pos from generate_series(1, ${lit(count)}) g
    ), a as materialized (
      select d.n,
             case when ${draw("c")} < 0.55 then 'Control' else 'Dementia' end as category,
             now() - (${lit(total)} - d.pos + ${draw("j")}) * interval '1 day' * ${lit(SEED_SPAN_DAYS)} / ${lit(total)} as created_at,
             ${draw("up")} as u_up, ${draw("it")} < 0.25 as has_initial, ${audioBytes} as size_bytes,
             ${draw("a")} as u_a, ${draw("tc")} as u_tc, ${draw("s")} as u_s, ${draw("sb")} as u_sb,
             ${draw("sd")} as u_sd, ${draw("t")} as u_t, ${draw("r")} as u_r, ${draw("v")} as u_v,
             ${draw("rv")} as u_rv, ${draw("gt")} as u_gt, ${draw("rt")} as u_rt, ${draw("gr")} as u_gr,
             ${draw("rr")} as u_rr, ${draw("t0")} as u_t0, ${draw("rev")} as u_rev, ${draw("rrev")} as u_rrev,
             ${draw("cm")} as u_cm, ${draw("ra")} as u_ra, ${draw("tw")} as u_tw
      from d
    ), t as materialized (
      select a.*,
             case when a.created_at > now() - interval '14 days' then a.u_a < 0.35 else a.u_a < 0.96 end as assigned,
             least(now(), a.created_at + (1 + 167 * a.u_tc) * interval '1 hour') as task_created,
             a.created_at + (1 + 167 * a.u_tc) * interval '1 hour' + (2 + 238 * a.u_sd) * interval '1 hour' as sub_at,
             -- Audios of the last year go to active staff; older ones to anyone (some have left since).
             floor(power(a.u_s, 1.3) * case when a.created_at < now() - interval '365 days' then ${lit(accounts.staffCount)}
                                            else ${lit(accounts.activeStaffCount)} end)::int as staff_k
      from a
    ), s as materialized (
      select t.*, case when t.assigned then coalesce(sa.id, sb.id) end as assignee, coalesce(sa.k_all, sb.k_all) as k_all,
             -- Work starts 2 to 240 hours after the assignment; not yet, for the latest ones.
             t.assigned and t.sub_at < now() - interval '1 hour'
               and t.u_sb < case when t.task_created < now() - interval '30 days' then 0.97
                                 when t.task_created < now() - interval '7 days' then 0.8 else 0.6 end as has_sub,
             t.task_created < now() - interval '45 days' as is_old
      from t
      left join seed_staff sa on t.created_at < now() - interval '365 days' and sa.k_all = t.staff_k
      left join seed_staff sb on t.created_at >= now() - interval '365 days' and sb.k_active = t.staff_k
    ), w as materialized (
      select s.*,
             case when not s.has_sub then null
                  when s.is_old then case when s.u_t < 0.02 then 'No transcript' when s.u_t < 0.05 then 'Pending'
                                       when s.u_t < 0.93 then 'Approved' else 'Rejected' end
                  else case when s.u_t < 0.15 then 'No transcript' when s.u_t < 0.55 then 'Pending'
                            when s.u_t < 0.85 then 'Approved' else 'Rejected' end end as transcript
      from s
    ), x as materialized (
      select w.*,
             case when not w.has_sub then null
                  when w.transcript = 'No transcript' then 'No translation audio'
                  when w.transcript = 'Pending' then case when w.u_r < 0.6 then 'No translation audio' else 'Pending' end
                  when w.transcript = 'Rejected' then case when w.u_r < 0.5 then 'No translation audio' when w.u_r < 0.8 then 'Pending'
                                                           when w.u_r < 0.9 then 'Approved' else 'Rejected' end
                  when w.is_old then case when w.u_r < 0.04 then 'No translation audio' when w.u_r < 0.08 then 'Pending'
                                       when w.u_r < 0.94 then 'Approved' else 'Rejected' end
                  else case when w.u_r < 0.3 then 'No translation audio' when w.u_r < 0.6 then 'Pending'
                            when w.u_r < 0.88 then 'Approved' else 'Rejected' end end as recording
      from w
    ), y as materialized (
      select x.*,
             case when x.transcript is null or x.transcript = 'No transcript' then 0
                  else 1 + (x.u_v < 0.25)::int + (x.u_v < 0.06)::int end as versions,
             case when x.recording is null or x.recording = 'No translation audio' then 0 else 1 + (x.u_rv < 0.15)::int end
               as recordings
      from x
    )
    select y.n, gen_random_uuid(), lower(y.category) || '_' || lpad(y.n::text, greatest(6, length(y.n::text)), '0'),
           y.category, y.created_at,
           up.id, y.has_initial, y.size_bytes,
           case when y.assigned then gen_random_uuid() end, y.assignee,
           case when y.assigned and y.u_ra < 0.03 and ${lit(accounts.staffCount)} > 1
                then (select z.id from seed_staff z where z.k_all = (y.k_all + 1) % ${lit(accounts.staffCount)})
                else y.assignee end,
           case when y.assigned then up.id end, case when y.assigned then y.task_created end,
           case when y.has_sub then gen_random_uuid() end,
           case when y.has_sub then y.sub_at end,
           y.transcript, y.recording, y.versions, y.recordings,
           48 + 72 * y.u_gt, 4 + 40 * y.u_rt, 48 + 72 * y.u_gr, 4 + 40 * y.u_rr,
           greatest(y.versions - 1, 0) * (48 + 72 * y.u_gt) + 24 + 24 * y.u_t0,
           rv.id, rr.id,
           case when not y.has_sub then 0
                when y.u_cm < 0.12 then 1 + floor(y.u_cm / 0.04)::int
                when y.versions = 0 and y.recordings = 0 then 1 else 0 end,
           y.u_tw < 0.002,
           case when y.versions > 0 then gen_random_uuid() end,
           case when y.recordings > 0 then gen_random_uuid() end
    from y
    -- The first admin uploads, assigns and reviews most; the reviewers the rest.
    join seed_admins up
      on up.k = case when y.u_up < 0.7 or ${lit(accounts.adminCount)} = 1 then 0
                     else 1 + floor(y.u_up * 1000)::int % (${lit(accounts.adminCount)} - 1) end
    join seed_admins rv
      on rv.k = case when y.u_rev < 0.6 or ${lit(accounts.adminCount)} = 1 then 0
                     else 1 + floor(y.u_rev * 1000)::int % (${lit(accounts.adminCount)} - 1) end
    join seed_admins rr
      on rr.k = case when y.u_rrev < 0.6 or ${lit(accounts.adminCount)} = 1 then 0
                     else 1 + floor(y.u_rrev * 1000)::int % (${lit(accounts.adminCount)} - 1) end`,
  );

  // The scale that ends each audio's work by now (recent work is compressed into the time there
  // was), the recommendation (one task in ten with a transcript, to another active staff member)
  // and who recorded (the recommended colleague, or the assignee).
  await run(
    trx,
    "update seed_audio",
    sql`
    update seed_audio p set
      k = least(1, extract(epoch from now() - p.sub_created) / 3600
                   / (greatest((p.versions - 1) * p.g_t + p.r_t,
                               case when p.recordings > 0 then p.t0 + (p.recordings - 1) * p.g_r + p.r_r else 0 end, 24) + 2))
    where p.sub_id is not null`,
  );
  await run(
    trx,
    "update seed_audio",
    sql`
    update seed_audio p set
      recommended_to = r.id,
      recommender = case when ${draw("rcb", "p.n")} < 0.7 then p.assignee else (select id from seed_admins where k = 0) end
    from seed_staff a, seed_staff r
    where a.id = p.assignee and p.versions > 0 and ${draw("rc", "p.n")} < 0.1
      and r.k_active = (coalesce(a.k_active, 0) + 1 + floor(${draw("rct", "p.n")} * 1000)::int
                        % greatest(${lit(accounts.activeStaffCount)} - 1, 1)) % ${lit(accounts.activeStaffCount)}
      and r.id <> p.assignee`,
  );
  await run(
    trx,
    "update seed_audio",
    sql`
    update seed_audio p set recorder = case when p.recommended_to is not null and ${draw("rec")} < 0.6
                                            then p.recommended_to else p.assignee end
    where p.recordings > 0`,
  );
  await run(trx, "analyze seed_audio", sql`analyze seed_audio`);

  await run(
    trx,
    "insert into audios",
    sql`
    insert into audios (id, filename, category, file_key, mime_type, size_bytes, transcript_key, uploaded_by,
                        last_opened_by, time_last_opened, created_at, waveform_status)
    select p.audio_id, p.filename, p.category, 'audios/' || p.audio_id || '.wav', 'audio/wav', p.size_bytes,
           case when p.has_initial then 'initial-transcripts/' || p.audio_id || '.txt' end, p.uploader,
           case when p.sub_id is not null then p.assignee end,
           case when p.sub_id is not null then greatest(p.task_created, p.sub_created - interval '30 minutes') end,
           p.created_at, ${waveformStatus}
    from seed_audio p order by p.n`,
  );

  // Transcript versions: version i saved (i - 1) × g_t hours into the work; each but the last
  // rejected r_t hours after it was saved, the last reviewed so if it is Approved or Rejected.
  await run(
    trx,
    "insert into seed_version",
    sql`
    insert into seed_version (id, sub_id, audio_id, n, seq, file_name, file_key, body, created_by, created_at,
                              status, reviewed_at, reviewer, reason)
    select v.id, v.sub_id, v.audio_id, v.n, v.seq, v.file_name,
           'transcripts/' || v.audio_id || '/' || v.id || '/' || v.file_name, v.body, v.created_by, v.created_at,
           v.status, v.reviewed_at, v.reviewer,
           case when v.status = 'Rejected' and v.u_reason < 0.6 then ${pick(TRANSCRIPT_REASONS, sql`floor(v.u_reason * 1000)`)} end
    from (
      select case when g.seq = p.versions then p.last_version_id else gen_random_uuid() end as id,
             p.sub_id, p.audio_id, p.n, g.seq,
             p.filename || '_TRANSLATEDTRANSCRIPT_' || to_char(sv.saved at time zone 'UTC', 'YYYY-MM-DD_HH24-MI-SS') || '.cha'
               as file_name,
             '@UTF8' || chr(10) || '@Begin' || chr(10) || '@Languages:' || chr(9) || 'eng, lug' || chr(10)
               || '@Participants:' || chr(9) || 'PAR Participant, INV Investigator' || chr(10)
               || '@Media:' || chr(9) || p.filename || ', audio' || chr(10)
               || '*INV:' || chr(9) || ${pick(INTERVIEWER_LINES, sql`p.n`)} || chr(10)
               || '*PAR:' || chr(9) || ${pick(PARTICIPANT_LINES, sql`p.n`)} || chr(10)
               || '*INV:' || chr(9) || ${pick(INTERVIEWER_LINES, sql`p.n / 7`)} || chr(10)
               || '*PAR:' || chr(9) || ${pick(PARTICIPANT_LINES, sql`p.n / 3 + g.seq`)} || chr(10)
               || case when g.seq > 1 then '%com:' || chr(9) || 'Revision ' || g.seq || chr(10) else '' end
               || '@End' || chr(10) as body,
             p.assignee as created_by, sv.saved as created_at, st.status,
             case when st.status is not null then ${workAt(sql`(g.seq - 1) * p.g_t + p.r_t`)} end as reviewed_at,
             case when st.status is not null then p.reviewer end as reviewer,
             ${draw("reason", "p.n")} as u_reason
      from seed_audio p
      cross join lateral generate_series(1, p.versions) g (seq)
      cross join lateral (select ${workAt(sql`(g.seq - 1) * p.g_t`)} as saved) sv
      cross join lateral (select case when g.seq < p.versions then 'Rejected'
                                      when p.transcript in ('Approved', 'Rejected') then p.transcript end as status) st
      where p.versions > 0
    ) v`,
  );
  // Translated recordings: the first t0 hours into the work (after the last transcript was saved),
  // then every g_r hours, each but the last rejected.
  await run(
    trx,
    "insert into seed_recording",
    sql`
    insert into seed_recording (id, sub_id, audio_id, n, seq, file_key, recorded_by, created_at, status, reviewed_at,
                                reviewer, reason)
    select v.id, v.sub_id, v.audio_id, v.n, v.seq, 'recordings/' || v.audio_id || '/' || v.id || '.wav', v.recorded_by,
           v.created_at, v.status, v.reviewed_at, v.reviewer,
           case when v.status = 'Rejected' and v.u_reason < 0.6 then ${pick(RECORDING_REASONS, sql`floor(v.u_reason * 1000)`)} end
    from (
      select case when g.seq = p.recordings then p.last_recording_id else gen_random_uuid() end as id,
             p.sub_id, p.audio_id, p.n, g.seq, p.recorder as recorded_by,
             ${workAt(sql`p.t0 + (g.seq - 1) * p.g_r`)} as created_at, st.status,
             case when st.status is not null then ${workAt(sql`p.t0 + (g.seq - 1) * p.g_r + p.r_r`)} end as reviewed_at,
             case when st.status is not null then p.rec_reviewer end as reviewer,
             ${draw("rreason", "p.n")} as u_reason
      from seed_audio p
      cross join lateral generate_series(1, p.recordings) g (seq)
      cross join lateral (select case when g.seq < p.recordings then 'Rejected'
                                      when p.recording in ('Approved', 'Rejected') then p.recording end as status) st
      where p.recordings > 0
    ) v`,
  );

  // Tasks: their stages follow the submission's outputs (SPEC §4); last changed with the last save or review.
  await run(
    trx,
    "insert into tasks",
    sql`
    insert into tasks (id, audio_id, assigned_to, translation_status, recording_status, is_complete, created_at, updated_at)
    select p.task_id, p.audio_id, p.assignee,
           case when p.transcript = 'Approved' then 'Completed' else 'In Progress' end,
           case when p.recording = 'Approved' then 'Completed' else 'In Progress' end,
           coalesce(p.transcript = 'Approved' and p.recording = 'Approved', false),
           p.task_created,
           greatest(p.task_created, p.sub_created, v.created_at, v.reviewed_at, r.created_at, r.reviewed_at)
    from seed_audio p
    left join seed_version v on v.id = p.last_version_id
    left join seed_recording r on r.id = p.last_recording_id
    where p.task_id is not null order by p.n`,
  );

  await run(
    trx,
    "insert into submissions",
    sql`
    insert into submissions (id, task_id, created_by, submission_date, translation_script,
                             translation_script_approval_status, recorded_audio, recorded_audio_approval_status,
                             approval_status, recorded_by, updated_at, transcript_reviewed_at, recording_reviewed_at)
    select s.sub_id, s.task_id, s.assignee, s.submission_date, s.translation_script, s.transcript, s.recorded_audio,
           s.recording, ${approvalStatus("transcript", "recording")}, s.recorded_by,
           greatest(s.submission_date, s.transcript_reviewed_at, s.recording_reviewed_at),
           s.transcript_reviewed_at, s.recording_reviewed_at
    from (
      select p.n, p.sub_id, p.task_id, p.assignee, p.transcript, p.recording,
             coalesce(greatest(v.created_at, r.created_at), p.sub_created) as submission_date,
             v.file_key as translation_script, r.file_key as recorded_audio, r.recorded_by,
             v.reviewed_at as transcript_reviewed_at, r.reviewed_at as recording_reviewed_at
      from seed_audio p
      left join seed_version v on v.id = p.last_version_id
      left join seed_recording r on r.id = p.last_recording_id
      where p.sub_id is not null
    ) s order by s.n`,
  );
  await run(
    trx,
    "insert into transcript_versions",
    sql`
    insert into transcript_versions (id, submission_id, file_key, file_name, text, created_by, created_at)
    select id, sub_id, file_key, file_name, body, created_by, created_at from seed_version order by n, seq`,
  );
  const recordingBytes =
    chunk.recordingBytes === undefined
      ? sql`(300000 + ${draw("rsize", "r.n")} * 5700000)::bigint`
      : lit(chunk.recordingBytes);
  await run(
    trx,
    "insert into translated_recordings",
    sql`
    insert into translated_recordings (id, submission_id, file_key, mime_type, size_bytes, recorded_by, uploaded_by,
                                       created_at, waveform_status)
    select r.id, r.sub_id, r.file_key, 'audio/wav', ${recordingBytes}, r.recorded_by, r.recorded_by, r.created_at,
           ${waveformStatus}
    from seed_recording r order by r.n, r.seq`,
  );
  // Reviews (decision 025): one row per reviewed transcript version and recording, by its
  // reviewer, naming the version judged and when it was saved, as insertReview writes them.
  await run(
    trx,
    "insert into reviews",
    sql`
    insert into reviews (submission_id, output, action, reviewer_id, reviewed_at, saved_at, transcript_version_id,
                         recording_id, reason)
    select o.sub_id, o.output, case o.status when 'Approved' then 'approve' else 'reject' end, o.reviewer,
           o.reviewed_at, o.created_at, o.version_id, o.recording_id, o.reason
    from (
      select v.sub_id, 'transcript' as output, v.status, v.reviewer, v.reviewed_at, v.created_at, v.id as version_id,
             null::uuid as recording_id, v.reason
      from seed_version v where v.status is not null
      union all
      select r.sub_id, 'recording', r.status, r.reviewer, r.reviewed_at, r.created_at, null, r.id, r.reason
      from seed_recording r where r.status is not null
    ) o order by o.reviewed_at`,
  );

  // Comments: a rejection's reason (the reviewer's, as reviewOutput stores it) and, on some
  // submissions, a short discussion between the assignee and the first admin.
  await run(
    trx,
    "insert into seed_comment",
    sql`
    insert into seed_comment (id, sub_id, audio_id, body, posted_by, posted_at, discussion, by_admin)
    select gen_random_uuid(), v.sub_id, v.audio_id, v.reason, v.reviewer, v.reviewed_at, false, true
    from seed_version v where v.reason is not null
    union all
    select gen_random_uuid(), r.sub_id, r.audio_id, r.reason, r.reviewer, r.reviewed_at, false, true
    from seed_recording r where r.reason is not null
    union all
    select gen_random_uuid(), p.sub_id, p.audio_id, ${pick(DISCUSSION_LINES, sql`p.n + g.seq`)},
           case when g.seq % 2 = 1 then p.assignee else (select id from seed_admins where k = 0) end,
           ${workAt(sql`g.seq * (greatest((p.versions - 1) * p.g_t + p.r_t, 24) + 2) / (p.comments + 1)`)},
           true, g.seq % 2 = 0
    from seed_audio p cross join lateral generate_series(1, p.comments) g (seq)
    where p.comments > 0`,
  );
  await run(
    trx,
    "insert into comments",
    sql`
    insert into comments (id, submission_id, text, posted_by, posted_at)
    select id, sub_id, body, posted_by, posted_at from seed_comment order by posted_at`,
  );
  await run(
    trx,
    "insert into recommendations",
    sql`
    insert into recommendations (task_id, recommended_to, recommended_by, created_at)
    select p.task_id, p.recommended_to, p.recommender, ${workAt(sql`p.r_t / 2`)}
    from seed_audio p where p.recommended_to is not null order by p.n`,
  );

  await seedChunkEvents(trx);
}

/** Records the chunk's events in seed_event: what the services write to the audit log and the notifications. */
async function seedChunkEvents(trx: Database): Promise<void> {
  const events = [
    // Uploads, initial transcripts, an occasional duplicate upload deleted the same day.
    sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail, audio_id)
      select p.created_at, p.uploader, 'create', 'audio', p.audio_id::text,
             jsonb_build_object('filename', p.filename, 'category', p.category), p.audio_id
      from seed_audio p
      union all
      select p.created_at + interval '5 minutes', p.uploader, 'attach', 'initial-transcript', p.audio_id::text,
             jsonb_build_object('replaced', false), p.audio_id
      from seed_audio p where p.has_initial
      union all
      select p.created_at + interval '20 minutes', p.uploader, 'delete', 'audio', gen_random_uuid()::text,
             jsonb_build_object('filename', p.filename || '_copy', 'files', 1), null
      from seed_audio p where p.twin_deleted`,
    // Assignments (to the first assignee), reassignments, the assignee opening the audio.
    sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail, audio_id)
      select p.task_created, p.assigner, 'assign', 'task', p.task_id::text,
             jsonb_build_object('audioId', p.audio_id, 'assignedTo', p.first_assignee), p.audio_id
      from seed_audio p where p.task_id is not null
      union all
      select p.task_created + (coalesce(p.sub_created, now()) - p.task_created) / 2, p.assigner, 'reassign', 'task',
             p.task_id::text, jsonb_build_object('audioId', p.audio_id, 'from', p.first_assignee, 'to', p.assignee), p.audio_id
      from seed_audio p where p.task_id is not null and p.first_assignee <> p.assignee
      union all
      select greatest(p.task_created, p.sub_created - interval '30 minutes'), p.assignee, 'open', 'audio', p.audio_id::text,
             '{}'::jsonb, p.audio_id
      from seed_audio p where p.sub_id is not null`,
    // Transcripts saved: the admins are told.
    sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail, audio_id, admins_message, link)
      select v.created_at, v.created_by, 'save', 'transcript', v.id::text,
             jsonb_build_object('audioId', v.audio_id, 'fileName', v.file_name), v.audio_id,
             u.username || case when v.seq = 1 then ' uploaded a new transcript' else ' updated the transcript' end
               || ' for ' || p.filename, ${LINKS.transcript}
      from seed_version v join seed_audio p on p.n = v.n join users u on u.id = v.created_by`,
    // Recordings uploaded: the admins are told.
    sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail, audio_id, admins_message, link)
      select r.created_at, r.recorded_by, 'upload', 'recording', r.sub_id::text,
             jsonb_build_object('audioId', r.audio_id, 'fileKey', r.file_key, 'recordedBy', r.recorded_by), r.audio_id,
             u.username || case when r.seq = 1 then ' uploaded a new the recorded audio' else ' updated the recorded audio' end
               || ' for ' || p.filename, ${LINKS.translatedAudio}
      from seed_recording r join seed_audio p on p.n = r.n join users u on u.id = r.recorded_by`,
    // Reviews: the admins and the assignee are told (the assignee with the reason).
    sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail, audio_id, admins_message, user_id,
                              user_message, link)
      select o.reviewed_at, o.reviewer, case o.status when 'Approved' then 'approve' else 'reject' end, o.entity,
             o.sub_id::text,
             jsonb_build_object('audioId', o.audio_id, 'status', o.status, 'from', 'Pending')
               || case when o.reason is not null then jsonb_build_object('reason', o.reason) else '{}'::jsonb end,
             o.audio_id, u.username || ' ' || o.notice || ' for ' || p.filename, p.assignee,
             u.username || ' ' || o.notice || ' for ' || p.filename || coalesce(': ' || o.reason, ''), o.link
      from (
        select v.n, v.sub_id, v.audio_id, v.status, v.reviewed_at, v.reviewer, v.reason, 'transcript' as entity,
               case v.status when 'Approved' then 'approved the transcript' else 'rejected the transcript' end as notice,
               ${LINKS.transcript} as link
        from seed_version v where v.status is not null
        union all
        select r.n, r.sub_id, r.audio_id, r.status, r.reviewed_at, r.reviewer, r.reason, 'recording',
               case r.status when 'Approved' then 'approved the recorded audio' else 'rejected the recorded audio' end,
               ${LINKS.translatedAudio}
        from seed_recording r where r.status is not null
      ) o
      join seed_audio p on p.n = o.n join users u on u.id = o.reviewer`,
    // Discussion comments: staff comments go to the admins, an admin's to the assignee.
    sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail, audio_id, admins_message, user_id,
                              user_message, link)
      select c.posted_at, c.posted_by, 'comment', 'submission', c.sub_id::text,
             jsonb_build_object('audioId', c.audio_id, 'commentId', c.id), c.audio_id,
             case when not c.by_admin then u.username || ' commented on ' || p.filename end,
             case when c.by_admin then p.assignee end,
             case when c.by_admin then u.username || ' commented on ' || p.filename end, ${LINKS.feedback}
      from seed_comment c join seed_audio p on p.sub_id = c.sub_id join users u on u.id = c.posted_by
      where c.discussion`,
    // Recommendations: the colleague is told.
    sql`
      insert into seed_event (ts, actor, action, entity, entity_id, detail, audio_id, user_id, user_message, link)
      select r.created_at, r.recommended_by, 'recommend', 'task', r.task_id::text,
             jsonb_build_object('audioId', p.audio_id, 'recommendedTo', r.recommended_to), p.audio_id,
             r.recommended_to, u.username || ' recommended an audio for recording.', ${LINKS.recordings}
      from recommendations r join seed_audio p on p.task_id = r.task_id join users u on u.id = r.recommended_by`,
  ];
  for (const [i, statement] of events.entries()) await run(trx, `events ${i + 1}`, statement);
  await writeSeedEvents(trx);
}

/**
 * Writes the audit entries recorded in seed_event, oldest first (so their ids grow with time, as
 * in a running project), and its notifications, and empties it. An admin notification goes to every
 * active admin; notifications older than two weeks are read (99%), newer ones mostly
 * unread. Resolves when written.
 */
async function writeSeedEvents(trx: Database): Promise<void> {
  await run(
    trx,
    "insert into audit_log",
    sql`insert into audit_log (actor_id, action, entity, entity_id, detail, created_at)
        select actor, action, entity, entity_id, detail, ts from seed_event order by ts`,
  );
  await run(
    trx,
    "insert into notifications",
    sql`
      insert into notifications (recipient_id, sender_id, message, link, audio_id, is_read, created_at)
      select n.recipient, n.actor, n.message, n.link, n.audio_id,
             case when n.ts < now() - interval '14 days' then random() < 0.99 else random() < 0.3 end, n.ts
      from (
        select a.id as recipient, e.actor, e.admins_message as message, e.link, e.audio_id, e.ts
        from seed_event e cross join users a
        where e.admins_message is not null and a.role = 'Admin' and a.active
        union all
        select e.user_id, e.actor, e.user_message, e.link, e.audio_id, e.ts
        from seed_event e where e.user_id is not null
      ) n`,
  );
  await run(trx, "truncate seed_event", sql`truncate seed_event`);
}
