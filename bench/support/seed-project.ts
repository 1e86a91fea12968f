import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { rebuildAllPageAnchors } from "@tafsiri/db/repositories/page-anchors";
import { sql } from "kysely";
import type { Database } from "@tafsiri/db";
import { ensureFirstAdmin, type FileStorage } from "@tafsiri/api";
import { hashPassword } from "@tafsiri/api/testing/password-hash";
import { AUDIO_WAV, RECORDING_WAV, writeSeedFiles } from "./seed-files";
import { seedParticipants } from "./seed-participants";
import { createSeedTables, seedAccountNames, seedAccounts, seedChunk } from "./seed-rows";

/** Audios planned and inserted per slice (each slice is a handful of statements; progress is printed after each). */
const CHUNK = 20_000;

/** What to seed, and where the first admin comes from. */
export interface SeedOptions {
  audios: number;
  staff: number;
  /** The seeded accounts' shared password; undefined: a generated one (printed). */
  staffPassword?: string | undefined;
  /** The first admin, created as the app creates it (ensureFirstAdmin) when the database has no user. */
  admin: { email: string; username: string; password?: string | undefined };
  /** Seed a database that already has audios (adds to them) instead of refusing. */
  force?: boolean;
  /** Where to write a playable file for every key the seeded rows point at; undefined: no files. */
  storage?: FileStorage | undefined;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** How to sign in to what was seeded, and how long it took. */
export interface SeedResult {
  /** The admin the seed acted as: made now (with `password` when generated) or already there. */
  admin: { email: string; created: boolean; generatedPassword: string | undefined };
  /** The seeded accounts' e-mails (staff first, then the reviewing admins) and their shared password. */
  staffEmails: string[];
  reviewerEmails: string[];
  staffPassword: string;
  /** Seconds spent writing rows (one transaction), analysing, and writing files. */
  seconds: { rows: number; vacuum: number; files: number };
  /** Files written (with `storage`). */
  files: { files: number; bytes: number } | undefined;
}

/** The seed would add to a database that already has audios, and `force` was not given. */
export class SeedRefused extends Error {}

/**
 * Seeds `db` (migrated) with a project's worth of history (bench/support/seed-rows.ts): `audios`
 * audios over two years, `staff` staff members and REVIEWER_COUNT reviewing admins sharing one
 * password (hashed once), the first admin created as the app creates it when there is no user
 * (otherwise the configured admin, or the oldest active admin, acts). All rows are written in
 * one transaction with a participant per ten audios (seed-participants.ts; nothing is left of a run that fails), then the database is analysed and, with
 * `storage`, a file is written for every key. Throws SeedRefused when the database already has
 * audios and `force` is not set; with `force` the seed adds to them (audio numbers continue after
 * the seed's earlier ones, existing seed accounts get the new password).
 */
export async function seedProject(db: Database, options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? (() => undefined);
  const existing = await sql<{ audios: string; last: string }>`
    select (select count(*) from audios) as audios,
           (select coalesce(max(substring(filename from '^(?:control|dementia)_([0-9]+)$')::bigint), 0) from audios) as last`.execute(
    db,
  );
  const audiosBefore = Number(existing.rows[0]?.audios ?? 0);
  if (audiosBefore > 0 && !options.force) {
    throw new SeedRefused(
      `This database already has ${audiosBefore.toLocaleString("en")} audios: seed an empty one (a new DATA_DIR or ` +
        "database), or add to it with --force.",
    );
  }
  const firstNumber = Number(existing.rows[0]?.last ?? 0);

  const made = await ensureFirstAdmin(db, options.admin);
  const admin = await sql<{ id: string; email: string }>`
    select id, email from users where role = 'Admin' and active
    order by lower(email) = lower(${options.admin.email}) desc, created_at, id limit 1`.execute(db);
  const acting = admin.rows[0];
  if (!acting) throw new Error("There is no active administrator to act as: create one first.");
  const staffPassword = options.staffPassword ?? `${randomBytes(9).toString("base64url")}aA1!`;
  const passwordHash = await hashPassword(staffPassword);

  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const audioIds: string[] = [];
  await db.transaction().execute(async (trx) => {
    // Room for the planning tables and the sorts in memory (temp_buffers: before any temporary table is touched).
    await sql`set local temp_buffers = '64MB'`.execute(trx);
    await sql`set local work_mem = '64MB'`.execute(trx);
    await createSeedTables(trx);
    const accounts = await seedAccounts(trx, { staffCount: options.staff, passwordHash, adminId: acting.id });
    log(`Accounts: ${accounts.staffCount} staff (${accounts.activeStaffCount} active), ${accounts.adminCount} admins.`);
    let participants = 0;
    for (let offset = 0; offset < options.audios; offset += CHUNK) {
      const count = Math.min(CHUNK, options.audios - offset);
      await seedChunk(
        trx,
        {
          firstNumber: firstNumber + offset,
          offset,
          count,
          total: options.audios,
          audioBytes: options.storage ? AUDIO_WAV.length : undefined,
          recordingBytes: options.storage ? RECORDING_WAV.length : undefined,
        },
        accounts,
      );
      if (options.storage) {
        const { rows } = await sql<{ audioId: string }>`select audio_id from seed_audio order by n`.execute(trx);
        audioIds.push(...rows.map((r) => r.audioId));
      }
      // Each chunk's audios linked to participants as they go in: one statement linking every audio
      // at the end ran its triggers' participant refresh over 100,000 participants at once (over
      // 20 minutes at 1,000,000 audios).
      participants += await seedParticipants(trx);
      log(`Audios ${(offset + count).toLocaleString("en")} of ${options.audios.toLocaleString("en")} (${elapsed()})`);
    }
    log(`Participants: ${participants.toLocaleString("en")}, each audio linked to one of its group (${elapsed()}).`);
  });
  const rowSeconds = (performance.now() - started) / 1000;
  // Decision 030: the deep pages' anchors, as the server's job would build them.
  const anchored = await rebuildAllPageAnchors(db);
  log(`Committed; page anchors built for ${anchored.length} lists (${elapsed()}); analysing.`);
  const vacuumStart = performance.now();
  await sql`vacuum analyze`.execute(db);
  const vacuumSeconds = (performance.now() - vacuumStart) / 1000;

  let files: SeedResult["files"];
  const filesStart = performance.now();
  if (options.storage) {
    const storage = options.storage;
    files = await writeSeedFiles(db, storage, audioIds, (done) => {
      if (done === audioIds.length || done % 10_000 === 0)
        log(`Files: audios ${done.toLocaleString("en")} of ${audioIds.length.toLocaleString("en")}`);
    });
  }
  const names = seedAccountNames(options.staff);
  return {
    admin: { email: acting.email, created: made !== null, generatedPassword: made?.generatedPassword },
    staffEmails: names.staff.map((a) => a.email),
    reviewerEmails: names.reviewers.map((a) => a.email),
    staffPassword,
    seconds: { rows: rowSeconds, vacuum: vacuumSeconds, files: (performance.now() - filesStart) / 1000 },
    files,
  };
}

/**
 * The spread of what is in `db`, as lines to print: audios per category and assigned, tasks
 * complete, submissions per status (overall, transcript, recording), the span of their dates, and
 * the other rows' counts, and the participants (decision 024). Resolves to the lines.
 */
export async function describeSeed(db: Database): Promise<string[]> {
  const { rows } = await sql<Record<string, string | null>>`
    select
      (select count(*) from audios) as audios,
      (select count(*) from audios where category = 'Control') as control,
      (select count(*) from audios where category = 'Dementia') as dementia,
      (select count(*) from tasks) as tasks,
      (select count(*) from tasks where is_complete) as complete,
      (select count(*) from submissions) as submissions,
      (select count(*) from submissions where approval_status = 'Pending') as s_pending,
      (select count(*) from submissions where approval_status = 'Approved') as s_approved,
      (select count(*) from submissions where approval_status = 'Rejected') as s_rejected,
      (select count(*) from submissions where translation_script_approval_status = 'No transcript') as t_none,
      (select count(*) from submissions where translation_script_approval_status = 'Pending') as t_pending,
      (select count(*) from submissions where translation_script_approval_status = 'Approved') as t_approved,
      (select count(*) from submissions where translation_script_approval_status = 'Rejected') as t_rejected,
      (select count(*) from submissions where recorded_audio_approval_status = 'No translation audio') as r_none,
      (select count(*) from submissions where recorded_audio_approval_status = 'Pending') as r_pending,
      (select count(*) from submissions where recorded_audio_approval_status = 'Approved') as r_approved,
      (select count(*) from submissions where recorded_audio_approval_status = 'Rejected') as r_rejected,
      (select to_char(min(submission_date) at time zone 'UTC', 'YYYY-MM-DD') from submissions) as first_date,
      (select to_char(max(submission_date) at time zone 'UTC', 'YYYY-MM-DD') from submissions) as last_date,
      (select count(*) from transcript_versions) as versions,
      (select count(*) from translated_recordings) as recordings,
      (select count(*) from comments) as comments,
      (select count(*) from recommendations) as recommendations,
      (select count(*) from notifications) as notifications,
      (select count(*) from notifications where not is_read) as unread,
      (select count(*) from audit_log) as audit,
      (select count(*) from users where role = 'Admin') as admins,
      (select count(*) from users where role = 'Staff') as staff,
      (select count(*) from users where role = 'Staff' and active) as active_staff,
      (select count(*) from participants) as participants,
      (select count(*) from participants where consent_status = 'given') as consent_given,
      (select count(*) from audios where participant_id is not null) as linked`.execute(db);
  const r = rows[0] ?? {};
  const n = (key: string) => Number(r[key] ?? 0).toLocaleString("en");
  return [
    `Accounts: ${n("admins")} admins, ${n("staff")} staff (${n("activeStaff")} active)`,
    `Audios: ${n("audios")} (${n("control")} Control, ${n("dementia")} Dementia); ${n("tasks")} assigned, ` +
      `${(Number(r.audios ?? 0) - Number(r.tasks ?? 0)).toLocaleString("en")} unassigned; ${n("complete")} tasks complete`,
    `Submissions: ${n("submissions")}, dated ${r.firstDate ?? "-"} to ${r.lastDate ?? "-"}: ${n("sPending")} Pending ` +
      `(needs review), ${n("sApproved")} Approved, ${n("sRejected")} Rejected`,
    `  transcripts: ${n("tNone")} none, ${n("tPending")} Pending, ${n("tApproved")} Approved, ${n("tRejected")} Rejected`,
    `  recordings:  ${n("rNone")} none, ${n("rPending")} Pending, ${n("rApproved")} Approved, ${n("rRejected")} Rejected`,
    `Transcript versions ${n("versions")}, translated recordings ${n("recordings")}, comments ${n("comments")}, ` +
      `recommendations ${n("recommendations")}`,
    `Notifications ${n("notifications")} (${n("unread")} unread), audit log entries ${n("audit")}`,
    `Participants ${n("participants")} (${n("consentGiven")} with consent given), audios linked ${n("linked")}`,
  ];
}
