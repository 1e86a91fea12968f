import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { createDb, migrateToLatest, type DbHandle } from "@tafsiri/db";
import type { SessionUser } from "@tafsiri/api";
import { optionalMs, wholeNumber } from "./args";
import { describeSeed, seedProject } from "./seed-project";
import { onTemporaryDatabase } from "./temporary-database";
import { timedSeconds } from "./measure";

/** What a benchmark on seeded data runs on. */
export interface SeededEnvironment {
  /** For the header: the database and how it was seeded. */
  where: string;
  /** "PostgreSQL" or "PGlite": which targets apply. */
  engine: "PostgreSQL" | "PGlite";
  db: DbHandle["db"];
  /** The database's connection string (undefined: the embedded PGlite under `dataDir`). */
  databaseUrl: string | undefined;
  /** DATA_DIR for a server on this database (its files; with PGlite, its database too). */
  dataDir: string;
  /** The oldest active admin. */
  admin: SessionUser;
  /** The active staff member with the most tasks (the heaviest staff lists). */
  staff: SessionUser;
}

/** The options of the benchmarks on seeded data. */
export interface SeededOptions {
  audios: number;
  staff: number;
  runs: number;
  explainOverMs: number | undefined;
  /** `--existing`: the database `npm start` uses, as `npm run seed` left it. */
  existing: boolean;
  /** Options of the benchmark itself, by name (strings as given). */
  extra: Record<string, string | undefined>;
}

/**
 * Parses `[--audios N] [--staff M] [--runs R] [--explain ms] [--existing]` and the benchmark's own
 * string options `extra` (name → default); throws a message naming a bad option.
 */
export function seededOptions(extra: Record<string, string | undefined> = {}): SeededOptions {
  const { values } = parseArgs({
    options: {
      audios: { type: "string", default: "100000" },
      staff: { type: "string", default: "200" },
      runs: { type: "string", default: "200" },
      explain: { type: "string" },
      existing: { type: "boolean", default: false },
      ...Object.fromEntries(
        Object.entries(extra).map(([name, value]) => [
          name,
          value === undefined ? { type: "string" as const } : { type: "string" as const, default: value },
        ]),
      ),
    },
  });
  const all = values as Record<string, string | boolean | undefined>;
  const text = (name: string) => all[name] as string;
  return {
    audios: wholeNumber("audios", text("audios"), 100),
    staff: wholeNumber("staff", text("staff"), 1),
    runs: wholeNumber("runs", text("runs"), 1),
    explainOverMs: optionalMs("explain", all.explain as string | undefined),
    existing: all.existing === true,
    extra: Object.fromEntries(Object.keys(extra).map((name) => [name, all[name] as string | undefined])),
  };
}

async function actors(db: DbHandle["db"]): Promise<{ admin: SessionUser; staff: SessionUser }> {
  const { rows } = await sql<SessionUser & { kind: string }>`
    (select 'admin' as kind, id, username, email, role, active from users
     where role = 'Admin' and active order by created_at, id limit 1)
    union all
    (select 'staff', u.id, u.username, u.email, u.role, u.active from users u
     join assignee_work_counts c on c.assignee_id = u.id
     where u.role = 'Staff' and u.active order by c.tasks desc, u.id limit 1)`.execute(db);
  const admin = rows.find((r) => r.kind === "admin");
  const staff = rows.find((r) => r.kind === "staff");
  if (!admin || !staff) throw new Error("The database has no active admin or no active staff member with tasks.");
  const user = ({ id, username, email, role, active }: SessionUser): SessionUser => ({
    id,
    username,
    email,
    role,
    active,
  });
  return { admin: user(admin), staff: user(staff) };
}

/**
 * Runs `run` on seeded data. With `existing`, on the database `npm start` uses (DATABASE_URL, or
 * the embedded PGlite under DATA_DIR, default ./data), migrated, which must already hold audios
 * (`npm run seed`); nothing is dropped afterwards. Otherwise on a temporary database
 * (bench/support/temporary-database.ts) seeded now with `npm run seed`'s project
 * (bench/support/seed-project.ts: `audios` audios, `staff` staff), dropped afterwards; `log`, when
 * given, receives the seed's progress lines.
 */
export async function onSeededDatabase(
  options: Pick<SeededOptions, "audios" | "staff" | "existing"> & { log?: (line: string) => void },
  run: (env: SeededEnvironment) => Promise<void>,
): Promise<void> {
  if (options.existing) {
    const databaseUrl = process.env.DATABASE_URL || undefined;
    const dataDir = path.resolve(process.env.DATA_DIR || "./data");
    const handle = await createDb({ databaseUrl, pgliteDir: path.join(dataDir, "db") });
    try {
      await migrateToLatest(handle.db);
      const { rows } = await sql<{ n: string }>`select count(*) as n from audios`.execute(handle.db);
      const audios = Number(rows[0]?.n ?? 0);
      if (audios === 0)
        throw new Error("--existing: the database has no audios. Seed it first: npm run seed -- --audios 100000");
      const where = databaseUrl
        ? `PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname} (existing)`
        : `PGlite in ${path.join(dataDir, "db")} (existing)`;
      await run({
        where: `${where}, ${audios.toLocaleString("en")} audios`,
        engine: databaseUrl ? "PostgreSQL" : "PGlite",
        db: handle.db,
        databaseUrl,
        dataDir,
        ...(await actors(handle.db)),
      });
    } finally {
      await handle.close();
    }
    return;
  }
  await onTemporaryDatabase(async ({ bench, where, db, dataDir }) => {
    const { seconds } = await timedSeconds(() =>
      seedProject(db, {
        audios: options.audios,
        staff: options.staff,
        staffPassword: "Bench#2026x",
        admin: { email: "bench-admin@example.test", username: "bench-admin", password: "Bench#2026x" },
        log: options.log,
      }),
    );
    console.log(
      `Seeded ${options.audios.toLocaleString("en")} audios, ${options.staff} staff in ${seconds.toFixed(0)} s:`,
    );
    for (const line of await describeSeed(db)) console.log(`  ${line}`);
    await run({
      where,
      engine: bench.url ? "PostgreSQL" : "PGlite",
      db,
      databaseUrl: bench.url,
      dataDir,
      ...(await actors(db)),
    });
  });
}
