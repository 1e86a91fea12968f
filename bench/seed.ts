/**
 * `npm run seed`: fills the app's database with a project's worth of history, for the benchmarks
 * and for looking at the screens at scale.
 *
 * The database is the one `npm start` uses: DATABASE_URL when set, otherwise the embedded PGlite
 * under DATA_DIR (default ./data; stop the server first, the embedded database takes one process
 * at a time). It is migrated first. A database that already has audios is refused unless
 * --force, which adds to them.
 *
 * What it writes (bench/support/seed-rows.ts): audios uploaded evenly over the last two years,
 * 55% Control and 45% Dementia; about 95% assigned (the last two weeks' uploads mostly not yet),
 * spread unevenly over the staff; submissions with transcript versions and translated recordings
 * in every status (older work mostly approved, recent work pending; rejected outputs followed by
 * a new version); rejection reasons and short discussions as comments; recommendations; and the
 * audit entries and notifications the services write for each step. The per-assignee counters
 * are kept by their triggers as the rows go in.
 *
 * Accounts: the first admin as `npm start` makes it (ADMIN_EMAIL, ADMIN_USERNAME, ADMIN_PASSWORD,
 * or a generated password, printed) when the database has no user, otherwise the existing admin
 * acts; staff `staff001@seed.local` … (one in 20 inactive) and admins `reviewer01@seed.local`,
 * `reviewer02@seed.local` sharing one password: --password, or a generated one (printed).
 *
 * Files: none by default (rows point at keys with no file: lists, dashboards, reports, Logs and
 * search work; players and downloads answer 'File not found.'; waveforms are 'failed', as the
 * waveform job would leave them, so a server started on the seed has no files to look for). With
 * --files (waveforms 'pending': the job computes them once a server runs), a playable one
 * second WAV for every audio and recording and the text of every transcript, under
 * DATA_DIR/files as the app stores them (local disk; about 30 KB of disk per audio).
 *
 * Usage: npm run seed -- [--audios 100000] [--staff 200] [--password <p>] [--files] [--force]
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createDb, migrateToLatest } from "@tafsiri/db";
import { createLocalStorage } from "@tafsiri/api";
import { wholeNumber } from "./support/args";
import { describeSeed, seedProject, SeedRefused } from "./support/seed-project";
import { INACTIVE_EVERY } from "./support/seed-rows";

const { values } = parseArgs({
  options: {
    audios: { type: "string", default: "100000" },
    staff: { type: "string", default: "200" },
    password: { type: "string" },
    files: { type: "boolean", default: false },
    force: { type: "boolean", default: false },
  },
});
const audios = wholeNumber("audios", values.audios, 1);
const staff = wholeNumber("staff", values.staff, 1);

/** The settings `npm start` reads for the database and the first admin, with its defaults (apps/server/src/settings.ts). */
const env = (name: string): string | undefined => (process.env[name] === "" ? undefined : process.env[name]);
const settings = {
  DATA_DIR: env("DATA_DIR") ?? "./data",
  DATABASE_URL: env("DATABASE_URL"),
  ADMIN_EMAIL: env("ADMIN_EMAIL") ?? "admin@tafsiri.local",
  ADMIN_USERNAME: env("ADMIN_USERNAME") ?? "admin",
  ADMIN_PASSWORD: env("ADMIN_PASSWORD"),
};
const dataDir = path.resolve(settings.DATA_DIR);
const where = settings.DATABASE_URL
  ? `PostgreSQL ${new URL(settings.DATABASE_URL).host}${new URL(settings.DATABASE_URL).pathname}`
  : `the embedded database in ${path.join(dataDir, "db")}`;
console.log(
  `Seeding ${where}: ${audios.toLocaleString("en")} audios, ${staff} staff${values.files ? ", with files" : ""}.`,
);
let refused = false;
const handle = await createDb({ databaseUrl: settings.DATABASE_URL, pgliteDir: path.join(dataDir, "db") });
try {
  await migrateToLatest(handle.db);
  const result = await seedProject(handle.db, {
    audios,
    staff,
    staffPassword: values.password,
    admin: { email: settings.ADMIN_EMAIL, username: settings.ADMIN_USERNAME, password: settings.ADMIN_PASSWORD },
    force: values.force,
    storage: values.files ? createLocalStorage(path.join(dataDir, "files")) : undefined,
    log: (line) => console.log(line),
  });
  const { seconds, files } = result;
  console.log(
    `\nDone: rows ${seconds.rows.toFixed(1)} s, vacuum analyze ${seconds.vacuum.toFixed(1)} s` +
      (files
        ? `, files ${seconds.files.toFixed(1)} s (${files.files.toLocaleString("en")} files, ` +
          `${(files.bytes / 1_048_576).toFixed(0)} MB)`
        : "") +
      ".",
  );
  for (const line of await describeSeed(handle.db)) console.log(line);
  const adminPassword = result.admin.generatedPassword
    ? `password ${result.admin.generatedPassword} (generated now; change it after signing in)`
    : result.admin.created
      ? "the password in ADMIN_PASSWORD"
      : "its existing password";
  const lastStaff = result.staffEmails[result.staffEmails.length - 1];
  console.log(
    `\nSign in as:\n  admin   ${result.admin.email} with ${adminPassword}\n` +
      `  staff   ${result.staffEmails[0]} … ${lastStaff}, reviewers (admins) ${result.reviewerEmails.join(", ")},\n` +
      `          all with password ${result.staffPassword}` +
      (staff >= INACTIVE_EVERY
        ? `\n          (every ${INACTIVE_EVERY}th staff member, from ${result.staffEmails[INACTIVE_EVERY - 1]}, ` +
          "is inactive and cannot sign in)"
        : ""),
  );
} catch (error) {
  if (!(error instanceof SeedRefused)) throw error;
  console.error(error.message);
  refused = true;
} finally {
  await handle.close();
}
// After closing: closing PGlite resets process.exitCode.
if (refused) process.exitCode = 1;
