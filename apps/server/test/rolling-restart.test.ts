import { createHash, randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { s3Settings, startTestS3Server } from "@tafsiri/api/testing/s3-server";
import { wavFile } from "@tafsiri/api/testing/wav";
import { CADDY_MISSING, caddyVersion, startCaddy, type CaddyProcess } from "./fixtures/caddy";
import { emptyDatabase } from "./fixtures/empty-database";
import { fixture } from "./fixtures/app-harness";
import { liveClient, waitUntil, type LiveClient } from "./fixtures/live-client";
import { freePort, startServerProcess, stopServerProcess, type ServerProcess } from "./fixtures/server-process";

/**
 * Decision 029 (upgrades without downtime) over decision 015 (several instances), end to end: two
 * real server processes on one fresh PostgreSQL database and one S3 bucket, behind Caddy running
 * the project's own deploy/Caddyfile. While 200 live subscribers (admins and staff, many sockets
 * each) listen, staff and admins keep adding comments (each with a unique marker) and resumable
 * uploads (tus) go on chunk by chunk, the instances are restarted one after the other (SIGTERM,
 * exit, start again on the same port, wait until Caddy sends it requests again). Then: every
 * subscriber got every event meant for it exactly once, every write answered 2xx is in the
 * database once, every upload finished with the right bytes, and nothing failed that a client
 * did not retry (a write the proxy answered 502/503 is retried once, after checking that it did
 * not land: what the web app's held mutations do).
 */

const template = inject("dbTemplate");
const onPostgres = template.kind === "postgres";
const caddy = caddyVersion();
const requireCaddy = process.env.REQUIRE_CADDY === "1";
if (!onPostgres) {
  console.info(
    "rolling-restart.test.ts: needs PostgreSQL (two processes cannot share the embedded PGlite database); set DATABASE_URL or TEST_DATABASE_URL to run it.",
  );
} else if (!caddy) {
  console.warn(
    requireCaddy
      ? `\n!!! rolling-restart.test.ts FAILS (REQUIRE_CADDY=1): ${CADDY_MISSING}\n`
      : `\n!!! rolling-restart.test.ts SKIPPED: ${CADDY_MISSING} (REQUIRE_CADDY=1 makes this a failure)\n`,
  );
}

const ADMIN_EMAIL = "rolling-admin@example.test";
const PASSWORD = "R0lling!strong";
const ADMINS = 4;
const STAFF = 5;
const SOCKETS_PER_ADMIN = 25;
const SOCKETS_PER_STAFF = 20;
const UPLOADERS = 3;
const UPLOAD_BYTES = 640 * 1024;
const CHUNK_BYTES = 64 * 1024;
/** Writes each writer makes between two steps of the restart (progress, waited for). */
const WRITES_PER_STEP = 10;
/** How long the test client waits before its one retry of a write that got no answer from an instance. */
const WRITE_RETRY_DELAY_MS = 1500;
/** tus-js-client's default retryDelays: how long a tus client waits before each new try of a failed request. */
const TUS_RETRY_DELAYS_MS = [0, 1000, 3000, 5000];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 60_000);

describe.runIf(requireCaddy && !caddy)("rolling restart: caddy is required here (REQUIRE_CADDY=1)", () => {
  it("finds caddy", () => {
    throw new Error(CADDY_MISSING);
  });
});

/** A user of the test: id, role and session token. */
interface Person {
  id: string;
  email: string;
  admin: boolean;
  token: string;
}

/** An answer, or the network error the request ended with. */
type Outcome = { status: number; headers: Headers; text: string } | { status: "error"; text: string };

async function send(url: string, init: RequestInit): Promise<Outcome> {
  try {
    const res = await fetch(url, init);
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (error) {
    return { status: "error", text: String((error as Error).cause ?? error) };
  }
}

/** Whether a client would retry: the proxy could not get an answer (502/503/504) or the connection failed. */
const unanswered = (o: Outcome) => o.status === "error" || o.status === 502 || o.status === 503 || o.status === 504;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Polls the async `check` every 100 ms until it is true; throws `what` after `timeoutMs`. */
async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!onPostgres || !caddy)("a rolling restart behind Caddy (decisions 015, 029)", () => {
  it("loses no event, no answered write and no upload while both instances restart one after the other", async () => {
    if (template.kind !== "postgres") return;
    const s3 = await startTestS3Server();
    cleanups.push(() => s3.close());
    const databaseUrl = await emptyDatabase(template.serverUrl, cleanups, "tafsiri_rolling");
    const check = new pg.Client({ connectionString: databaseUrl });

    const [port1, port2, metrics1, metrics2, proxyPort, adminPort] = await Promise.all(
      Array.from({ length: 6 }, () => freePort()),
    );
    const ports = [port1!, port2!];
    const metricsPorts = [metrics1!, metrics2!];
    const dataDirs = await Promise.all(
      ["a", "b"].map(async (name) => {
        const dir = await fs.mkdtemp(path.join(os.tmpdir(), `tafsiri-rolling-${name}-`));
        cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
        return dir;
      }),
    );
    const shared = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString("hex"),
      ADMIN_EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      SHUTDOWN_GRACE_SECONDS: "20",
      // The default notice: /healthz answers 503 for 2 s before the listener closes, so Caddy's
      // health check (every second) turns away first and no write meets a closed connection.
      SHUTDOWN_NOTICE_SECONDS: "2",
      // One test client stands for many people behind one address: the flood limits are not under test here.
      RATE_LIMIT_PER_USER: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
      LOGIN_RATE_LIMIT: "1000",
      ...s3Settings(s3),
    };
    const envOf = (i: number) => ({
      ...shared,
      PORT: String(ports[i]),
      METRICS_PORT: String(metricsPorts[i]),
      DATA_DIR: dataDirs[i],
    });
    const instances: ServerProcess[] = [];
    const retired: ServerProcess[] = [];
    const clients: LiveClient[] = [];
    let proxy: CaddyProcess | null = null;
    cleanups.push(async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await Promise.all(instances.map(stopServerProcess));
      await proxy?.stop();
      await check.end().catch(() => undefined);
    });
    // Both migrate the empty database at once (Kysely's advisory lock: decision 029).
    instances.push(...(await Promise.all([0, 1].map((i) => startServerProcess(envOf(i))))));
    await check.connect();
    proxy = await startCaddy({
      port: proxyPort!,
      adminPort: adminPort!,
      upstreams: ports.map((p) => `127.0.0.1:${p}`),
    });
    const caddyProxy = proxy;
    const base = caddyProxy.baseUrl;
    const logs = () => [...retired, ...instances].map((s) => s.output()).join("\n") + caddyProxy.output();

    /** GET /healthz answered 200 by instance `i`'s current process, from its metrics (decision 028). */
    const healthChecksAnswered = async (i: number): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPorts[i]}/metrics`)).text();
      const line = text
        .split("\n")
        .find(
          (l) =>
            l.startsWith("tafsiri_http_request_duration_seconds_count{") &&
            l.includes('route="/healthz"') &&
            l.includes('status="200"') &&
            l.includes('method="GET"'),
        );
      return line ? Number(line.split(" ").pop()) : 0;
    };
    /**
     * Caddy sends instance `i` requests again: its active check got a 200 from the current process
     * (startServerProcess's own check is the first 200 it counts) and no passive failure is held against it.
     */
    const proxiedAgain = (i: number) =>
      waitFor(
        async () => {
          const upstream = (await caddyProxy.upstreams()).find((u) => u.address === `127.0.0.1:${ports[i]}`);
          return upstream?.fails === 0 && (await healthChecksAnswered(i)) >= 2;
        },
        `Caddy to take instance ${i + 1} back`,
        60_000,
      );
    await Promise.all([proxiedAgain(0), proxiedAgain(1)]);

    // People, all through the proxy: the first admin registers three more admins and five staff.
    const json = (token: string | null, body: unknown): RequestInit => ({
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const signIn = async (email: string): Promise<Person> => {
      const res = await send(`${base}/auth/login`, json(null, { email, password: PASSWORD }));
      expect(res.status, res.text).toBe(200);
      const { token, user } = JSON.parse(res.text) as { token: string; user: { _id: string; role: string } };
      return { id: user._id, email, admin: user.role === "Admin", token };
    };
    const first = await signIn(ADMIN_EMAIL);
    const register = async (name: string, role: "Admin" | "Staff") => {
      const email = `${name}@example.test`;
      const res = await send(
        `${base}/trpc/accounts.register`,
        json(first.token, { username: name, email, password: PASSWORD, role, adminPassword: PASSWORD }),
      );
      expect(res.status, res.text).toBe(200);
      return signIn(email);
    };
    const admins = [first];
    for (let i = 1; i < ADMINS; i++) admins.push(await register(`rolling-admin-${i}`, "Admin"));
    const staff: Person[] = [];
    for (let i = 0; i < STAFF; i++) staff.push(await register(`rolling-staff-${i}`, "Staff"));

    // One audio per staff member, assigned to them: the comments of the writes go on these.
    const wav = await fixture("hello.wav");
    const audioOf = new Map<string, string>();
    for (const [i, person] of staff.entries()) {
      const form = new FormData();
      form.append("category", "Control");
      form.append("file", new Blob([wav], { type: "audio/wav" }), `rolling-${i}.wav`);
      const up = await send(`${base}/api/audios/upload/AUDIO`, {
        method: "POST",
        headers: { authorization: `Bearer ${first.token}` },
        body: form,
      });
      expect(up.status, up.text).toBe(200);
      const audioId = (JSON.parse(up.text) as { _id: string })._id;
      const task = await send(
        `${base}/api/createtask`,
        json(first.token, { audio_id: audioId, assigned_to: person.id }),
      );
      expect(task.status, task.text).toBe(200);
      audioOf.set(person.id, audioId);
    }

    // 200 live subscribers through the proxy, each on its own socket: 100 for the admins, 100 for the staff.
    const owners = new Map<LiveClient, Person>();
    const audience = [
      ...admins.flatMap((p) => Array<Person>(SOCKETS_PER_ADMIN).fill(p)),
      ...staff.flatMap((p) => Array<Person>(SOCKETS_PER_STAFF).fill(p)),
    ];
    expect(audience).toHaveLength(200);
    for (let i = 0; i < audience.length; i += 20) {
      await Promise.all(
        audience.slice(i, i + 20).map(async (person) => {
          const client = liveClient(base, person.token);
          clients.push(client);
          owners.set(client, person);
          await client.subscribe();
        }),
      );
    }
    // Every event after this one must reach each subscriber it is meant for exactly once.
    const baseline = BigInt(
      (await check.query<{ max: string }>("select coalesce(max(id), 0)::text as max from events")).rows[0]!.max,
    );

    // The work that goes on throughout.
    let running = true;
    const answered: string[] = [];
    const failures: string[] = [];
    let writeRetries = 0;
    let writesLandedUnanswered = 0;
    let chunkResumes = 0;
    let writes = 0;
    const commentCount = async (marker: string) =>
      Number(
        (await check.query<{ n: string }>("select count(*)::text as n from comments where text = $1", [marker]))
          .rows[0]!.n,
      );
    /** One comment with a unique marker; a 502/503/504 or a lost connection: checked, then sent once more. */
    const comment = async (author: Person, audioId: string, marker: string) => {
      const attempt = () => send(`${base}/trpc/comments.add`, json(author.token, { audioId, text: marker }));
      let res = await attempt();
      if (unanswered(res)) {
        if ((await commentCount(marker)) > 0) {
          writesLandedUnanswered += 1;
          answered.push(marker);
          return;
        }
        writeRetries += 1;
        // The user's second click: by then Caddy's active check (every 1 s) has taken a stopped instance out.
        await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_DELAY_MS));
        res = await attempt();
      }
      if (res.status === 200) answered.push(marker);
      else failures.push(`comment ${marker}: ${res.status} ${res.text.slice(0, 200)}`);
    };
    const writer = async (name: string, author: Person, audioIds: string[]) => {
      for (let n = 0; running; n++) {
        await comment(author, audioIds[n % audioIds.length]!, `rolling ${name} #${n}`);
        writes += 1;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    };

    interface Finished {
      filename: string;
      audioId: string;
      bytes: Buffer;
    }
    const uploads: Finished[] = [];
    const tus = { "tus-resumable": "1.0.0" };
    const b64 = (v: string) => Buffer.from(v).toString("base64");
    /** A tus upload as a tus client makes it: create, PATCH chunk by chunk (HEAD after a failed one), finish. */
    const resumableUpload = async (who: Person, filename: string, bytes: Buffer) => {
      const auth = { ...tus, authorization: `Bearer ${who.token}` };
      let created: Outcome | null = null;
      // A create that got no answer leaves at most an unused upload behind (nothing is stored before `finish`).
      for (
        let attempt = 0;
        attempt <= TUS_RETRY_DELAYS_MS.length && (created === null || unanswered(created));
        attempt++
      ) {
        if (attempt > 0) {
          chunkResumes += 1;
          await new Promise((resolve) => setTimeout(resolve, TUS_RETRY_DELAYS_MS[attempt - 1]));
        }
        created = await send(`${base}/api/uploads`, {
          method: "POST",
          headers: {
            ...auth,
            "upload-length": String(bytes.length),
            "upload-metadata": `kind ${b64("AUDIO")},filename ${b64(filename)},category ${b64("Control")}`,
          },
        });
      }
      if (created?.status !== 201 || !("headers" in created)) {
        failures.push(`upload ${filename} create: ${created?.status} ${created?.text.slice(0, 200)}`);
        return;
      }
      const url = base + new URL(created.headers.get("location")!, base).pathname;
      let offset = 0;
      let stuck = 0;
      while (offset < bytes.length) {
        const res = await send(url, {
          method: "PATCH",
          headers: { ...auth, "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
          body: bytes.subarray(offset, offset + CHUNK_BYTES),
        });
        if (res.status === 204 && "headers" in res) {
          offset = Number(res.headers.get("upload-offset"));
          stuck = 0;
          continue;
        }
        // Where to go on from: HEAD, as the tus client does after a failed PATCH (after its retry delays).
        chunkResumes += 1;
        if ((stuck += 1) > TUS_RETRY_DELAYS_MS.length) {
          failures.push(`upload ${filename}: PATCH at ${offset} kept failing: ${res.status} ${res.text.slice(0, 200)}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, TUS_RETRY_DELAYS_MS[stuck - 1]));
        const head = await send(url, { method: "HEAD", headers: auth });
        if (head.status === 200 && "headers" in head) offset = Number(head.headers.get("upload-offset"));
      }
      // `finish` answers a repeat with the same answer (decision 020): safe to send again.
      let done: Outcome | null = null;
      for (let attempt = 0; attempt <= TUS_RETRY_DELAYS_MS.length && (done === null || unanswered(done)); attempt++) {
        if (attempt > 0) {
          chunkResumes += 1;
          await new Promise((resolve) => setTimeout(resolve, TUS_RETRY_DELAYS_MS[attempt - 1]));
        }
        done = await send(`${url}/finish`, { method: "POST", headers: { authorization: `Bearer ${who.token}` } });
      }
      if (done?.status !== 200) {
        failures.push(`upload ${filename} finish: ${done?.status} ${done?.text.slice(0, 200)}`);
        return;
      }
      uploads.push({
        filename: filename.replace(/\.wav$/, ""),
        audioId: (JSON.parse(done.text) as { _id: string })._id,
        bytes,
      });
    };
    const uploader = async (u: number) => {
      for (let n = 0; running; n++) {
        const bytes = wavFile(UPLOAD_BYTES, (i) => i * (u + 3) + n * 11 + (i >> 10));
        await resumableUpload(admins[u % admins.length]!, `rolling-upload-${u}-${n}.wav`, bytes);
      }
    };

    const work = [
      ...staff.map((p, i) => writer(`staff ${i}`, p, [audioOf.get(p.id)!])),
      ...admins.slice(0, 2).map((p, i) => writer(`admin ${i}`, p, [...audioOf.values()])),
      ...Array.from({ length: UPLOADERS }, (_, u) => uploader(u)),
    ];
    const writers = STAFF + 2;
    /** Writes every process's output (both instances, old and new, and Caddy) to a file; answers its path. */
    const keepLogs = async () => {
      const file = path.join(os.tmpdir(), `tafsiri-rolling-restart-${Date.now()}.log`);
      await fs.writeFile(file, logs());
      return `the servers' and Caddy's output: ${file}`;
    };
    const progress = async (what: string) => {
      const target = writes + WRITES_PER_STEP * writers;
      await waitUntil(() => writes >= target || failures.length > 0, what, 120_000);
      if (failures.length > 0) expect(failures, await keepLogs()).toEqual([]);
    };

    const exitCodes: Array<number | null> = [];
    try {
      // Every subscriber has heard something (so a resubscription carries its last event id), then restart.
      await waitUntil(
        () => clients.every((c) => c.events.length > 0) || failures.length > 0,
        "every subscriber's first event",
        120_000,
      );
      await progress("writes before the first restart");
      for (const i of [0, 1]) {
        const old = instances[i]!;
        const exited = new Promise<number | null>((resolve) => old.child.once("exit", (code) => resolve(code)));
        old.child.kill("SIGTERM");
        exitCodes.push(await exited);
        retired.push(old);
        instances[i] = await startServerProcess(envOf(i));
        await proxiedAgain(i);
        await progress(`writes after restarting instance ${i + 1}`);
      }
    } finally {
      running = false;
      await Promise.all(work);
    }

    // Each stopped cleanly (exit 0: within its grace period, every step done), and nothing failed.
    if (exitCodes.some((code) => code !== 0) || failures.length > 0) {
      const where = await keepLogs();
      expect(exitCodes, where).toEqual([0, 0]);
      expect(failures, where).toEqual([]);
    }

    // Every answered write is in the database, once.
    const { rows: stored } = await check.query<{ text: string; n: string }>(
      "select text, count(*)::text as n from comments where text like 'rolling %' group by text",
    );
    const storedCount = new Map(stored.map((r) => [r.text, Number(r.n)]));
    expect(answered.filter((m) => storedCount.get(m) !== 1)).toEqual([]);
    expect(stored.filter((r) => Number(r.n) !== 1)).toEqual([]);

    // Every upload finished with its bytes, served back through the proxy from the bucket.
    expect(uploads.length).toBeGreaterThanOrEqual(UPLOADERS);
    for (const upload of uploads) {
      const detail = await send(`${base}/api/audios/${upload.audioId}`, {
        headers: { authorization: `Bearer ${first.token}` },
      });
      expect(detail.status, detail.text).toBe(200);
      const { audioUrl, filename } = JSON.parse(detail.text) as { audioUrl: string; filename: string };
      expect(filename).toBe(upload.filename);
      const file = await fetch(`${base}${audioUrl}`);
      expect(file.status).toBe(200);
      expect(sha256(Buffer.from(await file.arrayBuffer()))).toBe(sha256(upload.bytes));
    }

    // Every event after the baseline reached each subscriber meant for it, once, in order.
    const { rows: events } = await check.query<{
      id: string;
      audience: string;
      recipient_id: string | null;
      kind: string;
    }>(
      "select id::text, audience, recipient_id, kind from events where id > $1 and kind <> 'session.renewed' order by events.id",
      [String(baseline)],
    );
    const expectedFor = (person: Person) =>
      events.filter((e) => e.recipient_id === person.id || (person.admin && e.audience === "admins")).map((e) => e.id);
    const receivedBy = (client: LiveClient) => client.events.map((e) => e.id).filter((id) => BigInt(id) > baseline);
    await waitUntil(
      () => clients.every((c) => receivedBy(c).length >= expectedFor(owners.get(c)!).length),
      "every subscriber to catch up",
      60_000,
    ).catch(() => undefined); // the comparison below says what is missing
    const wrong = clients.flatMap((client, index) => {
      const expected = expectedFor(owners.get(client)!);
      const received = receivedBy(client);
      if (received.join() === expected.join()) return [];
      const missing = expected.filter((id) => !received.includes(id));
      const duplicates = received.filter((id, at) => received.indexOf(id) !== at);
      const extra = received.filter((id) => !expected.includes(id));
      const at = received.findIndex((id, i) => id !== expected[i]);
      const order =
        at < 0 ? [] : [expected.slice(Math.max(0, at - 2), at + 4), received.slice(Math.max(0, at - 2), at + 4)];
      return [{ subscriber: index, expected: expected.length, missing: missing.slice(0, 5), duplicates, extra, order }];
    });
    expect(wrong).toEqual([]);
    expect(clients.flatMap((c) => c.errors)).toEqual([]);
    // Every socket was told to reconnect (1012) at least once: the restarts really went through them.
    expect(clients.filter((c) => !c.closeCodes.includes(1012)).length).toBe(0);
    expect(events.length).toBeGreaterThan(0);

    console.info(
      `rolling-restart.test.ts: ${answered.length} comments answered (${writeRetries} retried once after a 502/503/504 or a lost connection, ${writesLandedUnanswered} found stored after one), ` +
        `${uploads.length} resumable uploads finished (${chunkResumes} requests resumed or repeated), ` +
        `${events.length} events delivered to ${clients.length} subscribers (${clients.reduce((n, c) => n + c.closeCodes.length, 0)} socket closes) across two restarts`,
    );
  }, 300_000);
});
