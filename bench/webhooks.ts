/**
 * Webhook benchmark (decision 037): `--events` real changes (default 10,000) announced to 5
 * endpoints, every event delivered exactly once to each, and the change → delivery time; and what
 * delivering them costs the rest of the app, as the p99 of a steady read load with and without
 * webhooks.
 *
 * It starts the real server as a child process (`tsx apps/server/src/server.ts`, as bench/live.ts
 * does: fresh DATA_DIR, its embedded PGlite, or a temporary database on DATABASE_URL's PostgreSQL
 * server, dropped afterwards), with WEBHOOK_ALLOWED_HOSTS=127.0.0.1 and the request limits off, and
 * 5 receivers in a second child process (this file run again with BENCH_WEBHOOK_ROLE=receivers: five
 * node:http servers on 127.0.0.1, in their own process so that their work is not counted against the
 * read load's latencies, as receivers are other machines in production). Each receiver verifies every
 * delivery with the `standardwebhooks` package (`new Webhook(secret).verify(body, headers)`, refusing
 * with 400 what does not verify), answers 204, and notes the receive time per (endpoint, event id),
 * counting a second receipt of an id as a duplicate.
 *
 * Through the server's own API (bench/support/live-delivery.ts seedLiveAudios): an admin, a staff
 * member and `--audios` (20) uploaded audios assigned to the staff member. Each change is the staff
 * member's comment on one of them (tRPC `comments.add` over HTTP, the audios in turn), which commits
 * the comment, its audit entry, the admin's notification, an 'audio.changed' live event and, while
 * the endpoints are on, a `comment.added` webhook event (one event and 5 deliveries) in one
 * transaction, then wakes the delivery job. The comment's text carries the change's number, which
 * the receivers read back from the event's `data`.
 *
 * The 5 endpoints are registered over REST first (POST /api/webhooks as the admin, every event
 * type) and switched off and on (PUT /api/webhooks/{id}); the changes are paced at `--rate` a second
 * (not waiting for each other) with a read load alongside, in slices, so that whatever else runs on
 * the machine weighs on both sides alike:
 *  1. warm-up, `--warmup` seconds of changes with the endpoints off, not measured;
 *  2. then, until `--events` changes were announced: `--slice`/2 seconds of changes with the endpoints
 *     off (nothing written for webhooks: "without"), then the endpoints on and `--slice` seconds of
 *     changes, the slice lasting until each of its events reached all 5 receivers ("with"; 60 s at
 *     most, which fails the run), then the endpoints off again; and a last slice without.
 * The read load (the rest of the app): `--reads` requests a second, paced, not waiting for each
 * other, over keep-alive connections: tRPC `accounts.me` as the staff member and `tasks.list` page
 * 1 as the admin, in turn. Its p99 is compared between the slices with and without webhooks (the
 * reads sent while the endpoints are switched are not counted).
 *
 * The default pace (20 changes and 20 reads a second) keeps the server's one core below saturation
 * on PGlite (a comment costs it about 20 ms there), so the figures are latency, not a queue; the run
 * then takes about 15 minutes, two thirds of it with webhooks.
 *
 * Change → delivery, per delivery: its receipt (Date.now() in the receivers' process) minus the
 * moment this process had the change's answer (Date.now(), the change acknowledged); and, beside
 * it, minus the event's `timestamp` (fixed in the change's transaction, before its commit). Both
 * processes read the same clock. Server CPU is the server process's CPU time per second of the phase;
 * how late its event loop ran, per slice, comes from its `/metrics` (LoopLag).
 *
 * Targets (the issue's "Done when"): every event delivered once per endpoint (verified), p99 change →
 * delivery under 2 s; the read load's p99 with webhooks within 10% of its p99 without. Prints PASS or
 * FAIL per target and exits 1 when one fails.
 *
 * Usage: npm run bench -- webhooks [--events 10000] [--rate 20] [--reads 20] [--slice 20] [--warmup 10] [--audios 20]
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { WEBHOOK_EVENT_TYPES } from "@tafsiri/domain";
import { wholeNumber } from "./support/args";
import { benchDatabase } from "./support/bench-database";
import { cpuTimeMs, memoryMb, startChild, stopChild, type ChildServer } from "./support/child-process";
import { keepAliveClient } from "./support/keep-alive-client";
import { ADMIN, paced, restJson, seedLiveAudios, sleep } from "./support/live-delivery";
import { summarize, type Summary } from "./support/stats";
import { trpcHttp, type TrpcHttp } from "./support/trpc-http";

/** Receivers (endpoints) registered. */
const ENDPOINTS = 5;
/** The marker of a change's comment text; the change's number follows it. */
const MARKER = "bench webhook change ";
/** How long the last deliveries may take after the last change before the run fails. */
const DRAIN_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------- the receivers (child process)

/** Parent → receivers: the endpoints' secrets (in port order), or a request for the report. */
type ToReceivers = { kind: "secrets"; secrets: string[] } | { kind: "report" };
/** Receivers → parent. */
type FromReceivers =
  { kind: "ports"; ports: number[] } | { kind: "progress"; received: number } | ({ kind: "report" } & ReceiverReport);

/** Every verified first receipt, as parallel arrays, and what went wrong. */
interface ReceiverReport {
  endpoint: number[];
  change: number[];
  /** Date.now() at the end of the request's body. */
  receivedAt: number[];
  /** The event's `timestamp`, ms since the epoch. */
  eventAt: number[];
  /** Receipts of an (endpoint, event id) already received. */
  duplicates: number;
  /** Deliveries that did not verify (answered 400) or carried no change number. */
  refused: number;
  /** CPU time of the receivers' process, ms. */
  cpuMs: number;
}

/**
 * The receivers' process: five node:http servers on 127.0.0.1 (ports sent to the parent), each
 * verifying with its endpoint's secret once the parent sent them.
 */
async function runReceivers(): Promise<void> {
  const send = (message: FromReceivers) => process.send?.(message);
  let secrets: Webhook[] = [];
  const seen = Array.from({ length: ENDPOINTS }, () => new Set<string>());
  const report: ReceiverReport = {
    endpoint: [],
    change: [],
    receivedAt: [],
    eventAt: [],
    duplicates: 0,
    refused: 0,
    cpuMs: 0,
  };
  const servers = Array.from({ length: ENDPOINTS }, (_, e) =>
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const receivedAt = Date.now();
        const body = Buffer.concat(chunks).toString("utf8");
        let event: { id: string; timestamp: string; data: { comment?: { text?: string } } };
        try {
          event = secrets[e]!.verify(body, {
            "webhook-id": String(req.headers["webhook-id"]),
            "webhook-timestamp": String(req.headers["webhook-timestamp"]),
            "webhook-signature": String(req.headers["webhook-signature"]),
          }) as typeof event;
        } catch {
          report.refused++;
          res.writeHead(400).end();
          return;
        }
        res.writeHead(204).end();
        if (seen[e]!.has(event.id)) {
          report.duplicates++;
          return;
        }
        seen[e]!.add(event.id);
        const text = event.data.comment?.text ?? "";
        const change = text.startsWith(MARKER) ? Number(text.slice(MARKER.length)) : Number.NaN;
        if (!Number.isInteger(change)) {
          report.refused++;
          return;
        }
        report.endpoint.push(e);
        report.change.push(change);
        report.receivedAt.push(receivedAt);
        report.eventAt.push(Date.parse(event.timestamp));
      });
    }),
  );
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
  let lastProgress = -1;
  const progress = setInterval(() => {
    if (report.endpoint.length !== lastProgress) {
      lastProgress = report.endpoint.length;
      send({ kind: "progress", received: lastProgress });
    }
  }, 100);
  process.on("message", (message: ToReceivers) => {
    if (message.kind === "secrets") secrets = message.secrets.map((s) => new Webhook(s));
    else {
      clearInterval(progress);
      const cpu = process.cpuUsage();
      // Disconnect only once the report is sent: a large message still queued would be dropped.
      process.send?.(
        { kind: "report", ...report, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies FromReceivers,
        () => {
          for (const s of servers) s.close();
          process.disconnect();
        },
      );
    }
  });
  send({ kind: "ports", ports: servers.map((s) => (s.address() as AddressInfo).port) });
}

/** The receivers' process as the parent sees it. */
interface Receivers {
  child: ChildProcess;
  ports: number[];
  /** Verified first receipts so far (updated every 100 ms). */
  received(): number;
  setSecrets(secrets: string[]): void;
  /** Asks for the report; the process then closes its servers and exits. */
  report(): Promise<ReceiverReport>;
}

/** Forks this file as the receivers' process (tsx's loader comes with process.execArgv); resolves once it listens. */
async function startReceivers(): Promise<Receivers> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BENCH_WEBHOOK_ROLE: "receivers" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let received = 0;
  let reported: ((r: ReceiverReport) => void) | null = null;
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the receivers' process exited with ${code}`)));
    child.on("message", (message: FromReceivers) => {
      if (message.kind === "ports") resolve(message.ports);
      else if (message.kind === "progress") received = message.received;
      else reported?.(message);
    });
  });
  return {
    child,
    ports,
    received: () => received,
    setSecrets: (secrets) => child.send({ kind: "secrets", secrets } satisfies ToReceivers),
    report: () =>
      new Promise<ReceiverReport>((resolve, reject) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          reject(new Error(`the receivers' process ended before the report (${child.exitCode ?? child.signalCode})`));
          return;
        }
        reported = resolve;
        child.once("exit", (code, signal) =>
          reject(new Error(`the receivers' process ended before the report (${code ?? signal})`)),
        );
        child.send({ kind: "report" } satisfies ToReceivers);
      }),
  };
}

// ---------------------------------------------------------------- the load (this process)

/** The read load's answer times by request name, ms, and how many requests failed. */
class ReadSamples {
  readonly byName = new Map<string, number[]>();
  failures = 0;
  add(name: string, ms: number): void {
    const list = this.byName.get(name) ?? [];
    list.push(ms);
    this.byName.set(name, list);
  }
  all(): number[] {
    return [...this.byName.values()].flat();
  }
}

/**
 * Starts the read load: `perSecond` requests a second, paced from now on and never waiting for
 * each other, `accounts.me` as the staff member and `tasks.list` page 1 as the admin in turn;
 * each answer's time goes to `sink()` (the current phase's samples). Returns a function that stops
 * it and resolves once the requests in flight have answered.
 */
function startReadLoad(
  trpc: TrpcHttp,
  tokens: { admin: string; staff: string },
  perSecond: number,
  sink: () => ReadSamples,
): () => Promise<void> {
  const interval = 1000 / perSecond;
  const start = performance.now();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const reads: Array<[string, () => ReturnType<TrpcHttp["query"]>]> = [
    ["accounts.me", () => trpc.query("accounts.me", undefined, tokens.staff)],
    ["tasks.list", () => trpc.query("tasks.list", { page: 1 }, tokens.admin)],
  ];
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const wait = start + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      const [name, read] = reads[i % reads.length]!;
      const samples = sink();
      const t0 = performance.now();
      const p = read().then(
        (answer) => {
          if (answer.status === 200) samples.add(name, performance.now() - t0);
          else samples.failures++;
        },
        () => {
          samples.failures++;
        },
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await Promise.all(inFlight);
  };
}

/** What one slice of changes measured. */
interface ChangePhase {
  /** Date.now() when each change's answer arrived. */
  ackedAt: Float64Array;
  /** Each change's round trip, ms. */
  roundTrips: number[];
  failures: number;
}

/**
 * Makes `count` changes, `rate` a second, numbered from `first` in their text: the staff member's
 * comment on `audioIds[i % n]`. Resolves once every one has answered.
 */
async function makeChanges(
  trpc: TrpcHttp,
  staffToken: string,
  audioIds: string[],
  first: number,
  count: number,
  rate: number,
): Promise<ChangePhase> {
  const out: ChangePhase = { ackedAt: new Float64Array(count), roundTrips: [], failures: 0 };
  await paced(count, 1000 / rate, async (i) => {
    const t0 = performance.now();
    const answer = await trpc
      .mutation("comments.add", { audioId: audioIds[i % audioIds.length]!, text: `${MARKER}${first + i}` }, staffToken)
      .catch(() => null);
    out.ackedAt[i] = Date.now();
    if (answer?.status === 200) out.roundTrips.push(performance.now() - t0);
    else out.failures++;
  });
  return out;
}

// ---------------------------------------------------------------- main

const fmt = (s: Summary, digits = 1) =>
  `${s.p50.toFixed(digits)} / ${s.p99.toFixed(digits)} / ${s.max.toFixed(digits)}`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Server CPU and wall time summed over a phase's slices. */
class PhaseClock {
  cpuMs = 0;
  seconds = 0;
  private cpu0 = 0;
  private t0 = 0;
  constructor(private readonly pid: number) {}
  start(): void {
    this.cpu0 = cpuTimeMs(this.pid);
    this.t0 = performance.now();
  }
  stop(): void {
    this.cpuMs += cpuTimeMs(this.pid) - this.cpu0;
    this.seconds += (performance.now() - this.t0) / 1000;
  }
  /** The server's CPU as a share of one core, %. */
  percent(): number {
    return this.cpuMs / this.seconds / 10;
  }
}

/** The bench server's metrics token (decision 028: `/metrics` on PORT with this bearer token). */
const METRICS_TOKEN = randomBytes(24).toString("hex");
/** prom-client samples the event loop with a timer of this period, ms. */
const LAG_TIMER_MS = 10;

/**
 * How late the server's event loop ran, per slice: prom-client's `nodejs_eventloop_lag_p99_seconds`
 * and `_max_seconds` from `/metrics`, whose histogram starts afresh at every scrape, less the
 * 10 ms period of its sampling timer. A slice starts with a scrape and ends with one. Tells whether
 * work of the delivery job holds up the requests of the same process.
 */
class LoopLag {
  readonly p99: number[] = [];
  readonly max: number[] = [];
  constructor(private readonly baseUrl: string) {}
  private async scrape(): Promise<{ p99: number; max: number }> {
    const answer = await fetch(`${this.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await answer.text();
    const late = (name: string) => {
      const seconds = new RegExp(`^${name} ([0-9.e+-]+)$`, "m").exec(text)?.[1];
      if (seconds === undefined) throw new Error(`/metrics has no ${name}`);
      return Math.max(0, Number(seconds) * 1000 - LAG_TIMER_MS);
    };
    return { p99: late("nodejs_eventloop_lag_p99_seconds"), max: late("nodejs_eventloop_lag_max_seconds") };
  }
  async start(): Promise<void> {
    await this.scrape();
  }
  async stop(): Promise<void> {
    const lag = await this.scrape();
    this.p99.push(lag.p99);
    this.max.push(lag.max);
  }
  /** "p99 a (median of slices), b (worst); max …", ms. */
  describe(): string {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    return (
      `p99 ${median(this.p99).toFixed(1)} (median of ${this.p99.length} slices), ${Math.max(...this.p99).toFixed(1)} (worst); ` +
      `max ${median(this.max).toFixed(1)}, ${Math.max(...this.max).toFixed(1)} ms`
    );
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: "string", default: "10000" },
      rate: { type: "string", default: "20" },
      reads: { type: "string", default: "20" },
      slice: { type: "string", default: "20" },
      warmup: { type: "string", default: "10" },
      audios: { type: "string", default: "20" },
    },
  });
  const EVENTS = wholeNumber("events", values.events, 1);
  const RATE = wholeNumber("rate", values.rate, 1);
  const READS = wholeNumber("reads", values.reads, 1);
  const SLICE_S = wholeNumber("slice", values.slice, 2);
  const WARMUP_S = wholeNumber("warmup", values.warmup, 0);
  const AUDIOS = wholeNumber("audios", values.audios, 1);
  const expected = EVENTS * ENDPOINTS;

  const children: ChildServer[] = [];
  let receivers: Receivers | null = null;
  const db = await benchDatabase(process.env.DATABASE_URL);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-webhooks-"));
  const stopAll = async () => {
    await Promise.all(children.map(stopChild));
    if (receivers && receivers.child.exitCode === null) receivers.child.kill("SIGTERM");
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stopAll().then(() => process.exit(130)));
  }
  try {
    const loadAtStart = load();
    console.log(
      `Webhooks: ${EVENTS} changes at ${RATE}/s to ${ENDPOINTS} endpoints, in slices of ${SLICE_S} s between slices of ` +
        `${SLICE_S / 2} s without webhooks; read load ${READS}/s; ${os.cpus().length} cores, Node ${process.version}, ` +
        `database ${db.label}; load average ${loadAtStart}`,
    );
    receivers = await startReceivers();
    const server = await startChild("apps/server/src/server.ts", {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      JWT_SECRET: randomBytes(32).toString("hex"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_PER_USER: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
      WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
      METRICS_TOKEN: METRICS_TOKEN,
    });
    children.push(server);
    const { adminToken, staffToken, audioIds } = await seedLiveAudios(server.baseUrl, AUDIOS);
    const trpc = trpcHttp(keepAliveClient(server.baseUrl));
    const tokens = { admin: adminToken, staff: staffToken };

    // The endpoints, registered over REST as the admin (every event type), then off until a slice with webhooks.
    const endpointIds: string[] = [];
    const secrets: string[] = [];
    for (const port of receivers.ports) {
      const created = await restJson<{ endpoint: { id: string }; secret: string }>(
        server.baseUrl,
        "POST",
        "/api/webhooks",
        adminToken,
        {
          url: `http://127.0.0.1:${port}/hooks`,
          description: `bench receiver ${port}`,
          eventTypes: [...WEBHOOK_EVENT_TYPES],
        },
      );
      endpointIds.push(created.endpoint.id);
      secrets.push(created.secret);
    }
    receivers.setSecrets(secrets);
    // Switched over the keep-alive connections, which wait as long as a busy server takes (fetch gives up connecting after 10 s).
    const rest = keepAliveClient(server.baseUrl, { timeoutMs: 120_000 });
    const setEnabled = (enabled: boolean) =>
      Promise.all(
        endpointIds.map(async (id) => {
          const answer = await rest.request(
            "PUT",
            `/api/webhooks/${id}`,
            { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
            JSON.stringify({ enabled }),
          );
          if (answer.status !== 200) throw new Error(`PUT /api/webhooks/${id} answered ${answer.status}`);
        }),
      );
    await setEnabled(false);

    const discarded = new ReadSamples();
    const withoutReads = new ReadSamples();
    const withReads = new ReadSamples();
    let samples = discarded;
    const stopReads = startReadLoad(trpc, tokens, READS, () => samples);
    // Warm-up, not measured; changes without webhooks are numbered below zero (no event carries them).
    let unannounced = -1_000_000;
    await makeChanges(trpc, staffToken, audioIds, unannounced, WARMUP_S * RATE, RATE);
    unannounced += WARMUP_S * RATE;

    const withoutClock = new PhaseClock(server.pid);
    const withClock = new PhaseClock(server.pid);
    const withoutLag = new LoopLag(server.baseUrl);
    const withLag = new LoopLag(server.baseUrl);
    const withoutTrips: number[] = [];
    const withTrips: number[] = [];
    const ackedAt = new Float64Array(EVENTS);
    let failures = 0;
    let drainedLate = false;
    const withoutSlice = async () => {
      samples = withoutReads;
      await withoutLag.start();
      withoutClock.start();
      const slice = await makeChanges(trpc, staffToken, audioIds, unannounced, (RATE * SLICE_S) / 2, RATE);
      withoutClock.stop();
      await withoutLag.stop();
      unannounced += (RATE * SLICE_S) / 2;
      withoutTrips.push(...slice.roundTrips);
      failures += slice.failures;
    };
    let done = 0;
    // Events the server acknowledged (a change that failed announces nothing, and is counted as a failure).
    let announced = 0;
    while (done < EVENTS) {
      await withoutSlice();
      samples = discarded;
      await setEnabled(true);
      samples = withReads;
      await withLag.start();
      withClock.start();
      const count = Math.min(RATE * SLICE_S, EVENTS - done);
      const slice = await makeChanges(trpc, staffToken, audioIds, done, count, RATE);
      ackedAt.set(slice.ackedAt, done);
      withTrips.push(...slice.roundTrips);
      failures += slice.failures;
      done += count;
      announced += slice.roundTrips.length;
      // The slice lasts until its last delivery arrived.
      const deadline = performance.now() + DRAIN_TIMEOUT_MS;
      while (receivers.received() < announced * ENDPOINTS && performance.now() < deadline) await sleep(20);
      if (receivers.received() < announced * ENDPOINTS) drainedLate = true;
      console.error(`  ${done} of ${EVENTS} changes, ${receivers.received()} deliveries; load average ${load()}`);
      withClock.stop();
      await withLag.stop();
      samples = discarded;
      await setEnabled(false);
    }
    await withoutSlice();
    samples = discarded;
    await stopReads();
    const loadAtEnd = load();
    const peakRss = memoryMb(server.pid, "VmHWM");
    const report = await receivers.report();
    await stopChild(server);

    // Figures.
    const fromAck: number[] = [];
    const fromEvent: number[] = [];
    const perEndpoint = new Array<number>(ENDPOINTS).fill(0);
    const perChange = new Uint8Array(EVENTS);
    let strays = 0;
    for (let k = 0; k < report.endpoint.length; k++) {
      const change = report.change[k]!;
      if (change < 0 || change >= EVENTS) {
        strays++;
        continue;
      }
      perEndpoint[report.endpoint[k]!]! += 1;
      perChange[change]! += 1;
      fromAck.push(report.receivedAt[k]! - ackedAt[change]!);
      fromEvent.push(report.receivedAt[k]! - report.eventAt[k]!);
    }
    const complete = perChange.every((n) => n === ENDPOINTS);
    const ack = summarize(fromAck);
    const commit = summarize(fromEvent);
    const readsWithout = summarize(withoutReads.all());
    const readsWith = summarize(withReads.all());
    const ratio = readsWith.p99 / readsWithout.p99;

    console.log(
      `load average at the start ${loadAtStart}, at the end ${loadAtEnd}; server peak RSS ${peakRss.toFixed(0)} MB`,
    );
    for (const [label, trips, clock] of [
      ["without webhooks", withoutTrips, withoutClock],
      ["with webhooks", withTrips, withClock],
    ] as const) {
      console.log(
        `changes ${label.padEnd(16)} ${String(trips.length).padStart(6)} over ${clock.seconds.toFixed(0).padStart(4)} s; ` +
          `comments.add p50/p99/max ${fmt(summarize(trips))} ms; server CPU ${clock.percent().toFixed(0)}% of a core`,
      );
    }
    console.log(`server event loop late without webhooks: ${withoutLag.describe()}`);
    console.log(`server event loop late with webhooks:    ${withLag.describe()}`);
    console.log(
      `deliveries: ${fromAck.length} of ${expected} verified (${perEndpoint.join(" / ")} per endpoint), ${report.duplicates} twice, ` +
        `${report.refused} refused, ${strays} of no measured change; receivers' CPU ${(report.cpuMs / withClock.seconds / 10).toFixed(0)}% of a core`,
    );
    console.log(`change acknowledged → delivery p50/p99/max ${fmt(ack, 0)} ms`);
    console.log(`event timestamp (in the change's transaction) → delivery p50/p99/max ${fmt(commit, 0)} ms`);
    for (const [label, s] of [
      ["without webhooks", withoutReads],
      ["with webhooks", withReads],
    ] as const) {
      const parts = [...s.byName].map(([name, list]) => `${name} ${fmt(summarize(list))}`).join(", ");
      console.log(
        `reads ${label.padEnd(16)} ${String(s.all().length).padStart(6)} answered, ${s.failures} failed; ` +
          `p50/p99/max ${fmt(summarize(s.all()))} ms (${parts})`,
      );
    }

    failures += withoutReads.failures + withReads.failures;
    const exactlyOnce =
      complete && fromAck.length === expected && report.duplicates === 0 && report.refused === 0 && strays === 0;
    const verdicts: Array<[string, boolean]> = [
      [
        `every event delivered once per endpoint, verified (${fromAck.length} of ${expected}, ${report.duplicates} twice${drainedLate ? ", a slice drained late" : ""})`,
        exactlyOnce,
      ],
      [`p99 change acknowledged → delivery under 2 s (${ack.p99.toFixed(0)} ms)`, ack.p99 < 2000],
      [
        `reads' p99 with webhooks within 10% of without (${readsWith.p99.toFixed(1)} / ${readsWithout.p99.toFixed(1)} ms = ${ratio.toFixed(2)}x)`,
        ratio <= 1.1,
      ],
      [`no change or read failed (${failures})`, failures === 0],
    ];
    for (const [text, ok] of verdicts) console.log(`${ok ? "PASS" : "FAIL"}  ${text}`);
    if (verdicts.some(([, ok]) => !ok)) process.exitCode = 1;
  } finally {
    await stopAll();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_WEBHOOK_ROLE === "receivers") await runReceivers();
else await main();
