import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hammer, loadLine, trpcPath, type Load, type Measured } from "./autocannon-load";
import { startChild, stopChild } from "./child-process";
import { restSignIn } from "./rest-sign-in";
import type { SeededEnvironment } from "./seeded-database";
import type { Verdicts } from "./targets";

/** A list line over HTTP must keep at least this share of accounts.me's requests per second… */
const MIN_SHARE_OF_ME = 0.5;
/** …with p99 under this many ms. */
const MAX_HTTP_P99_MS = 100;

/** What the HTTP part loads with: connections, seconds per line, the seeded accounts' password, a name filter. */
export interface HttpListOptions {
  connections: number;
  duration: number;
  password: string;
  only: string | undefined;
}

/** GETs `pathAndQuery` as `token`; resolves to the parsed JSON answer (throws on a non-2xx). */
async function getJson(baseUrl: string, pathAndQuery: string, token: string): Promise<unknown> {
  const res = await fetch(baseUrl + pathAndQuery, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${pathAndQuery} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** The `data` of a tRPC query's answer. */
async function trpcData<T>(baseUrl: string, procedure: string, input: unknown, token: string): Promise<T> {
  const body = (await getJson(baseUrl, trpcPath(procedure, input), token)) as { result: { data: T } };
  return body.result.data;
}

/**
 * The HTTP part of the list benchmark (the target of docs/performance.md "Lists"): starts the real
 * server (apps/server/src/server.ts, a child process on `env`'s PostgreSQL database, the request
 * limits off), signs in the seed's admin reviewer01 and `env.staff`, loads tRPC `accounts.me` (the
 * cheapest signed-in call: the base, measured again for a third of the time before each line), then every list page the web app reads over tRPC and the
 * REST path of SPEC §7.1 serving the same list, and the team report both ways, each with
 * autocannon (`connections`, `duration` s). A line passes with at least MIN_SHARE_OF_ME of
 * accounts.me's requests per second, p99 under MAX_HTTP_P99_MS and every answer 2xx; verdicts
 * go to `verdicts` as "http: <name>".
 */
export async function httpListPart(env: SeededEnvironment, opts: HttpListOptions, verdicts: Verdicts): Promise<void> {
  if (!env.databaseUrl) {
    console.log("\nHTTP part skipped: it needs PostgreSQL (DATABASE_URL), the server being another process.");
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-lists-"));
  const server = await startChild("apps/server/src/server.ts", {
    DATA_DIR: dataDir,
    DATABASE_URL: env.databaseUrl,
    JWT_SECRET: randomBytes(32).toString("hex"),
    // Two accounts are driven far past what a person does: the request limits are off.
    RATE_LIMIT_PER_USER: "0",
    RATE_LIMIT_PER_ADDRESS: "0",
  });
  try {
    const base = server.baseUrl;
    const admin = await restSignIn(base, { email: "reviewer01@seed.local", password: opts.password });
    const staff = await restSignIn(base, { email: env.staff.email, password: opts.password });
    const adminId = (await trpcData<{ id: string }>(base, "accounts.me", undefined, admin)).id;
    const staffId = env.staff.id;
    const pages = async (procedure: string, input: Record<string, unknown>, token: string) =>
      Math.max(1, (await trpcData<{ totalPages: number }>(base, procedure, input, token)).totalPages);
    const controlPages = await pages("audios.list", { category: "Control", page: 1, limit: 50 }, admin);
    const trpc = (name: string, procedure: string, input: unknown, token: string): Load => ({
      name: `tRPC ${name}`,
      path: trpcPath(procedure, input),
      token,
    });
    const rest = (name: string, pathAndQuery: string, token: string): Load => ({
      name: `REST ${name}`,
      path: pathAndQuery,
      token,
    });
    const loads: Load[] = [
      trpc("tasks.list admin, page 1", "tasks.list", { page: 1, limit: 10 }, admin),
      rest("GET /api/tasks admin, page 1", "/api/tasks?page=1&limit=10", admin),
      trpc("tasks.list staff, page 1", "tasks.list", { page: 1, limit: 10 }, staff),
      rest("GET /api/tasks staff, page 1", "/api/tasks?page=1&limit=10", staff),
      rest("GET /api/tasks/user/:id (the staff's), admin", `/api/tasks/user/${staffId}?page=1`, admin),
      trpc("audios.list Control, page 1 (50)", "audios.list", { category: "Control", page: 1, limit: 50 }, admin),
      rest("GET /api/audios/control, page 1 (50)", "/api/audios/control?page=1", admin),
      trpc(
        `audios.list Control, last page (${controlPages})`,
        "audios.list",
        { category: "Control", page: controlPages, limit: 50 },
        admin,
      ),
      rest(`GET /api/audios/control, last page (${controlPages})`, `/api/audios/control?page=${controlPages}`, admin),
      trpc("audios.unassigned Dementia, page 1 (100)", "audios.unassigned", { category: "Dementia", page: 1 }, admin),
      rest("GET /api/audios/dementiawithouttasks, page 1", "/api/audios/dementiawithouttasks?page=1", admin),
      trpc("submissions.list admin, page 1 (20)", "submissions.list", { page: 1 }, admin),
      rest("GET /api/submissions admin, page 1 (10)", "/api/submissions?page=1", admin),
      trpc("submissions.list admin, needsReview page 1", "submissions.list", { page: 1, status: "needsReview" }, admin),
      rest("GET /api/submissions?status=needs_review, admin", "/api/submissions?page=1&status=needs_review", admin),
      trpc("submissions.list staff, page 1", "submissions.list", { page: 1 }, staff),
      rest("GET /api/submissions staff, page 1", "/api/submissions?page=1", staff),
      rest("GET /api/usersubmissions/:id (the staff's), admin", `/api/usersubmissions/${staffId}?page=1`, admin),
      trpc("notifications.list admin (20)", "notifications.list", { limit: 20 }, admin),
      rest("GET /api/fetchnotifications/:id admin (20)", `/api/fetchnotifications/${adminId}?limit=20`, admin),
      trpc("notifications.list staff (20)", "notifications.list", { limit: 20 }, staff),
      rest("GET /api/fetchnotifications/:id staff (20)", `/api/fetchnotifications/${staffId}?limit=20`, staff),
      trpc("search.audios admin, '123'", "search.audios", { q: "123" }, admin),
      rest("GET /api/search?q=123 admin", "/api/search?q=123", admin),
      trpc("search.audios staff, '1'", "search.audios", { q: "1" }, staff),
      rest("GET /api/search?q=1 staff", "/api/search?q=1", staff),
      trpc("recommendations.list admin, page 1", "recommendations.list", { page: 1, limit: 10 }, admin),
      rest("GET /api/recommendedrecordings admin, page 1", "/api/recommendedrecordings?page=1", admin),
      trpc("participants.list, page 1", "participants.list", { page: 1 }, admin),
      rest("GET /api/participants, page 1", "/api/participants?page=1", admin),
      trpc("exports.list, page 1", "exports.list", { page: 1 }, admin),
      rest("GET /api/exports, page 1", "/api/exports?page=1", admin),
      trpc("accounts.list all", "accounts.list", {}, admin),
      rest("GET /auth/users", "/auth/users", admin),
      trpc("accounts.staff", "accounts.staff", undefined, admin),
      rest("GET /auth/staff", "/auth/staff", admin),
      trpc("logs.list, page 1", "logs.list", { page: 1 }, admin),
      trpc("statistics.teamReport all time", "statistics.teamReport", {}, admin),
      rest("GET /api/team-performance-report all time", "/api/team-performance-report", admin),
      trpc("statistics.teamReport a month", "statistics.teamReport", { from: monthAgo() }, admin),
      rest("GET /api/team-performance-report a month", `/api/team-performance-report?from=${monthAgo()}`, admin),
    ];
    const load = { connections: opts.connections, duration: opts.duration };
    console.log(
      `\nOver HTTP: ${env.where}; ${opts.connections} connections, ${opts.duration} s each; admin reviewer01, staff ` +
        `${env.staff.username}; load ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}. Targets: p99 < ` +
        `${MAX_HTTP_P99_MS} ms and ≥ ${MIN_SHARE_OF_ME * 100}% of accounts.me's requests per second.`,
    );
    const meLoad = trpc("accounts.me (the base)", "accounts.me", undefined, admin);
    // The base is measured again beside each line (a third of its time), so a machine whose load
    // changes during the run compares each line with accounts.me under the same load.
    const baseLoad = { connections: opts.connections, duration: Math.max(2, Math.round(opts.duration / 3)) };
    console.log(loadLine(meLoad.name, await hammer(server, meLoad, load), null, "me", ""));
    for (const l of opts.only ? loads.filter((x) => x.name.includes(opts.only!)) : loads) {
      const me: Measured = await hammer(server, meLoad, baseLoad);
      const m = await hammer(server, l, load);
      const passed =
        m.p99 < MAX_HTTP_P99_MS && m.requestsPerSecond >= MIN_SHARE_OF_ME * me.requestsPerSecond && m.failures === 0;
      const text = `${passed ? "PASS" : "FAIL"}${m.failures > 0 ? `, ${m.failures} failed requests` : ""}`;
      console.log(
        loadLine(l.name, m, me, "me", verdicts.record(`http: ${l.name}`, passed, text)) +
          `  (me ${me.requestsPerSecond.toFixed(0)} req/s)`,
      );
    }
    console.log(
      `Load at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await stopChild(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The date 30 days ago, YYYY-MM-DD (UTC): a month's team report. */
function monthAgo(): string {
  return new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
}
