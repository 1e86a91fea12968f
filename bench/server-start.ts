/**
 * Start-up benchmark (decision 026): the server run from TypeScript through tsx against the
 * compiled server (apps/server/dist/server.js, scripts/server-build.mjs), on one database: its
 * time from spawn to the first GET /healthz 200 on an existing data directory (or database), its
 * resident memory when idle, and after some activity. Three ways to run it, each as its own child:
 *
 *   tsx CLI    `tsx apps/server/src/server.ts` (what `npm start` ran before: tsx's CLI process plus
 *              the node process it starts; their RSS added up)
 *   tsx loader `node --import tsx apps/server/src/server.ts` (what the Docker image ran before)
 *   compiled   `node --enable-source-maps apps/server/dist/server.js` (`npm start` and the image now)
 *
 * The data is made once by a first start of the compiled server (migrations, the first admin), so
 * each measured start finds an existing database. Each way is started `--runs` times (default 3);
 * the time printed is the median. On its last run the server is left idle `--idle` s (default 20),
 * its RSS read (VmRSS, every process of the child's tree), then the activity: the admin signs in,
 * uploads `--uploads` WAV files of 30 s (default 5) over REST and waits until the waveform job's
 * worker has decoded each (tRPC audios.get), and reads 100 pages (tRPC tasks.list and REST
 * GET /api/audios/control, 50 each); 5 s later RSS is read again, with the peak (VmHWM) of the
 * run. Targets, for the compiled server: /healthz within 3 s; idle RSS under 150 MB on
 * PostgreSQL and under 300 MB on PGlite. Exits 1 when one is missed.
 *
 * The database: with DATABASE_URL, a temporary database on that server (dropped afterwards);
 * without it the embedded PGlite under a temporary DATA_DIR. Files on local disk, or with `--s3` in
 * the bucket of a test S3 server (s3rver, startTestS3Server) started for the run.
 *
 * Usage: [DATABASE_URL=postgres://…] npm run bench -- server-start [--runs 3] [--idle 20] [--uploads 5] [--s3]
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { s3Settings, startTestS3Server } from "@tafsiri/api/testing/s3-server";
import { wholeNumber } from "./support/args";
import { benchDatabase } from "./support/bench-database";
import { freePort, memoryMb, ROOT, stopChild, type ChildServer } from "./support/child-process";
import { restSignIn } from "./support/rest-sign-in";
import { toneWav } from "./support/seed-files";
import { Verdicts } from "./support/targets";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    idle: { type: "string", default: "20" },
    uploads: { type: "string", default: "5" },
    s3: { type: "boolean", default: false },
  },
});
const RUNS = wholeNumber("runs", values.runs, 1);
const IDLE_SECONDS = wholeNumber("idle", values.idle, 0);
const UPLOADS = wholeNumber("uploads", values.uploads, 0);
const MAX_HEALTHZ_MS = 3000;
const ADMIN = { email: "bench-admin@example.test", username: "bench-admin", password: "Bench#2026x" };

const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const SOURCE = "apps/server/src/server.ts";
const COMPILED = "apps/server/dist/server.js";
const WAYS: Array<{ name: string; command: string[] }> = [
  { name: "tsx CLI", command: [TSX, SOURCE] },
  { name: "tsx loader", command: [process.execPath, "--import", "tsx", SOURCE] },
  { name: "compiled", command: [process.execPath, "--enable-source-maps", COMPILED] },
];

/** `pid` and every process below it (from one `ps` listing). */
function processTree(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of rows) if (parent === tree[i]) tree.push(child);
  return tree;
}

/** VmRSS (or VmHWM) of `pid`'s whole process tree, MB. */
function treeMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  return processTree(pid).reduce((sum, id) => {
    try {
      return sum + memoryMb(id, field);
    } catch {
      return sum; // ended while we looked
    }
  }, 0);
}

/** Spawns `command` with the benchmark's settings; resolves once /healthz answers 200, with the ms that took. */
async function start(command: string[], env: NodeJS.ProcessEnv): Promise<{ server: ChildServer; healthzMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const server: ChildServer = { child, baseUrl: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, output: () => output };
  while (performance.now() - started < 90_000) {
    if (child.exitCode !== null) throw new Error(`${command.join(" ")} exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${server.baseUrl}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) return { server, healthzMs: performance.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await stopChild(server);
  throw new Error(`${command.join(" ")} was not healthy within 90 s:\n${output}`);
}

/** Signs in, uploads UPLOADS WAV files and waits for their peaks, reads 100 list pages. */
async function activity(baseUrl: string): Promise<void> {
  const token = await restSignIn(baseUrl, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const ids: string[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    const form = new FormData();
    form.append("category", "Control");
    const name = `start-bench-${Date.now()}-${i}.wav`;
    form.append("file", new Blob([toneWav(30, 220 + 40 * i)], { type: "audio/wav" }), name);
    const res = await fetch(`${baseUrl}/api/audios/upload/AUDIO`, { method: "POST", headers: auth, body: form });
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { _id: string })._id);
  }
  for (const audioId of ids) {
    const input = encodeURIComponent(JSON.stringify({ audioId }));
    for (let waited = 0; ; waited += 100) {
      const res = await fetch(`${baseUrl}/trpc/audios.get?input=${input}`, { headers: auth });
      const { status } = ((await res.json()) as { result: { data: { waveform: { status: string } } } }).result.data
        .waveform;
      if (status === "ready") break;
      if (status !== "pending" || waited > 60_000) throw new Error(`waveform of ${audioId}: ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const tasks = encodeURIComponent(JSON.stringify({ page: 1, limit: 20 }));
  for (let i = 0; i < 50; i++) {
    for (const url of [`/trpc/tasks.list?input=${tasks}`, "/api/audios/control?page=1"]) {
      const res = await fetch(`${baseUrl}${url}`, { headers: auth });
      if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
      await res.arrayBuffer();
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const mb = (n: number) => `${n.toFixed(0)} MB`;

const build = spawnSync(process.execPath, [path.join(ROOT, "scripts/server-build.mjs")], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const bench = await benchDatabase(process.env.DATABASE_URL);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-start-"));
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email };
Object.assign(env, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
if (bench.url) env.DATABASE_URL = bench.url;
else delete env.DATABASE_URL;
const s3 = values.s3 ? await startTestS3Server() : undefined;
if (s3) Object.assign(env, s3Settings(s3));
const engine = bench.url ? "PostgreSQL" : "PGlite";
const maxIdleMb = bench.url ? 150 : 300;
const verdicts = new Verdicts();
console.log(
  `Server start-up on ${bench.label}, files ${s3 ? "in a test S3 bucket" : "on local disk"}, Node ${process.version}, ${os.cpus().length} CPU(s)`,
);
console.log(
  `${RUNS} start(s) per way on an existing database; RSS ${IDLE_SECONDS} s after /healthz, then after activity`,
);

try {
  const first = await start(WAYS[2]!.command, env);
  console.log(`first start (migrations, first admin): /healthz after ${first.healthzMs.toFixed(0)} ms`);
  await stopChild(first.server);

  for (const way of WAYS) {
    const times: number[] = [];
    let idle = 0;
    let after = 0;
    let peak = 0;
    for (let run = 1; run <= RUNS; run++) {
      const { server, healthzMs } = await start(way.command, env);
      times.push(healthzMs);
      try {
        if (run === RUNS) {
          await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
          idle = treeMb(server.pid, "VmRSS");
          await activity(server.baseUrl);
          await new Promise((resolve) => setTimeout(resolve, 5000));
          after = treeMb(server.pid, "VmRSS");
          peak = treeMb(server.pid, "VmHWM");
        }
      } finally {
        await stopChild(server);
      }
      if (server.child.exitCode !== 0) throw new Error(`${way.name} exited with ${server.child.exitCode} on SIGTERM`);
    }
    const healthz = median(times);
    let verdict = "";
    if (way.name === "compiled") {
      const ok = healthz < MAX_HEALTHZ_MS && idle < maxIdleMb;
      verdict = verdicts.record(
        `compiled on ${engine}`,
        ok,
        `  ${ok ? "PASS" : "FAIL"} (/healthz < ${MAX_HEALTHZ_MS} ms, idle < ${maxIdleMb} MB)`,
      );
    }
    console.log(
      `${way.name.padEnd(11)} /healthz ${healthz.toFixed(0).padStart(5)} ms (runs: ${times.map((t) => t.toFixed(0)).join(", ")})` +
        `  idle ${mb(idle)}  after activity ${mb(after)}  peak ${mb(peak)}${verdict}`,
    );
  }
} finally {
  await s3?.close();
  await bench.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
verdicts.finish();
