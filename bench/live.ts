/**
 * Live-delivery benchmark (decision 005). Starts the real Tafsiri server as a child process
 * (`tsx apps/server/src/server.ts`, fresh DATA_DIR; its embedded PGlite, or a fresh temporary
 * database on DATABASE_URL's PostgreSQL server when that is set), connects N WebSocket
 * subscribers to `events.onEvent` (plain `ws` clients speaking tRPC's WebSocket protocol,
 * bench/support/trpc-subscriber.ts, so they cost this process what the floor's clients cost), then
 * commits M real changes through the server, one every --interval ms, each on its own audio:
 * a staff member saves a transcript (tRPC over HTTP, `transcripts.save`), which commits a
 * notification for the admin and an 'audio.changed' event for the admins, so every subscriber
 * receives two messages per change. A change's latency for a subscriber ends when it receives
 * the change's 'audio.changed' (recorded last in the transaction), and is measured from
 *  - the commit: the event's `at`, the events row's created_at, which is clock_timestamp() at
 *    its insert, the transaction's last statement, so just before the commit (an upper bound on
 *    commit → receipt by the commit's own duration; `at` has whole milliseconds);
 *  - the request: the moment this process sent the save (includes the HTTP request and the
 *    whole transaction).
 * Receipts are timed with Date.now() for the commit figures (the wall clock of this machine,
 * which stamps `at` too) and with performance.now() for the request ones.
 *
 * The floor, in the same run: a plain Fastify + @fastify/websocket server (child process,
 * bench/support/floor-server.ts) that, per POST /broadcast, stamps the time, then sends the same
 * number of JSON messages, of the same byte sizes as the live ones, to N plain `ws` clients;
 * measured the same way (from its stamp, and from the request sent, to the last message).
 *
 * All N subscribers use one admin account's token (each socket is its own connection with its
 * own subscription); events with audience 'admins' reach each of them. Everything runs on
 * 127.0.0.1 and each phase stops by itself (a missing delivery ends the wait after 30 s and
 * fails the run). The changes are paced, not waited for: if the server cannot keep up, latency
 * grows, and that shows. Peak RSS is each server process's VmHWM from /proc/<pid>/status (the
 * clients are not in it); the CPU columns are CPU time per measured change of the server
 * process and of this process (all the clients).
 *
 * The default pace, one change every 500 ms, keeps the server below saturation on this 2-core
 * machine (each change costs it ~60 ms of CPU with 1,000 subscribers), so the figures are
 * latency, not queueing; a shorter --interval shows where queueing starts.
 *
 * Usage: npm run bench -- live [--subscribers 1000] [--events 100] [--interval 500] [--warmup 5]
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds node options to both servers.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { wholeNumber } from "./support/args";
import { benchDatabase } from "./support/bench-database";
import { cpuTimeMs, memoryMb, startChild, stopChild, type ChildServer } from "./support/child-process";
import { summarize, type Summary } from "./support/stats";
import {
  ADMIN,
  closeAll,
  connectFloorClients,
  httpClient,
  messageSizesOf,
  paced,
  Receipts,
  restJson,
  seedLiveAudios,
  sleep,
  subscribeToChanges,
  waitFor,
} from "./support/live-delivery";

const { values } = parseArgs({
  options: {
    subscribers: { type: "string", default: "1000" },
    events: { type: "string", default: "100" },
    interval: { type: "string", default: "500" },
    warmup: { type: "string", default: "5" },
  },
});
const N = wholeNumber("subscribers", values.subscribers, 1);
const M = wholeNumber("events", values.events, 1);
const INTERVAL_MS = wholeNumber("interval", values.interval, 1);
const WARMUP = wholeNumber("warmup", values.warmup, 0);
const SERVER_SCRIPT = "apps/server/src/server.ts";
const FLOOR_SCRIPT = "bench/support/floor-server.ts";
/** CPU time (ms) per measured change: the server's, and this process's (the clients'). */
interface CpuPerChange {
  server: number;
  clients: number;
}

/** What one path (live or floor) measured over the measured changes. */
interface PathResult {
  /** Commit (floor: broadcast stamp) → the change's last message received, ms, over every (subscriber, change). */
  fromCommit: Summary;
  /** Request sent → the change's last message received, ms. */
  fromRequest: Summary;
  /** Messages received (each counted once), expected (N × M × messages per change), and received twice or more. */
  received: number;
  expected: number;
  duplicates: number;
  cpu: CpuPerChange;
  /** The server's VmRSS before any subscriber connected, and its VmHWM at the end, MB. */
  idleRssMb: number;
  peakRssMb: number;
}

/** Per-change start times, each change's receipts by message kind (the last kind ends its latency). */
interface Measurement {
  requestSent: Float64Array;
  committedWall: Float64Array;
  kinds: Receipts[];
}

function newMeasurement(kinds: number): Measurement {
  const total = WARMUP + M;
  return {
    requestSent: new Float64Array(total),
    committedWall: new Float64Array(total),
    kinds: Array.from({ length: kinds }, () => new Receipts(total, N)),
  };
}

const allReceived = (m: Measurement, from: number, to: number) =>
  m.kinds.every((r) => r.count(from, to) === (to - from) * N);

/**
 * Warm-up changes [0, WARMUP), then the measured ones [WARMUP, WARMUP + M), each phase waited
 * for until every subscriber has all of it. `fire(change)` sets requestSent[change]. Returns the
 * phase's figures; `server` is the process whose CPU time and memory count.
 */
async function measure(
  server: ChildServer,
  idleRssMb: number,
  m: Measurement,
  fire: (change: number) => Promise<void>,
): Promise<PathResult> {
  const total = WARMUP + M;
  await paced(WARMUP, INTERVAL_MS, (i) => fire(i));
  await waitFor(() => allReceived(m, 0, WARMUP), "the warm-up deliveries");
  const serverBefore = cpuTimeMs(server.pid);
  const clientsBefore = process.cpuUsage();
  await paced(M, INTERVAL_MS, (i) => fire(WARMUP + i));
  await waitFor(() => allReceived(m, WARMUP, total), `${N} × ${M} deliveries`).catch((error: unknown) =>
    console.error(String(error)),
  );
  const clients = process.cpuUsage(clientsBefore);
  const cpu = {
    server: (cpuTimeMs(server.pid) - serverBefore) / M,
    clients: (clients.user + clients.system) / 1000 / M,
  };
  await sleep(200); // late duplicates would show up here
  const last = m.kinds[m.kinds.length - 1]!;
  return {
    fromCommit: summarize(last.latencies(m.committedWall, WARMUP, total, true)),
    fromRequest: summarize(last.latencies(m.requestSent, WARMUP, total)),
    received: m.kinds.reduce((n, r) => n + r.count(WARMUP, total), 0),
    expected: m.kinds.length * M * N,
    duplicates: m.kinds.reduce((n, r) => n + r.duplicates, 0),
    cpu,
    idleRssMb,
    peakRssMb: memoryMb(server.pid, "VmHWM"),
  };
}

// ---------------------------------------------------------------- the live path

/** The live path's figures, the byte sizes of one change's messages to a subscriber (in order), and the saves' round trips. */
interface LiveResult extends PathResult {
  messageSizes: number[];
  saveRoundTrip: Summary;
}

/** The live path against a fresh Tafsiri server (see the top of the file). */
async function runLive(children: ChildServer[], dbUrl: string | undefined): Promise<LiveResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-live-"));
  try {
    const server = await startChild(SERVER_SCRIPT, {
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      JWT_SECRET: randomBytes(32).toString("hex"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      // The benchmark drives one admin far past what a person does: the general request limit is off.
      RATE_LIMIT_PER_USER: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
    });
    children.push(server);
    const { adminToken, staffToken, audioIds } = await seedLiveAudios(server.baseUrl, WARMUP + M);
    const idleRssMb = memoryMb(server.pid, "VmRSS");

    const m = newMeasurement(2);
    const [notified, changed] = m.kinds as [Receipts, Receipts];
    const { sockets, frames, errors } = await subscribeToChanges({
      url: `${server.baseUrl.replace(/^http/, "ws")}/trpc`,
      count: N,
      token: adminToken,
      audioIds,
      onReceipt: (kind, change, s, atMs) => {
        if (kind === 0) notified.record(change, s);
        else {
          changed.record(change, s);
          if (m.committedWall[change] === 0) m.committedWall[change] = atMs;
        }
      },
    });

    const staff = httpClient(server.baseUrl, staffToken);
    const roundTrips: number[] = [];
    const result = await measure(server, idleRssMb, m, async (change) => {
      m.requestSent[change] = performance.now();
      await staff.transcripts.save.mutate({
        audioId: audioIds[change]!,
        text: `Habari ya asubuhi. Benchmark transcript ${change}.`,
      });
      if (change >= WARMUP) roundTrips.push(performance.now() - m.requestSent[change]!);
    });
    if (errors.size > 0) console.error(`subscription errors: ${[...errors].join("; ")}`);

    await closeAll(sockets);
    await stopChild(server);
    const firstMeasured = audioIds[WARMUP]!;
    return {
      ...result,
      messageSizes: messageSizesOf(frames, firstMeasured),
      saveRoundTrip: summarize(roundTrips),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the floor

/** The floor: N plain `ws` clients of bench/support/floor-server.ts, one broadcast of messages of `sizes` bytes per change. */
async function runFloor(children: ChildServer[], sizes: number[]): Promise<PathResult> {
  const server = await startChild(FLOOR_SCRIPT, {});
  children.push(server);
  const idleRssMb = memoryMb(server.pid, "VmRSS");
  const m = newMeasurement(sizes.length);
  const sockets = await connectFloorClients(`${server.baseUrl.replace(/^http/, "ws")}/ws`, N, (kind, seq, s, atMs) => {
    m.kinds[kind]?.record(seq, s);
    if (m.committedWall[seq] === 0) m.committedWall[seq] = atMs;
  });

  const result = await measure(server, idleRssMb, m, async (seq) => {
    m.requestSent[seq] = performance.now();
    const out = await restJson<{ clients: number }>(server.baseUrl, "POST", "/broadcast", null, { seq, sizes });
    if (out.clients !== N) throw new Error(`the floor server broadcast to ${out.clients} clients, not ${N}`);
  });
  await closeAll(sockets);
  await stopChild(server);
  return result;
}

// ---------------------------------------------------------------- main

const WIDTHS = [33, 8, 8, 8, 10, 8, 8, 16, 5, 10, 9, 9];
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[0]!) : c.padStart(WIDTHS[i]!))).join("");
/** A header line of labels over groups of columns: [label, how many columns] from the first column on. */
const groupLine = (groups: Array<[string, number]>) => {
  let column = 0;
  return groups
    .map(([label, span]) => {
      const width = WIDTHS.slice(column, column + span).reduce((a, b) => a + b, 0);
      column += span;
      return label.padStart(width);
    })
    .join("");
};
const row = (name: string, r: PathResult) =>
  line([
    name,
    r.fromCommit.p50.toFixed(1),
    r.fromCommit.p99.toFixed(1),
    r.fromCommit.max.toFixed(1),
    r.fromRequest.p50.toFixed(1),
    r.fromRequest.p99.toFixed(1),
    r.fromRequest.max.toFixed(1),
    `${r.received}/${r.expected}`,
    String(r.duplicates),
    `${r.peakRssMb.toFixed(0)} MB`,
    `${r.cpu.server.toFixed(0)} ms`,
    `${r.cpu.clients.toFixed(0)} ms`,
  ]);

const children: ChildServer[] = [];
const stopChildren = () => Promise.all(children.map(stopChild));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopChildren().then(() => process.exit(130)));
}

const db = await benchDatabase(process.env.DATABASE_URL);
try {
  console.log(
    `Live delivery: ${N} WebSocket subscribers, ${M} changes one every ${INTERVAL_MS} ms (after ${WARMUP} warm-up ones); ` +
      `${os.cpus().length} cores, Node ${process.version}, database ${db.label}`,
  );
  const live = await runLive(children, db.url);
  if (live.messageSizes.length === 0) throw new Error("captured no live message to size the floor's messages");
  const floor = await runFloor(children, live.messageSizes);

  console.log(
    `each change sends each subscriber ${live.messageSizes.length} messages (${live.messageSizes.join(" + ")} bytes); latencies in ms`,
  );
  console.log(
    groupLine([
      ["", 1],
      ["commit → receipt", 3],
      ["request → receipt", 3],
      ["", 3],
      ["CPU per change", 2],
    ]),
  );
  console.log(
    line(["path", "p50", "p99", "max", "p50", "p99", "max", "messages", "dup", "peak RSS", "server", "clients"]),
  );
  console.log(row("Tafsiri events.onEvent (tRPC)", live));
  console.log(row("plain @fastify/websocket (floor)", floor));
  const ratio = live.fromCommit.p99 / floor.fromCommit.p99;
  const requestRatio = live.fromRequest.p99 / floor.fromRequest.p99;
  console.log(`live p99 / floor p99 = ${ratio.toFixed(2)}x (commit → receipt)`);
  console.log(`live p99 / floor p99 = ${requestRatio.toFixed(2)}x (request → receipt)`);
  console.log(
    `server RSS before subscribers: live ${live.idleRssMb.toFixed(0)} MB, floor ${floor.idleRssMb.toFixed(0)} MB; ` +
      `transcripts.save round trip p50 ${live.saveRoundTrip.p50.toFixed(1)} ms, p99 ${live.saveRoundTrip.p99.toFixed(1)} ms`,
  );
  const met = live.fromCommit.p99 < 100 && ratio <= 1.5;
  console.log(`target (commit → receipt p99 < 100 ms and within 1.5x of the floor): ${met ? "met" : "MISSED"}`);
  if (![live, floor].every((r) => r.received === r.expected && r.duplicates === 0)) {
    console.error("FAILED: some messages were lost or delivered more than once (see the messages and dup columns).");
    process.exitCode = 1;
  }
} finally {
  await stopChildren();
  await db.drop();
}
