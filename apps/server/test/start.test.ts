import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { startServerProcess, stopServerProcess, type ServerProcess } from "./fixtures/server-process";
import { loadSettings } from "../src/settings";

const running: ServerProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

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

/** Starts the server with `env` (startServerProcess), stopped in afterAll if a test does not. */
async function start(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

function login(server: ServerProcess, email: string, password: string) {
  return fetch(`${server.baseUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
}

afterAll(async () => {
  await Promise.all(running.map(stopServerProcess));
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
    await stopServerProcess(server);
  }, 180_000);

  it("prints a generated admin password once when none is configured, and it works", async () => {
    const place = await dataPlace();
    const env = {
      DATA_DIR: place.dataDir,
      DATABASE_URL: place.databaseUrl,
      ADMIN_EMAIL: "first@example.test",
      ADMIN_USERNAME: "first",
    };
    const first = await start(env);
    const match = first.output().match(/First admin created: first@example\.test with password (\S+) \(shown once/);
    expect(match, first.output()).not.toBeNull();
    const password = match?.[1] ?? "";
    expect(first.output().split(password).length - 1).toBe(1);
    expect((await login(first, "first@example.test", password)).status).toBe(200);
    expect((await login(first, "first@example.test", "guess")).status).toBe(401);
    await stopServerProcess(first);

    // A restart on the same data neither creates another admin nor prints the password again.
    const second = await start(env);
    expect(second.output()).not.toContain("First admin created");
    expect(second.output()).not.toContain(password);
    expect((await login(second, "first@example.test", password)).status).toBe(200);
    await stopServerProcess(second);
  }, 240_000);
});

describe("the embedded database is one server's (ARCHITECTURE: PGlite is one process's database)", () => {
  // With PostgreSQL several instances share one database (decision 015): nothing to claim.
  it.skipIf(inject("dbTemplate").kind === "postgres")(
    "refuses a second server on the same DATA_DIR, saying which process has it; a killed server's claim does not block",
    async () => {
      const place = await dataPlace();
      const first = await start({ DATA_DIR: place.dataDir, ADMIN_PASSWORD: "Adm1n!strong" });
      const pid = first.child.pid!;
      await expect(fs.readFile(path.join(place.dataDir, "server.pid"), "utf8")).resolves.toBe(`${pid}\n`);
      const second = await startServerProcess({ DATA_DIR: place.dataDir }).then(
        (server) => {
          running.push(server);
          return "started";
        },
        (error: Error) => error.message,
      );
      expect(second).toContain(
        `Another Tafsiri server (process ${pid}) has the embedded database in ${place.dataDir} open.`,
      );
      // The first still serves.
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
      // Killed without a chance to clean up: its claim names a process that is gone, and a new server starts.
      first.child.kill("SIGKILL");
      await new Promise((resolve) => first.child.once("exit", resolve));
      const next = await start({ DATA_DIR: place.dataDir });
      expect((await fetch(`${next.baseUrl}/healthz`)).status).toBe(200);
      await stopServerProcess(next);
      // A clean stop gives the claim up.
      await expect(fs.access(path.join(place.dataDir, "server.pid"))).rejects.toThrow();
    },
  );
});

describe("settings", () => {
  it("keeps live events 30 days unless EVENT_RETENTION_DAYS says otherwise, and refuses a value that is not a positive whole number", () => {
    expect(loadSettings({}).EVENT_RETENTION_DAYS).toBe(30);
    expect(loadSettings({ EVENT_RETENTION_DAYS: "7" }).EVENT_RETENTION_DAYS).toBe(7);
    for (const bad of ["0", "-1", "1.5", "forever"])
      expect(() => loadSettings({ EVENT_RETENTION_DAYS: bad }), bad).toThrow(/EVENT_RETENTION_DAYS/);
  });

  it("names the programme on the welcome banner from PROGRAMME_NAME (trimmed, 1 to 100 characters), none by default", () => {
    expect(loadSettings({}).PROGRAMME_NAME).toBeUndefined();
    expect(loadSettings({ PROGRAMME_NAME: "  Memory Voices Study " }).PROGRAMME_NAME).toBe("Memory Voices Study");
    for (const bad of ["   ", "x".repeat(101)])
      expect(() => loadSettings({ PROGRAMME_NAME: bad }), bad).toThrow(/PROGRAMME_NAME/);
  });

  it("gives the embedded PGlite a 32MB buffer cache unless PGLITE_SHARED_BUFFERS says otherwise, from 1MB to 1GB", () => {
    expect(loadSettings({}).PGLITE_SHARED_BUFFERS).toBe("32MB");
    for (const good of ["16MB", "1MB", "1024kB", "128MB", "1GB"])
      expect(loadSettings({ PGLITE_SHARED_BUFFERS: good }).PGLITE_SHARED_BUFFERS, good).toBe(good);
    for (const bad of ["16", "16mb", "16 MB", "512kB", "2GB", "1.5GB", "-16MB", "lots"])
      expect(() => loadSettings({ PGLITE_SHARED_BUFFERS: bad }), bad).toThrow(/PGLITE_SHARED_BUFFERS/);
  });

  it("opens at most 10 PostgreSQL connections for requests unless DATABASE_POOL_SIZE says otherwise, from 1 to 200", () => {
    expect(loadSettings({}).DATABASE_POOL_SIZE).toBe(10);
    for (const good of ["1", "4", "200"])
      expect(loadSettings({ DATABASE_POOL_SIZE: good }).DATABASE_POOL_SIZE).toBe(Number(good));
    for (const bad of ["0", "-1", "2.5", "201", "many"])
      expect(() => loadSettings({ DATABASE_POOL_SIZE: bad }), bad).toThrow(
        /DATABASE_POOL_SIZE must be a whole number from 1 to 200/,
      );
  });
});
