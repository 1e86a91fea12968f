/**
 * HTTP benchmark (decision 017): the list pages side by side with the floor they stand on, in
 * one run on one PostgreSQL database. The floor is a plain Fastify + pg route reading one task by
 * primary key (bench/support/pk-floor-server.ts; the same server also runs the admin task list's SQL
 * without the framework, printed for comparison); against it, the real server (apps/server, a child
 * process like the floor) answers the task list (admin and staff), the audio lists and the
 * submissions list, through the tRPC procedure the web app calls (GET /trpc/<procedure>?input=…)
 * and the REST path an integrator calls where SPEC §7.1 has one. Each is loaded by autocannon with
 * `--connections` connections (default 20) for `--duration` s (default 15), signed in as a seeded
 * admin (reviewer01@seed.local) or the active staff member with the most tasks. Printed per line:
 * requests per second, p50 and p99 latency, the server process's CPU time per request (ms), the
 * ratio of its throughput to the floor's, and PASS
 * or FAIL against its target (at least 30% of the floor's throughput with p99 under 100 ms).
 * Every answer must be 2xx, or the line fails. Exits 1 when a line fails.
 *
 * The database: PostgreSQL only (the benchmark, the floor and the server share it; an embedded
 * database takes one process). By default a temporary database on DATABASE_URL's server seeded
 * now with `npm run seed`'s project (`--audios`, default 100,000; `--staff`, default 200), dropped
 * afterwards; with `--existing`, DATABASE_URL's database as `npm run seed` left it, signing in
 * with `--password` (the seed's staff password; default that of the temporary seed).
 *
 * Usage: DATABASE_URL=postgres://… npm run bench -- http [--audios 100000] [--existing --password P]
 *          [--connections 20] [--duration 15] [--only <text>]
 *   --only <text>  loads only the lines whose name contains <text> (the floor is always measured)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { hammer as loadPath, loadLine, trpcPath, type Load, type Measured } from "./support/autocannon-load";
import { startChild, stopChild, type ChildServer } from "./support/child-process";
import { restSignIn } from "./support/rest-sign-in";
import { wholeNumber } from "./support/args";
import { onSeededDatabase, seededOptions, type SeededEnvironment } from "./support/seeded-database";
import { Verdicts } from "./support/targets";

const options = seededOptions({ connections: "20", duration: "15", password: "Bench#2026x", only: undefined });
const connections = wholeNumber("connections", options.extra.connections ?? "20", 1);
const duration = wholeNumber("duration", options.extra.duration ?? "15", 1);
const password = options.extra.password ?? "Bench#2026x";
/** The target: a list page keeps at least this share of the floor's requests per second… */
const MIN_RATIO = 0.3;
/** …with p99 under this many ms. */
const MAX_P99_MS = 100;

/** Loads `l` on `server` with the run's connections and duration. */
const hammer = (server: ChildServer, l: Load): Promise<Measured> => loadPath(server, l, { connections, duration });

async function run(env: SeededEnvironment): Promise<void> {
  if (!env.databaseUrl) throw new Error("The HTTP benchmark runs on PostgreSQL: set DATABASE_URL.");
  const { db, staff } = env;
  const { rows } = await sql<{ id: string }>`select id from tasks order by created_at desc limit 1`.execute(db);
  const taskId = rows[0]?.id;
  if (!taskId) throw new Error("The database has no task.");
  const children: ChildServer[] = [];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-http-"));
  const verdicts = new Verdicts();
  try {
    const floorServer = await startChild("bench/support/pk-floor-server.ts", { DATABASE_URL: env.databaseUrl });
    children.push(floorServer);
    const server = await startChild("apps/server/src/server.ts", {
      DATA_DIR: dataDir,
      DATABASE_URL: env.databaseUrl,
      JWT_SECRET: randomBytes(32).toString("hex"),
      // The benchmark drives two accounts far past what a person does: the request limit is off.
      RATE_LIMIT_PER_USER: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
    });
    children.push(server);
    const adminToken = await restSignIn(server.baseUrl, { email: "reviewer01@seed.local", password });
    const staffToken = await restSignIn(server.baseUrl, { email: staff.email, password });
    console.log(
      `\nDatabase: ${env.where}; ${connections} connections, ${duration} s each; admin reviewer01, staff ` +
        `${staff.username}; load ${os.loadavg()[0]?.toFixed(2)}`,
    );

    const floor = await hammer(floorServer, { name: "floor", path: `/tasks/${taskId}`, token: null });
    console.log(loadLine("plain Fastify + pg, task by primary key (floor)", floor, null, "floor", ""));
    // For comparison, not a target: the admin task list's own SQL on the same plain server.
    const plainList = await hammer(floorServer, { name: "plain list", path: "/task-page?page=1", token: null });
    console.log(loadLine("plain Fastify + pg, the admin task list's SQL", plainList, floor, "floor", "(comparison)"));

    const loads: Load[] = [
      {
        name: "tRPC tasks.list admin, page 1",
        path: trpcPath("tasks.list", { page: 1, limit: 10 }),
        token: adminToken,
      },
      { name: "REST GET /api/tasks admin, page 1", path: "/api/tasks?page=1&limit=10", token: adminToken },
      {
        name: "tRPC tasks.list staff, page 1",
        path: trpcPath("tasks.list", { page: 1, limit: 10 }),
        token: staffToken,
      },
      { name: "REST GET /api/tasks staff, page 1", path: "/api/tasks?page=1&limit=10", token: staffToken },
      {
        name: "tRPC audios.list Control, page 1",
        path: trpcPath("audios.list", { category: "Control", page: 1, limit: 50 }),
        token: adminToken,
      },
      {
        name: "tRPC audios.unassigned Dementia, page 1",
        path: trpcPath("audios.unassigned", { category: "Dementia", page: 1, limit: 100 }),
        token: adminToken,
      },
      {
        name: "tRPC submissions.list admin, page 1",
        path: trpcPath("submissions.list", { page: 1 }),
        token: adminToken,
      },
      { name: "REST GET /api/submissions admin, page 1", path: "/api/submissions?page=1", token: adminToken },
      {
        name: "tRPC submissions.list staff, page 1",
        path: trpcPath("submissions.list", { page: 1 }),
        token: staffToken,
      },
      { name: "REST GET /api/submissions staff, page 1", path: "/api/submissions?page=1", token: staffToken },
    ];
    const only = options.extra.only;
    for (const load of only ? loads.filter((l) => l.name.includes(only)) : loads) {
      const m = await hammer(server, load);
      const ratio = m.requestsPerSecond / floor.requestsPerSecond;
      const passed = ratio >= MIN_RATIO && m.p99 < MAX_P99_MS && m.failures === 0;
      const verdict =
        `${passed ? "PASS" : "FAIL"} (≥ ${MIN_RATIO * 100}%, p99 < ${MAX_P99_MS} ms)` +
        (m.failures > 0 ? `, ${m.failures} failed requests` : "");
      console.log(loadLine(load.name, m, floor, "floor", verdicts.record(load.name, passed, verdict)));
    }
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  verdicts.finish();
}

await onSeededDatabase(options, run);
