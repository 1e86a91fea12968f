/**
 * Load benchmark: `--users` simulated people (default 200: 90% staff, 10%
 * reviewing admins) sign in to one real Tafsiri server on PostgreSQL and use it for `--seconds`
 * (default 60) together; the run checks that no request got a 5xx and no acknowledged write was
 * lost, and prints count, p50, p99 and max per operation.
 *
 * The data: `npm run seed`'s project (bench/support/seeded-database.ts): by default a temporary
 * database on DATABASE_URL's server seeded now (100,000 audios, 200 staff; dropped afterwards),
 * with `--existing` the database `npm start` uses. PostgreSQL only: the server runs as a child
 * process (`tsx apps/server/src/server.ts`, as bench/live.ts starts it, with the request limits
 * off and the sign-in limit raised, since all users come from 127.0.0.1) and this process reads
 * the database before and after, which an embedded PGlite cannot share between two processes
 * (without DATABASE_URL it prints why and exits 0, so `npm run bench` goes on to the next one).
 * This process's own database connections serve the setup and the final checks only (its pool
 * closes them after 10 s idle, so none is open during the run). With a temporary database, the
 * files of the newest 50 tasks of every simulated staff member (the pages they list) are written
 * first, so their audios play; with `--existing` the files are there only if the seed wrote them
 * (`--files`), and a missing one counts as a refusal, not an error.
 *
 * The users arrive evenly over `--ramp` seconds (default 30) and sign in with the seed's shared
 * password (`--password`, default the temporary seed's Bench#2026x) through `accounts.login`
 * (trying up to 3 times when no answer comes within 60 s), then work at once, waiting a random `--think`
 * time (100-500 ms) before each step. The `--seconds` measured start when every user is past
 * signing in, so all of them work throughout; the figures are printed for the arrival and for the
 * measured period, the checks cover the whole run. (A sign-in costs the server ~0.2 s of CPU,
 * argon2id: 200 arriving over 30 s need more than half of this machine's 2 cores.) They speak
 * tRPC over HTTP as the web app does (one procedure per request; the file through its signed
 * link), over keep-alive connections (bench/support/keep-alive-client.ts). Staff (the active
 * seeded ones, `staff001@seed.local` …, one account each) list their tasks (a page among the
 * first five: 20% of steps); open an audio of a task they listed (audios.get, the first 4 KB of
 * its file with a Range request, transcripts.get: 30%); save a transcript on a task they listed
 * whose transcript is not Approved (transcripts.save, a text with a unique marker: 20%); list
 * their submissions (15%) and notifications (15%). Admins (the seed's reviewers and, on a
 * temporary database, its first admin: several simulated admins share an account) list the
 * submissions needing review (a page among the first three: 25%); review one whose transcript is
 * Pending (audios.get, audios.markOpened, transcripts.get, a think time, then approve or, one time
 * in three, reject with a reason, expecting Pending: 35%); open the Dashboard's cards
 * (statistics.overview: 15%), the Logs' first page (10%), and their notifications (15%).
 *
 * Documented refusals the simulation runs into are counted apart, not as errors: a save after an
 * admin approved the transcript (403 'The transcript has been approved …'), a review another admin
 * won (409), a file not written (404, `--existing` only). Any other 4xx, or no answer within
 * 60 s, is unexpected and fails the run, as does any 5xx.
 *
 * No lost write (bench/support/write-ledger.ts): every acknowledged save and review is recorded;
 * afterwards each save's text must be a stored transcript version, each review must have its
 * audit entry, and each audio's current transcript status (and text, when the run saved one) must
 * be what its last acknowledged write left. So that the acknowledgement order is the commit
 * order, the simulation never runs a save and a review of the same audio at once (admins may race
 * each other on a review: exactly one wins). Times are wall times from request to whole answer,
 * over every answered request; server CPU is its process's CPU time over the measured period.
 *
 * Usage: npm run bench -- load [--users 200] [--admins 20] [--seconds 60] [--think 100-500]
 *        [--ramp 30] [--audios 100000] [--staff 200] [--existing] [--password Bench#2026x]
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@tafsiri/api";
import { wholeNumber } from "./support/args";
import { cpuTimeMs, memoryMb, startChild, stopChild, type ChildServer } from "./support/child-process";
import { keepAliveClient, type KeepAliveClient } from "./support/keep-alive-client";
import { writeNewestTaskFiles } from "./support/newest-task-files";
import { OperationStats } from "./support/operation-stats";
import { seededAccounts } from "./support/seeded-accounts";
import { onSeededDatabase, seededOptions, type SeededEnvironment } from "./support/seeded-database";
import { trpcHttp, type TrpcAnswer, type TrpcHttp } from "./support/trpc-http";
import { checkLedger, WriteLedger, type ReviewAction } from "./support/write-ledger";

const options = seededOptions({
  users: "200",
  admins: undefined,
  seconds: "60",
  think: "100-500",
  ramp: "30",
  password: "Bench#2026x",
});
const USERS = wholeNumber("users", options.extra.users!, 2);
const ADMINS = wholeNumber("admins", options.extra.admins ?? String(Math.max(1, Math.round(USERS / 10))), 1);
if (ADMINS >= USERS) throw new Error("--admins must be fewer than --users (the rest are staff).");
const STAFF_USERS = USERS - ADMINS;
const SECONDS = wholeNumber("seconds", options.extra.seconds!, 1);
const RAMP_SECONDS = wholeNumber("ramp", options.extra.ramp!, 0);
const THINK = /^(\d+)-(\d+)$/.exec(options.extra.think!);
if (!THINK || Number(THINK[1]) > Number(THINK[2]))
  throw new Error(`--think must be <min>-<max> in ms, e.g. 100-500 (got ${options.extra.think}).`);
const [THINK_MIN, THINK_MAX] = [Number(THINK[1]), Number(THINK[2])];
const PASSWORD = options.extra.password!;

const SERVER_SCRIPT = "apps/server/src/server.ts";
/** The first admin of a temporary seeded database (bench/support/seeded-database.ts), same password as the seed's accounts. */
const TEMPORARY_FIRST_ADMIN = "bench-admin@example.test";
/** Task pages (10 tasks each) a staff member lists; their tasks' files are written first. */
const TASK_PAGES = 5;
/** How long a request may take before it counts as unanswered (the web app itself waits as long as it takes). */
const NO_ANSWER_MS = 60_000;
/** Times a user tries to sign in when no answer comes. */
const SIGN_IN_ATTEMPTS = 3;
/** Pages of 'Needs review' an admin picks from. */
const REVIEW_PAGES = 3;
/** Bytes of an audio's file a staff member's player asks for first. */
const FIRST_BYTES = 4096;
/** The refusals the simulation runs into (packages/api/src/services/transcripts.ts, reviews.ts; apps/server/src/routes/files.ts). */
const TRANSCRIPT_LOCKED = "The transcript has been approved and can no longer be edited.";
const FILE_NOT_FOUND = "File not found.";

type Outputs = inferRouterOutputs<AppRouter>;
type TaskCard = Outputs["tasks"]["list"]["items"][number];
type SubmissionRow = Outputs["submissions"]["list"]["items"][number];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

/** What the simulated users share: the server, the figures and the ledger of acknowledged writes. */
interface Simulation {
  trpc: TrpcHttp;
  http: KeepAliveClient;
  stats: OperationStats;
  ledger: WriteLedger;
  /** performance.now() after which no user starts a step (infinite until everybody has signed in). */
  deadline: number;
  /** Marks the saved texts of this run. */
  runId: string;
  /** Steps skipped because a save and a review of the same audio would have run at once. */
  skipped: { saves: number; reviews: number };
  /** Users past signing in (signed in, or gave up) and, of them, signed in. */
  arrived: number;
  signedIn: number;
  /** Called once every user is past signing in: starts the measured period. */
  onAllArrived: () => void;
}

/**
 * Signs `email` in through accounts.login, trying again after a think time when no answer (or a
 * 5xx) came, up to SIGN_IN_ATTEMPTS times, as a person would; resolves to its token, or undefined
 * when that failed.
 */
async function signIn(sim: Simulation, email: string): Promise<string | undefined> {
  let token: string | undefined;
  for (let attempt = 1; attempt <= SIGN_IN_ATTEMPTS && token === undefined; attempt++) {
    const answer = await sim.stats.time("sign-in (accounts.login)", () =>
      sim.trpc.mutation<{ token: string }>("accounts.login", { email, password: PASSWORD }, null),
    );
    token = answer?.data?.token;
    if (answer && answer.status < 500) break;
    await sleep(randomInt(THINK_MIN, THINK_MAX));
  }
  if (token) sim.signedIn += 1;
  sim.arrived += 1;
  if (sim.arrived === USERS) sim.onAllArrived();
  return token;
}

/** Runs `step` after a think time until the deadline. */
async function loop(sim: Simulation, step: () => Promise<void>): Promise<void> {
  while (performance.now() < sim.deadline) {
    await sleep(randomInt(THINK_MIN, THINK_MAX));
    if (performance.now() >= sim.deadline) return;
    await step();
  }
}

/** A staff member: lists their tasks, opens audios, saves transcripts, lists submissions and notifications. */
async function staffUser(sim: Simulation, email: string, n: number): Promise<void> {
  const { trpc, stats, ledger } = sim;
  const token = await signIn(sim, email);
  if (!token) return;
  const tasks = new Map<string, TaskCard>();
  let pages = 1;
  let saves = 0;

  const listTasks = async (page: number) => {
    const answer = await stats.time("tasks.list (own)", () =>
      trpc.query<Outputs["tasks"]["list"]>("tasks.list", { page, limit: 10 }, token),
    );
    if (!answer?.data) return;
    pages = answer.data.totalPages;
    for (const task of answer.data.items) tasks.set(task.audioId, task);
  };

  const openAudio = async (task: TaskCard) => {
    const audio = await stats.time("audios.get", () =>
      trpc.query<Outputs["audios"]["get"]>("audios.get", { audioId: task.audioId }, token),
    );
    if (audio?.data) {
      const url = audio.data.audioUrl;
      await stats.time(
        `audio file, first ${FIRST_BYTES / 1024} KB (Range)`,
        async () => {
          const answer = await sim.http.request("GET", url, { range: `bytes=0-${FIRST_BYTES - 1}` });
          return { status: answer.status, message: answer.status >= 400 ? answer.body.toString("utf8") : undefined };
        },
        (answer) => answer.status === 404 && (answer.message ?? "").includes(FILE_NOT_FOUND),
      );
    }
    await stats.time("transcripts.get", () =>
      trpc.query<Outputs["transcripts"]["get"]>("transcripts.get", { audioId: task.audioId }, token),
    );
  };

  const save = async () => {
    const editable = [...tasks.values()].filter((t) => t.transcriptStatus !== "Approved");
    const task = pick(editable);
    if (!task) return;
    if (!ledger.begin(task.audioId, "save")) {
      sim.skipped.saves += 1;
      return;
    }
    saves += 1;
    const text =
      `@Begin\n*INV:\tTell me about the picture in front of you.\n` +
      `*PAR:\tThe boy is standing on the stool and it is falling.\n` +
      `@Comment:\tload ${sim.runId} user ${n} save ${saves}\n@End\n`;
    try {
      const answer = await stats.time(
        "transcripts.save",
        () => trpc.mutation<Outputs["transcripts"]["save"]>("transcripts.save", { audioId: task.audioId, text }, token),
        (a) => a.status === 403 && a.message === TRANSCRIPT_LOCKED,
      );
      if (answer?.data) {
        ledger.saved(task.audioId, text);
        task.transcriptStatus = "Pending";
      } else if (answer?.message === TRANSCRIPT_LOCKED) task.transcriptStatus = "Approved";
      else if (!answer || answer.status >= 500) ledger.unsure(task.audioId);
    } finally {
      ledger.end(task.audioId, "save");
    }
  };

  await listTasks(1);
  await loop(sim, async () => {
    const r = Math.random();
    const task = pick([...tasks.values()]);
    if (r < 0.2 || !task) await listTasks(randomInt(1, Math.max(1, Math.min(pages, TASK_PAGES))));
    else if (r < 0.5) await openAudio(task);
    else if (r < 0.7) await save();
    else if (r < 0.85)
      await stats.time("submissions.list (own)", () =>
        trpc.query<Outputs["submissions"]["list"]>("submissions.list", { page: 1 }, token),
      );
    else await stats.time("notifications.list", () => trpc.query("notifications.list", { limit: 20 }, token));
  });
}

/** An admin: lists what needs review, reviews transcripts, opens the Dashboard, the Logs and notifications. */
async function adminUser(sim: Simulation, email: string): Promise<void> {
  const { trpc, stats, ledger } = sim;
  const token = await signIn(sim, email);
  if (!token) return;
  let candidates: SubmissionRow[] = [];

  const listNeedsReview = async () => {
    const answer = await stats.time("submissions.list (needs review)", () =>
      trpc.query<Outputs["submissions"]["list"]>(
        "submissions.list",
        { page: randomInt(1, REVIEW_PAGES), status: "needsReview" },
        token,
      ),
    );
    if (answer?.data) candidates = answer.data.items.filter((s) => s.transcriptStatus === "Pending");
  };

  const review = async () => {
    if (candidates.length === 0) await listNeedsReview();
    const submission = pick(candidates);
    if (!submission) return;
    candidates = candidates.filter((s) => s !== submission);
    const { audioId } = submission;
    await stats.time("audios.get", () => trpc.query("audios.get", { audioId }, token));
    await stats.time("audios.markOpened", () => trpc.mutation("audios.markOpened", { audioId }, token));
    await stats.time("transcripts.get", () => trpc.query("transcripts.get", { audioId }, token));
    await sleep(randomInt(THINK_MIN, THINK_MAX));
    if (!ledger.begin(audioId, "review")) {
      sim.skipped.reviews += 1;
      return;
    }
    const action: ReviewAction = Math.random() < 1 / 3 ? "reject" : "approve";
    const input =
      action === "reject"
        ? { audioId, expectedStatus: "Pending", reason: "Load test: please check the speaker turns." }
        : { audioId, expectedStatus: "Pending" };
    try {
      const answer: TrpcAnswer<unknown> | undefined = await stats.time(
        `transcripts.${action}`,
        () => trpc.mutation(`transcripts.${action}`, input, token),
        (a) => a.status === 409,
      );
      if (answer?.data) ledger.reviewed(audioId, submission.id, action);
      else if (!answer || answer.status >= 500) ledger.unsure(audioId);
    } finally {
      ledger.end(audioId, "review");
    }
  };

  await listNeedsReview();
  await loop(sim, async () => {
    const r = Math.random();
    if (r < 0.25) await listNeedsReview();
    else if (r < 0.6) await review();
    else if (r < 0.75)
      await stats.time("statistics.overview", () => trpc.query("statistics.overview", undefined, token));
    else if (r < 0.85) await stats.time("logs.list (page 1)", () => trpc.query("logs.list", { page: 1 }, token));
    else await stats.time("notifications.list", () => trpc.query("notifications.list", { limit: 20 }, token));
  });
}

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

/** Prints the per-operation table over the requests started in [from, to) (performance.now() times). */
function printFigures(stats: OperationStats, from: number, to = Number.POSITIVE_INFINITY): void {
  const widths = [34, 7, 8, 8, 8];
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[0]!) : i < widths.length ? c.padStart(widths[i]!) : `  ${c}`))
      .join("");
  console.log(line(["operation", "count", "p50 ms", "p99 ms", "max ms", "answers"]));
  for (const f of stats.figures(from, to)) {
    const answers = [...f.byStatus.entries()]
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, n]) => `${status === "0" ? "no answer" : status} ×${n}`)
      .join(", ");
    const notOk = (["refused", "unexpected", "server error", "no answer"] as const)
      .filter((o) => f.byOutcome[o] > 0)
      .map((o) => `${f.byOutcome[o]} ${o}`);
    console.log(
      line([
        f.name,
        String(f.count),
        f.times.p50.toFixed(1),
        f.times.p99.toFixed(1),
        f.times.max.toFixed(1),
        `${answers}${notOk.length > 0 ? ` (${notOk.join(", ")})` : ""}`,
      ]),
    );
  }
}

async function run(env: SeededEnvironment): Promise<void> {
  const { db } = env;
  const accounts = await seededAccounts(db, options.existing ? undefined : TEMPORARY_FIRST_ADMIN);
  const staffAccounts = Array.from({ length: STAFF_USERS }, (_, i) => accounts.staff[i % accounts.staff.length]!);
  const adminAccounts = Array.from({ length: ADMINS }, (_, i) => accounts.admins[i % accounts.admins.length]!);
  if (!options.existing) {
    const start = performance.now();
    const ids = [...new Set(staffAccounts.map((a) => a.id))];
    const written = await writeNewestTaskFiles(db, env.dataDir, ids, TASK_PAGES * 10);
    console.log(
      `Wrote the files of ${written.audios.toLocaleString("en")} audios (the newest ${TASK_PAGES * 10} tasks of each ` +
        `simulated staff member): ${written.files.toLocaleString("en")} files, ` +
        `${(written.bytes / 1024 / 1024).toFixed(0)} MB in ${((performance.now() - start) / 1000).toFixed(0)} s`,
    );
  }
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  const since = rows[0]!.now;

  let server: ChildServer | undefined;
  const stopServer = () => (server ? stopChild(server) : Promise.resolve());
  const onSignal = () => void stopServer();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);
  const sim: Simulation = {
    trpc: undefined as unknown as TrpcHttp,
    http: undefined as unknown as KeepAliveClient,
    stats: new OperationStats(),
    ledger: new WriteLedger(),
    deadline: Number.POSITIVE_INFINITY,
    runId: randomBytes(4).toString("hex"),
    skipped: { saves: 0, reviews: 0 },
    arrived: 0,
    signedIn: 0,
    onAllArrived: () => undefined,
  };
  let start = 0;
  /** The measured period: from when every user was past signing in, SECONDS long. */
  let measuredFrom = 0;
  let measured = { ms: 0, serverCpuMs: 0, benchCpuMs: 0, loadAverage: "" };
  let peakRssMb = 0;
  const loadBefore = loadAverage();
  try {
    server = await startChild(SERVER_SCRIPT, {
      DATA_DIR: env.dataDir,
      DATABASE_URL: env.databaseUrl,
      JWT_SECRET: randomBytes(32).toString("hex"),
      // Every simulated user comes from 127.0.0.1 and works far faster than a person.
      RATE_LIMIT_PER_USER: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
      LOGIN_RATE_LIMIT: String(Math.max(1000, USERS * 10)),
    });
    sim.http = keepAliveClient(server.baseUrl, { maxSockets: USERS + 16, timeoutMs: NO_ANSWER_MS });
    sim.trpc = trpcHttp(sim.http);
    console.log(
      `\nLoad: ${USERS} users (${STAFF_USERS} staff on ${new Set(staffAccounts).size} accounts, ${ADMINS} admins on ` +
        `${new Set(adminAccounts).size} accounts) arriving over ${RAMP_SECONDS} s, then ${SECONDS} s measured; ` +
        `think ${THINK_MIN}-${THINK_MAX} ms; ${env.where}; ${os.cpus().length} cores, Node ${process.version}; ` +
        `load average before ${loadBefore}`,
    );
    const pid = server.pid;
    let serverBefore = 0;
    let benchBefore = process.cpuUsage();
    sim.onAllArrived = () => {
      measuredFrom = performance.now();
      sim.deadline = measuredFrom + SECONDS * 1000;
      serverBefore = cpuTimeMs(pid);
      benchBefore = process.cpuUsage();
    };
    start = performance.now();
    const arrival = (i: number) => sleep((i / USERS) * RAMP_SECONDS * 1000);
    // Admins and staff arrive interleaved: user i is an admin when i falls on the admins' share.
    const users: Array<Promise<void>> = [];
    let staffIndex = 0;
    let adminIndex = 0;
    for (let i = 0; i < USERS; i++) {
      const isAdmin = adminIndex < ADMINS && (i + 1) * ADMINS >= (adminIndex + 1) * USERS;
      if (isAdmin) {
        const account = adminAccounts[adminIndex++]!;
        users.push(arrival(i).then(() => adminUser(sim, account.email)));
      } else {
        const account = staffAccounts[staffIndex]!;
        const n = staffIndex++;
        users.push(arrival(i).then(() => staffUser(sim, account.email, n)));
      }
    }
    await Promise.all(users);
    const bench = process.cpuUsage(benchBefore);
    measured = {
      ms: performance.now() - measuredFrom,
      serverCpuMs: cpuTimeMs(pid) - serverBefore,
      benchCpuMs: (bench.user + bench.system) / 1000,
      loadAverage: loadAverage(),
    };
    peakRssMb = memoryMb(pid, "VmHWM");
  } finally {
    sim.http?.close();
    await stopServer();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
  }

  const { stats, ledger } = sim;
  /** Requests started in [from, to), answered or not. */
  const countOf = (from: number, to = Number.POSITIVE_INFINITY) =>
    stats.figures(from, to).reduce((n, f) => n + Object.values(f.byOutcome).reduce((a, b) => a + b, 0), 0);
  const requests = countOf(0);
  const arrivalSeconds = (measuredFrom - start) / 1000;
  console.log(
    `\nArrival, ${arrivalSeconds.toFixed(1)} s: the users arrive over ${RAMP_SECONDS} s, each working as soon as signed in ` +
      `(${sim.signedIn} of ${USERS} signed in):`,
  );
  printFigures(stats, 0, measuredFrom);
  const inMeasured = countOf(measuredFrom);
  console.log(
    `\nMeasured, ${(measured.ms / 1000).toFixed(1)} s with ${sim.signedIn} users signed in: ` +
      `${inMeasured.toLocaleString("en")} requests (${(inMeasured / (measured.ms / 1000)).toFixed(0)} a second); server CPU ` +
      `${((measured.serverCpuMs / measured.ms) * 100).toFixed(0)}% of a core, peak RSS ${peakRssMb.toFixed(0)} MB ` +
      `(whole run); this process (all clients) ${((measured.benchCpuMs / measured.ms) * 100).toFixed(0)}% of a core; ` +
      `load average after ${measured.loadAverage}`,
  );
  printFigures(stats, measuredFrom);
  for (const [key, messages] of stats.examples)
    if (messages.length > 0) console.log(`  ${key}: ${messages.join(" | ")}`);

  const check = await checkLedger(db, ledger, since);
  console.log(
    `\nWrites read back: transcript saves ${check.saves.found} of ${check.saves.acknowledged} acknowledged stored; ` +
      `reviews ${check.reviews.found} of ${check.reviews.acknowledged} acknowledged in the audit log; current transcript ` +
      `as last acknowledged on ${check.endStates.held} of ${check.endStates.checked} audios written` +
      (check.endStates.uncertain > 0 ? ` (${check.endStates.uncertain} with an unanswered write not checked)` : "") +
      `; skipped to keep a save and a review of one audio apart: ${sim.skipped.saves} saves, ${sim.skipped.reviews} reviews`,
  );
  for (const problem of check.problems) console.log(`  ${problem}`);

  const serverErrors = stats.total("server error");
  const unexpected = stats.total("unexpected") + stats.total("no answer");
  const lost =
    check.saves.acknowledged -
    check.saves.found +
    (check.reviews.acknowledged - check.reviews.found) +
    (check.endStates.checked - check.endStates.held);
  const verdicts: Array<[boolean, string]> = [
    [serverErrors === 0, `no 5xx (${serverErrors} of ${requests.toLocaleString("en")} requests)`],
    [
      lost === 0 && check.saves.acknowledged > 0,
      `no lost write (${check.saves.acknowledged} saves, ${check.reviews.acknowledged} reviews acknowledged; ${lost} lost)`,
    ],
    [
      unexpected === 0,
      `no unexpected answer (${stats.total("unexpected")} unexpected 4xx, ${stats.total("no answer")} without answer; ` +
        `${stats.total("refused")} documented refusals)`,
    ],
  ];
  console.log("");
  for (const [passed, text] of verdicts) console.log(`${passed ? "PASS" : "FAIL"} ${text}`);
  if (verdicts.some(([passed]) => !passed)) process.exitCode = 1;
}

if (!process.env.DATABASE_URL) {
  // Skipped, not failed: `npm run bench` runs every benchmark, the others on PGlite too.
  console.log(
    "Skipped: bench/load.ts needs PostgreSQL. Set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres; a " +
      "temporary database is created on that server). The load is measured on PostgreSQL, and the embedded " +
      "PGlite lives inside one process, so the server (a child process) and this benchmark's setup and checks cannot " +
      "share it.",
  );
} else {
  await onSeededDatabase(options, run);
}
