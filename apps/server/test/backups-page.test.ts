import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { openBackupDesk, type AppDeps } from "@tafsiri/api";
import { createUser, signToken } from "@tafsiri/api/testing/services";
import { wavFile } from "@tafsiri/api/testing/wav";
import type { DbHandle } from "@tafsiri/db";
import { openJobLocks } from "@tafsiri/db/repositories/job-locks";
import { buildApp } from "../src/app";
import { bootstrap } from "../src/bootstrap";
import { loadSettings } from "../src/settings";
import { multipart } from "./fixtures/app-harness";
import { serverDataPlace, startServerProcess, stopServerProcess } from "./fixtures/server-process";

/**
 * Decision 027, docs/operations.md "Backups and restore": the Backups page's procedures over their
 * REST paths, on a real server (bootstrap + buildApp, the desk opened as server.ts opens it) on
 * PGlite or, with DATABASE_URL, PostgreSQL. 'Back up now' answers at once while the server keeps
 * serving; the list shows the archive with who took it and its manifest's summary; the download
 * link streams the archive (a valid ZIP whose manifest counts the rows), audited; delete removes it;
 * staff are refused, names that are not archives' refused, calls without a token 401. And
 * `npm run backup` beside a running embedded server: refused without a token (saying how to make
 * one), with an admin's API token it has that server take the backup and downloads it.
 */

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface World {
  deps: AppDeps;
  handle: DbHandle;
  app: FastifyInstance;
  dataDir: string;
  adminToken: string;
  staffToken: string;
}

let w: World;

beforeAll(async () => {
  const place = await serverDataPlace("tafsiri-backups-page-", cleanups);
  const env: Record<string, string> = { DATA_DIR: place.DATA_DIR, ADMIN_PASSWORD: "Adm1n-backups-pass" };
  if (place.DATABASE_URL) env.DATABASE_URL = place.DATABASE_URL;
  const settings = loadSettings(env);
  const { deps, handle } = await bootstrap(settings, () => undefined);
  const app = await buildApp({ deps, settings, logger: process.env.TEST_SERVER_LOG === "1" });
  await app.ready();
  const locks = openJobLocks({ db: deps.db, databaseUrl: settings.DATABASE_URL });
  deps.backups = openBackupDesk({
    ...deps,
    databaseUrl: settings.DATABASE_URL,
    pglite: handle.pglite,
    locks,
    dir: path.join(settings.DATA_DIR, "backups"),
    scheduled: false,
  });
  cleanups.push(async () => {
    await deps.backups?.stop();
    await locks.close();
    await app.close();
    await deps.events.close();
    await deps.storage.close();
    await handle.close();
  });
  const admin = await deps.db.selectFrom("users").select(["id", "role"]).executeTakeFirstOrThrow();
  const staff = await createUser(deps.db, {
    username: "staff1",
    email: "staff1@example.test",
    password: "Passw0rd!",
    role: "Staff",
  });
  w = {
    deps,
    handle,
    app,
    dataDir: place.DATA_DIR,
    adminToken: await signToken(deps.jwtSecret, { id: admin.id, role: admin.role, sessionVersion: 1 }),
    staffToken: await signToken(deps.jwtSecret, { id: staff.id, role: "Staff", sessionVersion: 1 }),
  };
  for (let i = 0; i < 2; i++) {
    const { body, contentType } = await multipart([
      ["category", "Control"],
      ["file", { name: `page_${i}_${randomBytes(3).toString("hex")}.wav`, content: wavFile(3000, (j) => j * (i + 1)) }],
    ]);
    const res = await app.inject({
      method: "POST",
      url: "/api/audios/upload/AUDIO",
      headers: { authorization: `Bearer ${w.adminToken}`, "content-type": contentType },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 120_000);

function call(method: "GET" | "POST" | "DELETE", url: string, token: string | null) {
  return w.app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

interface Listing {
  folder: string;
  archives: Array<{
    name: string;
    sizeBytes: number;
    by: string | null;
    summary: { rows: number; files: number; databaseKind: string } | null;
  }>;
  running: { name: string } | null;
}

/** Reads `manifest.json` of a ZIP held in memory. */
async function manifestOf(
  zipBytes: Buffer,
): Promise<{ database: { tables: Record<string, number> }; files: unknown[] }> {
  const zip = await yauzl.fromBufferPromise(zipBytes, { lazyEntries: true });
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName !== "manifest.json") continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as never;
  }
  throw new Error("no manifest.json in the archive");
}

describe("the Backups page (decision 027)", () => {
  let name = "";

  it("'Back up now' answers 202 at once and the server serves meanwhile; the list then shows the archive", async () => {
    const started = await call("POST", "/api/backups", w.adminToken);
    expect(started.statusCode, started.body).toBe(202);
    name = started.json<{ name: string }>().name;
    expect(name).toMatch(/^tafsiri-backup-.*\.zip$/);
    // Served while the backup is written (PGlite: the server itself dumps its database).
    const during = await call("GET", "/api/backups", w.adminToken);
    expect(during.statusCode, during.body).toBe(200);
    await w.deps.backups!.idle();
    const list = await call("GET", "/api/backups", w.adminToken);
    expect(list.statusCode, list.body).toBe(200);
    const listing = list.json<Listing>();
    expect(listing.running).toBeNull();
    expect(listing.folder).toBe(path.join(w.dataDir, "backups"));
    const archive = listing.archives.find((a) => a.name === name);
    expect(archive).toMatchObject({ by: "admin", summary: { files: 2 } });
    expect(archive!.summary!.rows).toBeGreaterThan(3);
    expect(archive!.summary!.databaseKind).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
    const stat = await fs.stat(path.join(w.dataDir, "backups", name));
    expect(archive!.sizeBytes).toBe(stat.size);
  }, 120_000);

  it("a second 'Back up now' while one is written answers 409", async () => {
    const first = await call("POST", "/api/backups", w.adminToken);
    expect(first.statusCode, first.body).toBe(202);
    const second = await call("POST", "/api/backups", w.adminToken);
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json()).toMatchObject({ message: "A backup is being written already; wait for it to finish." });
    await w.deps.backups!.idle();
    const extra = first.json<{ name: string }>().name;
    expect((await call("DELETE", `/api/backups/${extra}`, w.adminToken)).statusCode).toBe(200);
  }, 120_000);

  it("the download link streams the archive (its manifest holds the rows), audited; the link works only as signed", async () => {
    const link = await call("GET", `/api/backups/${name}/download`, w.adminToken);
    expect(link.statusCode, link.body).toBe(200);
    const { url } = link.json<{ url: string }>();
    const res = await w.app.inject({ method: "GET", url });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toContain(name);
    const manifest = await manifestOf(res.rawPayload);
    expect(manifest.database.tables.audios).toBe(2);
    expect(manifest.files).toHaveLength(2);
    const audit = await w.deps.db
      .selectFrom("auditLog")
      .select(["action", "actorId"])
      .where("entity", "=", "archive")
      .where("entityId", "=", name)
      .where("action", "=", "download")
      .execute();
    expect(audit).toHaveLength(1);
    // A forged signature, another admin id or a name swapped in: 403.
    expect(
      (await w.app.inject({ method: "GET", url: url.replace(/signature=[^&]+/, "signature=forged") })).statusCode,
    ).toBe(403);
    expect((await w.app.inject({ method: "GET", url: url.replace(/by=[^&]+/, "by=someone") })).statusCode).toBe(403);
    const other = url.replace(name, "tafsiri-backup-2000-01-01T00-00-00.000Z.zip");
    expect((await w.app.inject({ method: "GET", url: other })).statusCode).toBe(403);
  }, 60_000);

  it("refuses staff (403), calls without a token (401) and names that are not archives' (400, 404)", async () => {
    for (const [method, url] of [
      ["GET", "/api/backups"],
      ["POST", "/api/backups"],
      ["GET", `/api/backups/${name}/download`],
      ["DELETE", `/api/backups/${name}`],
    ] as const) {
      expect((await call(method, url, w.staffToken)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, null)).statusCode, `${method} ${url}`).toBe(401);
    }
    for (const bad of [
      "..%2F..%2Fdb%2FPG_VERSION",
      "%2Fetc%2Fpasswd",
      "notes.txt",
      `${name}.partial`,
      `..%2F${name}`,
    ]) {
      const res = await call("GET", `/api/backups/${bad}/download`, w.adminToken);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ message: expect.stringContaining("Unknown archive name") });
      expect((await call("DELETE", `/api/backups/${bad}`, w.adminToken)).statusCode, bad).toBe(400);
      const file = await w.app.inject({ method: "GET", url: `/api/backups/${bad}/file?by=x&expires=1&signature=x` });
      expect(file.statusCode, bad).toBe(400);
    }
    const missing = "tafsiri-backup-2000-01-01T00-00-00.000Z.zip";
    expect((await call("GET", `/api/backups/${missing}/download`, w.adminToken)).statusCode).toBe(404);
    expect((await call("DELETE", `/api/backups/${missing}`, w.adminToken)).statusCode).toBe(404);
    expect(await fs.readdir(path.join(w.dataDir, "backups"))).toContain(name);
  });

  it("delete removes the archive, audited; the list no longer shows it", async () => {
    const res = await call("DELETE", `/api/backups/${name}`, w.adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: `Deleted ${name}.` });
    await expect(fs.stat(path.join(w.dataDir, "backups", name))).rejects.toThrow();
    const listing = (await call("GET", "/api/backups", w.adminToken)).json<Listing>();
    expect(listing.archives.map((a) => a.name)).not.toContain(name);
    const audit = await w.deps.db
      .selectFrom("auditLog")
      .select("action")
      .where("entity", "=", "archive")
      .where("entityId", "=", name)
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(["backup", "delete", "download"]);
  });
});

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);

describe.skipIf(process.env.DATABASE_URL)("`npm run backup` beside a running embedded server (decision 027)", () => {
  it("without a token it refuses and says how to get one; with an admin API token the server takes the backup", async () => {
    const place = await serverDataPlace("tafsiri-backups-cli-", cleanups);
    const env = { DATA_DIR: place.DATA_DIR, ADMIN_EMAIL: "cli-admin@example.test", ADMIN_PASSWORD: "Cl1-admin-pass!" };
    const server = await startServerProcess(env);
    cleanups.push(() => stopServerProcess(server));
    const port = new URL(server.baseUrl).port;
    const out = path.join(place.DATA_DIR, "from-cli.zip");
    const cli = (extra: Record<string, string>, args: string[] = []) =>
      run(path.join(ROOT, "node_modules/.bin/tsx"), ["apps/server/src/cli/backup.ts", "--out", out, ...args], {
        cwd: ROOT,
        env: { ...process.env, ...env, DATABASE_URL: "", PORT: port, HOST: "127.0.0.1", TAFSIRI_TOKEN: "", ...extra },
      }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );

    const refused = await cli({});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is open in another process");
    expect(refused.stderr).toContain("Profile menu → API tokens");

    const login = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
    });
    expect(login.status, server.output()).toBe(200);
    const { token: session } = (await login.json()) as { token: string };
    const made = await fetch(`${server.baseUrl}/trpc/apiTokens.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "backups",
        scope: "write",
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const apiToken = ((await made.json()) as { result: { data: { token: string } } }).result.data.token;

    const done = await cli({}, ["--token", apiToken]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/Backup written: .*from-cli\.zip .*taken by the running server/);
    const manifest = await manifestOf(await fs.readFile(out));
    expect(manifest.database.tables.users).toBeGreaterThanOrEqual(1);
    // The server's own copy stays in its backup folder, taken by that admin.
    expect((await fs.readdir(path.join(place.DATA_DIR, "backups"))).filter((n) => n.endsWith(".zip"))).toHaveLength(1);
  }, 180_000);
});
