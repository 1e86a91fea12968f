import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import parsePrometheusTextFormat, { type PrometheusFamily } from "parse-prometheus-text-format";
import { sweepFiles, type SessionUser } from "@tafsiri/api";
import { buildApp } from "../src/app";
import { startMetricsListener, type MetricsListener } from "../src/metrics/metrics-listener";
import { METRICS_TOKEN_REQUIRED } from "../src/metrics/metrics-route";
import { loadSettings, type Settings } from "../src/settings";
import { createAppHarness, fixture, uploadAudio, type AppHarness } from "./fixtures/app-harness";
import { liveClient, listen, waitUntil, type LiveClient } from "./fixtures/live-client";
import { freePort, serverDataPlace, startServerProcess, stopServerProcess } from "./fixtures/server-process";

const TOKEN = "metrics-token-0123456789abcdef-0123456789";

let h: AppHarness;
let app: FastifyInstance;
let baseUrl: string;
let admin: SessionUser;
let staff: SessionUser;
const clients: LiveClient[] = [];
const others: FastifyInstance[] = [];

/** An app over the harness's database and storage with these metrics settings. */
async function appWith(settings: Partial<Pick<Settings, "METRICS_TOKEN" | "METRICS_PORT">>): Promise<FastifyInstance> {
  const built = await buildApp({
    deps: h.deps,
    settings: { MAX_UPLOAD_BYTES: 512 * 1024 * 1024, WEB_DIST: undefined, ...settings },
  });
  others.push(built);
  await built.ready();
  return built;
}

beforeAll(async () => {
  h = await createAppHarness();
  app = await appWith({ METRICS_TOKEN: TOKEN });
  baseUrl = await listen(app);
  admin = await h.createUser("Admin");
  staff = await h.createUser("Staff");
});
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const a of others) await a.close();
  await h.close();
});

/** Scrapes `url` with the token over real HTTP, checks the answer and parses it. */
async function scrape(url = `${baseUrl}/metrics`, token: string | null = TOKEN): Promise<PrometheusFamily[]> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

/**
 * parse-prometheus-text-format 1.1 folds the buckets of every labelled histogram into one
 * unlabelled sample; without the `_bucket` lines it keeps each series as `{ labels, count, sum }`.
 * The buckets are checked on the raw text instead (see "answers Prometheus's text format").
 */
function parse(text: string): PrometheusFamily[] {
  return parsePrometheusTextFormat(
    text
      .split("\n")
      .filter((line) => !/^[a-z_]+_bucket\{/.test(line))
      .join("\n"),
  );
}

function family(families: PrometheusFamily[], name: string): PrometheusFamily | undefined {
  return families.find((f) => f.name === name);
}

/** The value of a counter or gauge sample with exactly these labels (0 when absent). */
function valueOf(families: PrometheusFamily[], name: string, labels: Record<string, string> = {}): number {
  const sample = family(families, name)?.metrics.find((m) => sameLabels(m.labels ?? {}, labels));
  return sample ? Number(sample.value) : 0;
}

/** The count of a histogram's series with exactly these labels (0 when absent). */
function countOf(families: PrometheusFamily[], name: string, labels: Record<string, string>): number {
  const sample = family(families, name)?.metrics.find((m) => sameLabels(m.labels ?? {}, labels));
  return sample ? Number(sample.count) : 0;
}

/** How much `read` grew from one scrape to a later one. */
function growth(before: PrometheusFamily[], after: PrometheusFamily[], read: (f: PrometheusFamily[]) => number) {
  return read(after) - read(before);
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

describe("GET /metrics with METRICS_TOKEN (decision 028)", () => {
  it("refuses a scrape without the token or with a wrong one: 401, no metrics, no stack", async () => {
    for (const headers of <Array<Record<string, string>>>[
      {},
      { authorization: "Bearer wrong-token" },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${TOKEN}` },
      { authorization: TOKEN },
    ]) {
      const res = await fetch(`${baseUrl}/metrics`, { headers });
      expect(res.status).toBe(401);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ message: METRICS_TOKEN_REQUIRED });
      expect(body).not.toMatch(/tafsiri_|process_cpu|at .*\.ts/);
    }
  });

  it("answers Prometheus's text format with the process metrics", async () => {
    const raw = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(raw).toMatch(
      /^tafsiri_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/metrics",status="401"\} \d+$/m,
    );
    const families = await scrape();
    expect(family(families, "process_cpu_user_seconds_total")?.type).toBe("COUNTER");
    expect(family(families, "nodejs_heap_size_used_bytes")?.type).toBe("GAUGE");
    expect(family(families, "tafsiri_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    // Every job and result is listed before its first run.
    for (const job of ["export", "backup", "sweep", "waveform", "retention", "anchors"])
      for (const result of ["ok", "failed"])
        expect(family(families, "tafsiri_job_runs_total")?.metrics).toContainEqual({
          labels: { job, result },
          value: expect.any(String),
        });
  });

  it("counts requests by route pattern and status, never by raw URL", async () => {
    const labels = { method: "GET", route: "/healthz", status: "200" };
    const before = countOf(await scrape(), "tafsiri_http_request_duration_seconds", labels);
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    const unknown = await app.inject({ method: "GET", url: "/api/no-such-path-7f3a?secret=hunter2" });
    expect(unknown.statusCode).toBe(404);
    const families = await scrape();
    expect(countOf(families, "tafsiri_http_request_duration_seconds", labels)).toBe(before + 3);
    expect(
      countOf(families, "tafsiri_http_request_duration_seconds", {
        method: "GET",
        route: "(unmatched)",
        status: "404",
      }),
    ).toBeGreaterThanOrEqual(1);
    const routes = family(families, "tafsiri_http_request_duration_seconds")!.metrics.map((m) => m.labels?.route);
    expect(routes.some((r) => r?.includes("7f3a") || r?.includes("hunter2"))).toBe(false);
  });

  it("times tRPC procedures by procedure and outcome", async () => {
    const ok = { procedure: "notifications.list", type: "query", outcome: "ok" };
    const refused = { procedure: "notifications.list", type: "query", outcome: "UNAUTHORIZED" };
    const before = await scrape();
    await h.caller(staff).notifications.list({});
    await expect(h.caller(null).notifications.list({})).rejects.toThrow();
    const after = await scrape();
    for (const labels of [ok, refused])
      expect(growth(before, after, (f) => countOf(f, "tafsiri_trpc_procedure_duration_seconds", labels))).toBe(1);
  });

  it("counts the bytes of an accepted upload by kind", async () => {
    const before = valueOf(await scrape(), "tafsiri_upload_bytes_total", { kind: "AUDIO" });
    const wav = await fixture("hello.wav");
    await uploadAudio(h, await h.token(admin), { name: `metrics_${Date.now()}.wav`, content: wav, type: "audio/wav" });
    const added = valueOf(await scrape(), "tafsiri_upload_bytes_total", { kind: "AUDIO" }) - before;
    // The multipart body: the file and the form around it.
    expect(added).toBeGreaterThanOrEqual(wav.length);
    expect(added).toBeLessThan(wav.length + 2_000);
  });

  it("counts the chunks of a resumable (tus) upload as resumable bytes", async () => {
    const before = valueOf(await scrape(), "tafsiri_upload_bytes_total", { kind: "resumable" });
    const wav = await fixture("hello.wav");
    const b64 = (value: string) => Buffer.from(value).toString("base64");
    const tus = { "tus-resumable": "1.0.0", authorization: `Bearer ${await h.token(admin)}` };
    const created = await fetch(`${baseUrl}/api/uploads`, {
      method: "POST",
      headers: {
        ...tus,
        "upload-length": String(wav.length),
        "upload-metadata": `kind ${b64("AUDIO")},filename ${b64(`metrics_tus_${Date.now()}.wav`)},category ${b64("Control")}`,
      },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get("location")!, baseUrl).pathname;
    const half = Math.floor(wav.length / 2);
    for (const [offset, chunk] of [
      [0, wav.subarray(0, half)],
      [half, wav.subarray(half)],
    ] as const) {
      const res = await fetch(`${baseUrl}${path}`, {
        method: "PATCH",
        headers: { ...tus, "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
        body: chunk,
      });
      expect(res.status).toBe(204);
    }
    expect(valueOf(await scrape(), "tafsiri_upload_bytes_total", { kind: "resumable" })).toBe(before + wav.length);
  });

  it("follows WebSocket connections, subscriptions and live events up and back down", async () => {
    const base = await scrape();
    const connections = valueOf(base, "tafsiri_websocket_connections");
    const subscriptions = valueOf(base, "tafsiri_live_subscriptions");
    const published = valueOf(base, "tafsiri_live_events_published_total");
    const delivered = valueOf(base, "tafsiri_live_events_delivered_total");

    const live = liveClient(baseUrl, await h.token(staff));
    clients.push(live);
    await h.deps.events.idle();
    await live.subscribe();
    const open = await scrape();
    expect(valueOf(open, "tafsiri_websocket_connections")).toBe(connections + 1);
    expect(valueOf(open, "tafsiri_live_subscriptions")).toBe(subscriptions + 1);

    // Assigning an audio to the staff member tells them (a notification and the audio's change).
    const audio = await uploadAudio(h, await h.token(admin), {
      name: `metrics_live_${Date.now()}.wav`,
      content: await fixture("hello.wav"),
      type: "audio/wav",
    });
    await h.caller(admin).tasks.assign({ audioId: audio._id, staffId: staff.id });
    h.deps.events.poke();
    await waitUntil(() => live.events.length >= 1, "the staff member's live event");
    const after = await scrape();
    expect(valueOf(after, "tafsiri_live_events_published_total")).toBeGreaterThan(published);
    expect(valueOf(after, "tafsiri_live_events_delivered_total")).toBeGreaterThanOrEqual(
      delivered + live.events.length,
    );

    await live.close();
    let closed: PrometheusFamily[] = [];
    await waitUntilAsync(async () => {
      closed = await scrape();
      return valueOf(closed, "tafsiri_websocket_connections") === connections;
    }, "the connection gauge back down");
    expect(valueOf(closed, "tafsiri_live_subscriptions")).toBe(subscriptions);
  });

  it("counts a file sweep run by the real service", async () => {
    const labels = { job: "sweep", result: "ok" };
    const before = await scrape();
    await sweepFiles(h.deps);
    const after = await scrape();
    expect(growth(before, after, (f) => valueOf(f, "tafsiri_job_runs_total", labels))).toBe(1);
    expect(growth(before, after, (f) => countOf(f, "tafsiri_job_duration_seconds", labels))).toBe(1);
  });

  it("reports the database pool on PostgreSQL, and nothing of it on PGlite", async () => {
    await h.caller(staff).notifications.list({});
    const families = await scrape();
    const names = [
      "tafsiri_db_pool_in_use_connections",
      "tafsiri_db_pool_idle_connections",
      "tafsiri_db_pool_waiting_queries",
      "tafsiri_db_pool_max_connections",
    ];
    if (h.databaseUrl) {
      for (const name of names) expect(family(families, name)?.type, name).toBe("GAUGE");
      expect(valueOf(families, "tafsiri_db_pool_max_connections")).toBeGreaterThanOrEqual(10);
      expect(
        valueOf(families, "tafsiri_db_pool_in_use_connections") + valueOf(families, "tafsiri_db_pool_idle_connections"),
      ).toBeGreaterThanOrEqual(1);
      expect(valueOf(families, "tafsiri_db_pool_waiting_queries")).toBe(0);
    } else {
      for (const name of names) expect(family(families, name), name).toBeUndefined();
    }
  });

  it("carries no user data in any label", async () => {
    const families = await scrape();
    const values = families.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    for (const user of [admin, staff]) {
      for (const secret of [user.id, user.username, user.email]) expect(values).not.toContain(secret);
      expect(values.some((v) => v.includes(user.id) || v.includes(user.username))).toBe(false);
    }
    expect(values.some((v) => v.includes("metrics_") || v.includes("@"))).toBe(false);
  });

  it("is left out of the OpenAPI document", async () => {
    const doc = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json<{ paths: object }>();
    expect(Object.keys(doc.paths)).not.toContain("/metrics");
  });
});

describe("GET /metrics off or on a port of its own (decision 028)", () => {
  let listener: MetricsListener | null = null;
  afterAll(async () => {
    await listener?.close();
  });

  it("answers 404 without METRICS_TOKEN and METRICS_PORT, token or not, and is not in OpenAPI", async () => {
    const off = await appWith({});
    for (const headers of <Array<Record<string, string>>>[{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await off.inject({ method: "GET", url: "/metrics", headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toMatch(/tafsiri_|process_cpu/);
    }
    const doc = (await off.inject({ method: "GET", url: "/api/openapi.json" })).json<{ paths: object }>();
    expect(Object.keys(doc.paths)).not.toContain("/metrics");
  });

  it("with METRICS_PORT serves them there without a token, and 404 on the main port", async () => {
    const main = await appWith({ METRICS_PORT: 9464 });
    expect((await main.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
    const withToken = await appWith({ METRICS_PORT: 9464, METRICS_TOKEN: TOKEN });
    const res = await withToken.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);

    listener = await startMetricsListener({ port: 0, host: "127.0.0.1" });
    const portUrl = `http://127.0.0.1:${listener.port}`;
    const families = await scrape(`${portUrl}/metrics`, null);
    expect(family(families, "tafsiri_job_runs_total")?.type).toBe("COUNTER");
    expect((await fetch(`${portUrl}/api/audios`)).status).toBe(404);
    expect((await fetch(`${portUrl}/healthz`)).status).toBe(404);
  });

  it("on METRICS_PORT with METRICS_TOKEN set too, still asks for the token", async () => {
    const guarded = await startMetricsListener({ port: 0, host: "127.0.0.1", token: TOKEN });
    try {
      const url = `http://127.0.0.1:${guarded.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      await scrape(url, TOKEN);
    } finally {
      await guarded.close();
    }
  });

  it("a started server with METRICS_PORT serves them on that port only, and stops it with the server", async () => {
    const cleanups: Array<() => Promise<void>> = [];
    const metricsPort = await freePort();
    const server = await startServerProcess({
      ...(await serverDataPlace("tafsiri-metrics-", cleanups)),
      METRICS_PORT: String(metricsPort),
      WEB_DIST: "/nonexistent",
    });
    try {
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
      const families = await scrape(`http://127.0.0.1:${metricsPort}/metrics`, null);
      expect(
        countOf(families, "tafsiri_http_request_duration_seconds", { method: "GET", route: "/healthz", status: "200" }),
      ).toBeGreaterThanOrEqual(1);
      expect(family(families, "process_resident_memory_bytes")?.type).toBe("GAUGE");
    } finally {
      await stopServerProcess(server);
      for (const cleanup of cleanups.reverse()) await cleanup();
    }
    expect(server.child.exitCode).toBe(0);
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });

  it("refuses bad METRICS_TOKEN and METRICS_PORT settings at start with a clear message", () => {
    expect(() => loadSettings({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be at least 32 characters/);
    expect(() => loadSettings({ METRICS_PORT: "abc" })).toThrow(/METRICS_PORT must be a port number/);
    expect(() => loadSettings({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT must be a port number/);
    expect(() => loadSettings({ METRICS_PORT: "3000", PORT: "3000" })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(loadSettings({ METRICS_PORT: "9464", METRICS_TOKEN: TOKEN })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_TOKEN: TOKEN,
    });
  });
});

/** Polls an async check every 20 ms until it holds, failing after 5 s. */
async function waitUntilAsync(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
