import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createTestDb } from "@tafsiri/db/testing/test-db";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const SERVER = path.join(ROOT, "apps/server/src/server.ts");

/** A running `tsx apps/server/src/server.ts` child and everything it printed so far. */
interface Server {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

const running: Server[] = [];
const cleanups: Array<() => Promise<void>> = [];

/** A TCP port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Where a started server keeps its data: a temp DATA_DIR and, when this run tests on PostgreSQL,
 * a fresh database cloned from the run's template (DATABASE_URL for the child).
 */
async function dataPlace(): Promise<{ dataDir: string; databaseUrl?: string }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-start-"));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const template = inject("dbTemplate");
  if (template.kind !== "postgres") return { dataDir };
  const db = await createTestDb(template);
  // The child migrates and uses it; this process only drops it at the end.
  cleanups.push(() => db.close());
  return { dataDir, databaseUrl: db.url };
}

/** Spawns the server with `env` and waits until GET /healthz answers 200 (or the child dies). */
async function start(env: Record<string, string | undefined>): Promise<Server> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", ...env };
  for (const name of ["DATABASE_URL", "JWT_SECRET", "ADMIN_PASSWORD"]) {
    if (env[name] === undefined) delete childEnv[name];
  }
  const child = spawn(TSX, [SERVER], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const server: Server = { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output };
  running.push(server);

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${server.baseUrl}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) return server;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not become healthy:\n${output}`);
}

/** Ends a started server (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
async function stop(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

function login(server: Server, email: string, password: string) {
  return fetch(`${server.baseUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
}

afterAll(async () => {
  await Promise.all(running.map(stop));
  for (const cleanup of cleanups) await cleanup();
});

describe("npm start (tsx apps/server/src/server.ts)", () => {
  it("creates the configured first admin, who can sign in", async () => {
    const place = await dataPlace();
    const server = await start({
      DATA_DIR: place.dataDir,
      DATABASE_URL: place.databaseUrl,
      ADMIN_EMAIL: "boss@example.test",
      ADMIN_USERNAME: "boss",
      ADMIN_PASSWORD: "Adm1n!strong",
    });
    const res = await login(server, "boss@example.test", "Adm1n!strong");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; user: { username: string; role: string } };
    expect(body).toMatchObject({ status: "success", user: { username: "boss", role: "Admin" } });
    expect(server.output()).toContain("First admin created: boss@example.test.");
    expect(server.output()).not.toContain("Adm1n!strong");
    await stop(server);
  }, 180_000);

  it("prints a generated admin password once when none is configured, and it works", async () => {
    const place = await dataPlace();
    const env = { DATA_DIR: place.dataDir, DATABASE_URL: place.databaseUrl, ADMIN_EMAIL: "first@example.test", ADMIN_USERNAME: "first" };
    const first = await start(env);
    const match = first.output().match(/First admin created: first@example\.test with password (\S+) \(shown once/);
    expect(match, first.output()).not.toBeNull();
    const password = match?.[1] ?? "";
    expect(first.output().split(password).length - 1).toBe(1);
    expect((await login(first, "first@example.test", password)).status).toBe(200);
    expect((await login(first, "first@example.test", "guess")).status).toBe(401);
    await stop(first);

    // A restart on the same data neither creates another admin nor prints the password again.
    const second = await start(env);
    expect(second.output()).not.toContain("First admin created");
    expect(second.output()).not.toContain(password);
    expect((await login(second, "first@example.test", password)).status).toBe(200);
    await stop(second);
  }, 240_000);
});
