import { promises as fs } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import WebSocket from "ws";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@tafsiri/db";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { withDatabase } from "@tafsiri/db/testing/template";
import { migrations } from "../../../migrations/index";
import { STOPPING } from "../src/routes/health";
import { SERVICE_RESTART_CLOSE_CODE } from "@tafsiri/domain";
import { SERVICE_RESTART_REASON } from "../src/live/service-restart";
import { fixture, multipart } from "./fixtures/app-harness";
import { startServerProcess, stopServerProcess, type ServerProcess } from "./fixtures/server-process";

/**
 * Decision 029 (upgrades without downtime), against the real server process. SIGTERM while a
 * client is subscribed over the WebSocket and an upload is streaming in slowly: for the notice
 * period /healthz answers 503 and requests are still served with `Connection: close`; then a new
 * connection is refused, the upload in flight still completes with 200 (closing its connection) and
 * its row and file are there, the socket is closed with 1012 "Service Restart" and its reason, a second SIGTERM starts no second shutdown, and the process exits 0 well within its grace
 * period. On PostgreSQL, two instances started at the same moment on one empty database both become
 * healthy and the migrations table holds each migration once (Kysely's migrator takes an advisory
 * lock: the second waits, then finds nothing to do).
 */

const template = inject("dbTemplate");
const onPostgres = template.kind === "postgres";
const GRACE_SECONDS = 10;
const NOTICE_SECONDS = 1;
const EMAIL = "shutdown-admin@example.test";
const PASSWORD = "Adm1n!strong";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A temp DATA_DIR removed after the file. */
async function dataDir(name: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `tafsiri-shutdown-${name}-`));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Signs in as the first admin; answers the session token. */
async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** A subscription to events.onEvent over a bare WebSocket speaking tRPC's protocol, as wsLink does. */
async function subscribe(baseUrl: string, token: string) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/trpc?connectionParams=1`);
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once("error", reject);
    ws.once("open", () => {
      ws.send(JSON.stringify({ method: "connectionParams", data: { token } }));
      ws.send(JSON.stringify({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } }));
    });
    ws.on("message", (data) => {
      const text = data.toString();
      if (text.includes('"started"')) resolve();
    });
  });
  return { ws, closed };
}

/**
 * POSTs a multipart upload of `content` to /api/audios/upload/AUDIO over its own keep-alive
 * connection, its body written in `pieces` pieces `pauseMs` apart, then GET /healthz pipelined on the
 * same connection (it reaches the server only once the upload has been answered); `sent(n)` resolves
 * once n pieces are on the wire. `answers` resolves with the statuses and bodies of both, in order.
 */
function slowUploadThenHealth(
  baseUrl: string,
  token: string,
  name: string,
  content: Buffer,
  pieces = 10,
  pauseMs = 150,
) {
  let piecesSent = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const answers = (async () => {
    const { body, contentType } = await multipart([
      ["category", "Control"],
      ["file", { name, content, type: "audio/wav" }],
    ]);
    const { port } = new URL(baseUrl);
    return new Promise<Array<{ status: number; text: string }>>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      let raw = "";
      socket.on("data", (chunk: Buffer) => (raw += chunk.toString("latin1")));
      socket.on("error", reject);
      socket.on("close", () => {
        const parts = raw.split(/(?=HTTP\/1\.1 \d{3})/).filter(Boolean);
        resolve(parts.map((text) => ({ status: Number(text.slice(9, 12)), text })));
      });
      socket.write(
        `POST /api/audios/upload/AUDIO HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
          `Authorization: Bearer ${token}\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      const size = Math.ceil(body.length / pieces);
      const writeNext = () => {
        socket.write(body.subarray(piecesSent * size, (piecesSent + 1) * size));
        piecesSent += 1;
        for (const w of waiters.filter((w) => w.n <= piecesSent)) w.resolve();
        if (piecesSent < pieces) setTimeout(writeNext, pauseMs);
        else socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      };
      writeNext();
    });
  })();
  return {
    answers,
    sent: (n: number) => new Promise<void>((resolve) => (piecesSent >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

/** Whether a new TCP connection to the server's port is accepted. */
function accepts(baseUrl: string): Promise<boolean> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** GET `path` on a new connection with `token`: its status, Connection header and body. */
function getOnNewConnection(
  baseUrl: string,
  path: string,
  token: string,
): Promise<{ status: number; connection: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${baseUrl}${path}`,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.once("end", () =>
          resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection), body }),
        );
      },
    );
    req.once("error", reject);
  });
}

/** GET /healthz on a new connection: its status, or "refused". */
function health(baseUrl: string): Promise<number | "refused"> {
  return new Promise((resolve) => {
    const req = http.get(`${baseUrl}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once("error", () => resolve("refused"));
  });
}

describe("SIGTERM: an instance stops without dropping what it has in hand (decision 029)", () => {
  it("gives notice on /healthz, then refuses new connections, finishes the upload in flight, closes sockets with 1012, exits 0", async () => {
    const dir = await dataDir("one");
    const env: Record<string, string> = {
      DATA_DIR: dir,
      JWT_SECRET: randomBytes(32).toString("hex"),
      ADMIN_EMAIL: EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      SHUTDOWN_NOTICE_SECONDS: String(NOTICE_SECONDS),
    };
    let databaseUrl: string | undefined;
    if (onPostgres) {
      const db = await createTestDb(template);
      cleanups.push(() => db.close());
      databaseUrl = db.url;
      env.DATABASE_URL = db.url ?? "";
    }
    const server = await startServerProcess(env);
    cleanups.push(() => stopServerProcess(server));
    const token = await signIn(server.baseUrl);
    const live = await subscribe(server.baseUrl, token);
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      server.child.once("exit", (code) => resolve({ code, at: Date.now() })),
    );

    const wav = await fixture("hello.wav");
    // 30 pieces 150 ms apart: still streaming in when the notice period ends and the drain starts.
    const upload = slowUploadThenHealth(server.baseUrl, token, "in-flight-at-shutdown.wav", wav, 30, 150);
    await upload.sent(3);
    const signalledAt = Date.now();
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The notice period: /healthz answers 503, so a proxy's health check takes the instance out of
    // rotation, while a request that still arrives is served, and its connection closed after it.
    const notice = await getOnNewConnection(server.baseUrl, "/healthz", token);
    expect(notice).toMatchObject({ status: 503, connection: "close" });
    expect(notice.body).toContain(STOPPING);
    expect(await getOnNewConnection(server.baseUrl, "/trpc/accounts.me", token)).toMatchObject({
      status: 200,
      connection: "close",
    });
    await new Promise((resolve) => setTimeout(resolve, signalledAt + NOTICE_SECONDS * 1000 + 300 - Date.now()));

    // Then: no new connection, so neither a proxy's health check nor a new request reaches it.
    expect(await accepts(server.baseUrl)).toBe(false);
    expect(await health(server.baseUrl)).toBe("refused");
    // The live socket is told to reconnect elsewhere, with 1012 and a reason, not 1005.
    const close = await live.closed;
    expect(close).toMatchObject({ code: SERVICE_RESTART_CLOSE_CODE, reason: SERVICE_RESTART_REASON });
    expect(close.at - signalledAt).toBeLessThan(NOTICE_SECONDS * 1000 + 2_000);
    // A second signal starts no second shutdown.
    server.child.kill("SIGTERM");

    // The upload, still streaming in when the signal came, completes, and its answer closes the
    // connection (the /healthz pipelined after it on that connection is never read: a proxy would
    // send it again on a new connection, to the other instance).
    const [answer, ...more] = await upload.answers;
    expect(answer?.status, answer?.text).toBe(200);
    expect(answer?.text).toContain('"filename":"in-flight-at-shutdown"');
    expect(answer?.text.toLowerCase()).toContain("connection: close");
    expect(more).toEqual([]);

    const exit = await exited;
    expect(exit.code, server.output()).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(GRACE_SECONDS * 1000);
    expect(server.output()).toContain("SIGTERM received while already stopping");
    expect(server.output().split("SIGTERM received: stopping").length - 1).toBe(1);
    expect(server.output()).not.toContain("dropping their connections");

    // Its row and its file are there (the process has let go of the database).
    const handle = await createDb(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dir, "db") });
    try {
      const row = await handle.db
        .selectFrom("audios")
        .select(["fileKey", "sizeBytes"])
        .where("filename", "=", "in-flight-at-shutdown")
        .executeTakeFirstOrThrow();
      expect(Number(row.sizeBytes)).toBe(wav.length);
      const stored = await fs.stat(path.join(dir, "files", row.fileKey));
      expect(stored.size).toBe(wav.length);
    } finally {
      await handle.close();
    }
  }, 120_000);
});

describe.skipIf(!onPostgres)("two instances starting together on one empty PostgreSQL database", () => {
  it("both become healthy and every migration ran once", async () => {
    if (template.kind !== "postgres") return;
    const name = `tafsiri_empty_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: template.serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const url = withDatabase(template.serverUrl, name);
    const shared = { DATABASE_URL: url, JWT_SECRET: randomBytes(32).toString("hex"), ADMIN_EMAIL: EMAIL };
    const start = async (which: string): Promise<ServerProcess> => {
      const server = await startServerProcess({ ...shared, DATA_DIR: await dataDir(which) });
      cleanups.push(() => stopServerProcess(server));
      return server;
    };
    const [a, b] = await Promise.all([start("a"), start("b")]);
    expect(await health(a.baseUrl)).toBe(200);
    expect(await health(b.baseUrl)).toBe(200);

    const check = new pg.Client({ connectionString: url });
    await check.connect();
    try {
      const { rows } = await check.query<{ name: string; times: string }>(
        "select name, count(*) as times from kysely_migration group by name order by name",
      );
      expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
      expect(rows.every((r) => Number(r.times) === 1)).toBe(true);
    } finally {
      await check.end();
    }
  }, 180_000);
});
