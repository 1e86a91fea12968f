import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { openStorage, restoreBackup, scrapeMetrics, type AppDeps } from "@tafsiri/api";
import { signToken } from "@tafsiri/api/testing/services";
import { wavFile } from "@tafsiri/api/testing/wav";
import type { DbHandle } from "@tafsiri/db";
import { openJobLocks, type JobLocks } from "@tafsiri/db/repositories/job-locks";
import { buildApp } from "../src/app";
import { bootstrap } from "../src/bootstrap";
import {
  backupFileName,
  listBackupArchives,
  startBackupSchedule,
  type BackupLog,
  type BackupSchedule,
} from "../src/jobs/backup-schedule";
import { storageConfig } from "../src/config/storage-config";
import { loadSettings } from "../src/settings";
import { multipart } from "./fixtures/app-harness";
import { emptyDatabase } from "./fixtures/empty-database";
import { serverDataPlace, startServerProcess, stopServerProcess } from "./fixtures/server-process";

/**
 * Decision 027, docs/operations.md "Backups and restore": the server's scheduled backups. A real
 * server (bootstrap + buildApp, on PGlite and, with DATABASE_URL, on PostgreSQL) with uploaded
 * audios runs the schedule at a short interval: its archives restore, only BACKUP_KEEP of them stay
 * (other files in the folder stay too), each run is audited and counted, a failed run is retried,
 * stopping abandons a run in progress without leaving a partial file, two processes on one
 * database write one archive per round. The real server process starts the schedule from its
 * settings and refuses to start on a BACKUP_DIR it cannot write.
 */

const serverUrl = process.env.DATABASE_URL;
/**
 * The server run as `node --import tsx`, not through tsx's CLI: the CLI kills its child when it does
 * not confirm a signal within 30 ms (a busy event loop on a loaded machine), so SIGTERM would not
 * reach the shutdown being tested.
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

interface World {
  deps: AppDeps;
  handle: DbHandle;
  app: FastifyInstance;
  databaseUrl?: string | undefined;
  adminToken: string;
}

/** A real server on a new DATA_DIR (and a migrated database of its own on PostgreSQL), with `audios` uploaded audios. */
async function startWorld(postgres: boolean, audios = 2): Promise<World> {
  const place = await serverDataPlace("tafsiri-sched-backup-", cleanups);
  const env: Record<string, string> = { DATA_DIR: place.DATA_DIR, ADMIN_PASSWORD: "Adm1n-sched-pass" };
  if (postgres) env.DATABASE_URL = place.DATABASE_URL!;
  const settings = loadSettings(env);
  const { deps, handle } = await bootstrap(settings, () => undefined);
  const app = await buildApp({ deps, settings, logger: false });
  await app.ready();
  cleanups.push(async () => {
    await app.close();
    await deps.events.close();
    await deps.storage.close();
    await handle.close();
  });
  const admin = await deps.db.selectFrom("users").select(["id", "role"]).executeTakeFirstOrThrow();
  const adminToken = await signToken(deps.jwtSecret, { id: admin.id, role: admin.role, sessionVersion: 1 });
  const w: World = { deps, handle, app, databaseUrl: settings.DATABASE_URL, adminToken };
  for (let i = 0; i < audios; i++) await uploadAudio(w);
  return w;
}

let uploads = 0;
/** Uploads a small distinct WAV over REST; returns the audio's id. */
async function uploadAudio(w: World): Promise<string> {
  uploads += 1;
  const { body, contentType } = await multipart([
    ["category", "Control"],
    [
      "file",
      { name: `sched_${uploads}_${randomBytes(3).toString("hex")}.wav`, content: wavFile(3000, (i) => i * uploads) },
    ],
  ]);
  const res = await w.app.inject({
    method: "POST",
    url: "/api/audios/upload/AUDIO",
    headers: { authorization: `Bearer ${w.adminToken}`, "content-type": contentType },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ _id: string }>()._id;
}

/** A logger that keeps its lines (the message, or the only argument). */
function captureLog(): BackupLog & { lines: string[] } {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => {
    lines.push(String(typeof args[0] === "string" ? args[0] : args[1]));
  };
  return { lines, info: keep, warn: keep } as unknown as BackupLog & { lines: string[] };
}

/** The job locks of one server process, closed after the file. */
function processLocks(w: World): JobLocks {
  const locks = openJobLocks({ db: w.deps.db, databaseUrl: w.databaseUrl });
  cleanups.push(() => locks.close());
  return locks;
}

/** Starts the schedule as server.ts does, on `dir`; stopped after the file. */
async function schedule(
  w: World,
  locks: JobLocks,
  opts: { dir: string; everyMs: number; keep: number; retryMs?: number; log?: BackupLog },
): Promise<BackupSchedule> {
  const s = await startBackupSchedule(
    { ...w.deps, databaseUrl: w.databaseUrl, pglite: w.handle.pglite, locks },
    { log: captureLog(), ...opts },
  );
  cleanups.push(() => s.stop());
  return s;
}

/** The audit entries of the scheduled backups, oldest first. */
async function backupAudits(w: World) {
  const rows = await w.deps.db
    .selectFrom("auditLog")
    .select(["actorId", "action", "entity", "entityId", "detail", "createdAt"])
    .where("action", "in", ["backup", "backup-failed"])
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    ...r,
    detail: (typeof r.detail === "string" ? JSON.parse(r.detail) : r.detail) as Record<string, unknown>,
  }));
}

/** tafsiri_job_runs_total for the backup job and `result`, as /metrics reports it. */
async function backupRuns(result: "ok" | "failed"): Promise<number> {
  const line = (await scrapeMetrics())
    .split("\n")
    .find((l) => l.startsWith(`tafsiri_job_runs_total{job="backup",result="${result}"} `));
  return Number(line?.split(" ")[1] ?? Number.NaN);
}

/** Waits (polling every 50 ms, at most `ms`) until `ready` resolves true. */
async function until(ready: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`not ready within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const cases = [{ name: "embedded PGlite", postgres: false }];
if (serverUrl) cases.push({ name: "PostgreSQL", postgres: true });

describe.each(cases)("scheduled backups: $name (decision 027)", ({ postgres }) => {
  it("backs up at each interval counted from the newest archive, keeps BACKUP_KEEP archives, audits and counts each run; the newest restores", async () => {
    const w = await startWorld(postgres);
    const dir = await tempDir("tafsiri-backups-");
    // Two archives of long ago (a missed round: the next one runs at once) and files that are not archives.
    const old = [new Date("2025-01-01T00:00:00Z"), new Date("2025-01-02T00:00:00Z")].map(backupFileName);
    for (const name of old) await fs.writeFile(path.join(dir, name), "an old archive");
    const unrelated = ["notes.txt", "tafsiri-backup-by-hand.zip", "tafsiri-backup-2025-01-03.zip"];
    for (const name of unrelated) await fs.writeFile(path.join(dir, name), "not ours to remove");
    const okBefore = await backupRuns("ok");

    const everyMs = 1500;
    const s = await schedule(w, processLocks(w), { dir, everyMs, keep: 2 });
    await until(async () => (await backupAudits(w)).length >= 3);
    await s.stop();

    const audits = await backupAudits(w);
    const written = audits.map((a) => String(a.detail.file));
    expect(audits.every((a) => a.action === "backup" && a.actorId === null && a.entity === "archive")).toBe(true);
    // Rounds an interval apart (the first one at once: the newest archive was long overdue).
    const times = written.map((name) => listTime(name));
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(everyMs);
    // The newest two archives stay, with every file that is not an archive; the old ones went first.
    const left = (await fs.readdir(dir)).sort();
    expect(left).toEqual([...written.slice(-2), ...unrelated].sort());
    expect(audits[0]!.detail.removed).toEqual(old.slice(0, 1));
    expect(audits[1]!.detail.removed).toEqual(old.slice(1));
    expect(audits[2]!.detail.removed).toEqual(written.slice(0, 1));
    expect(await backupRuns("ok")).toBe(okBefore + audits.length);

    // Each entry says what was written; the newest archive restores into an empty place, rows as in its manifest.
    const newest = audits.at(-1)!;
    const archive = path.join(dir, written.at(-1)!);
    expect(newest.entityId).toBe(written.at(-1));
    expect(newest.detail).toMatchObject({ bytes: (await fs.stat(archive)).size, files: 2 });
    expect(newest.detail.durationMs).toEqual(expect.any(Number));
    const target = await tempDir("tafsiri-restore-");
    const storage = await openStorage(storageConfig(loadSettings({ DATA_DIR: target }), target));
    const restored = await restoreBackup(archive, {
      databaseUrl: postgres ? await emptyDatabase(serverUrl!, cleanups, "tafsiri_schedbackup") : undefined,
      pgliteDir: postgres ? undefined : path.join(target, "db"),
      storage,
      storageName: "the target storage",
    });
    await storage.close();
    expect(restored.tables).toEqual(restored.manifest.database.tables);
    expect(restored.tables.audios).toBe(2);
    expect(restored.files).toBe(2);

    // A restart finds the newest archive recent: no backup at once.
    const again = await schedule(w, processLocks(w), { dir, everyMs: 60_000, keep: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await again.stop();
    expect((await backupAudits(w)).length).toBe(audits.length);
  }, 120_000);

  it("a failed run is logged as a warning, audited and counted as failed, and the next round tries again", async () => {
    const w = await startWorld(postgres, 1);
    const dir = await tempDir("tafsiri-backups-");
    const failedBefore = await backupRuns("failed");
    // A stored file a row points at is gone: every attempt of the backup fails naming it.
    const audio = await w.deps.db.selectFrom("audios").select("fileKey").executeTakeFirstOrThrow();
    const key = audio.fileKey;
    const saved = await readAll(w.deps.storage, key);
    await w.deps.storage.delete(key);

    const log = captureLog();
    const s = await schedule(w, processLocks(w), { dir, everyMs: 60_000, keep: 3, retryMs: 300, log });
    await until(async () => (await backupAudits(w)).length >= 1);
    const [failed] = await backupAudits(w);
    expect(failed).toMatchObject({ action: "backup-failed", actorId: null, entityId: null });
    expect(String(failed!.detail.error)).toContain(key);
    expect(log.lines.some((l) => l.startsWith("scheduled backup failed:") && l.includes(key))).toBe(true);
    expect(await backupRuns("failed")).toBeGreaterThan(failedBefore);
    expect((await fs.readdir(dir)).filter((n) => n.startsWith("tafsiri-backup-"))).toEqual([]);

    // The file is back: a later round succeeds.
    await w.deps.storage.put(key, saved);
    await until(async () => (await backupAudits(w)).some((a) => a.action === "backup"));
    await s.stop();
    expect((await listBackupArchives(dir)).length).toBe(1);
  }, 120_000);

  it("stopping abandons a backup in progress: no archive, no partial file, audited as abandoned", async () => {
    const w = await startWorld(postgres, 6);
    const dir = await tempDir("tafsiri-backups-");
    const s = await schedule(w, processLocks(w), { dir, everyMs: 60_000, keep: 3 });
    await until(async () => (await fs.readdir(dir)).some((n) => n.endsWith(".partial")), 10_000);
    await s.stop();
    expect(await fs.readdir(dir)).toEqual([]);
    const audits = await backupAudits(w);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: "backup-failed",
      detail: { error: "abandoned: the server was stopping" },
    });
  }, 120_000);

  it("two processes on one database write one archive per round; when the holder stops the other takes over", async () => {
    const w = await startWorld(postgres, 1);
    // Each process has its own BACKUP_DIR (its own disk): without the lock both would write.
    const dirs = [await tempDir("tafsiri-backups-a-"), await tempDir("tafsiri-backups-b-")];
    const locks = [processLocks(w), processLocks(w)];
    const opts = { everyMs: 1000, keep: 50, retryMs: 300 };
    const both = await Promise.all([0, 1].map((i) => schedule(w, locks[i]!, { ...opts, dir: dirs[i]! })));
    await until(async () => (await backupAudits(w)).length >= 3);
    const counts = await Promise.all(dirs.map(async (d) => (await listBackupArchives(d)).length));
    const holder = counts[0]! > 0 ? 0 : 1;
    const other = 1 - holder;
    expect(counts[other]).toBe(0);
    // Stopped, the holder still holds the lock, so no other process has backed up yet: every
    // backup audited so far is an archive in its folder. A round in progress when it stopped is
    // abandoned, audited as failed, and leaves no archive.
    await both[holder]!.stop();
    const written = (await listBackupArchives(dirs[holder]!)).length;
    const audits = await backupAudits(w);
    expect(written).toBe(audits.filter((a) => a.action === "backup").length);
    for (const failed of audits.filter((a) => a.action === "backup-failed"))
      expect(failed.detail).toMatchObject({ error: "abandoned: the server was stopping" });
    await locks[holder]!.close();

    await until(async () => (await listBackupArchives(dirs[other]!)).length >= 1);
    await both[other]!.stop();
    expect((await listBackupArchives(dirs[holder]!)).length).toBe(written);
  }, 120_000);
});

/** ms since the epoch of an archive named by backupFileName. */
function listTime(name: string): number {
  const m = /^tafsiri-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}\.\d{3})Z\.zip$/.exec(name)!;
  return Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
}

async function readAll(storage: AppDeps["storage"], key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("scheduled backup settings (decision 027)", () => {
  it("takes BACKUP_EVERY_HOURS (fractions too) and BACKUP_KEEP with their defaults; without BACKUP_DIR they are harmless", () => {
    const defaults = loadSettings({});
    expect(defaults.BACKUP_DIR).toBeUndefined();
    expect(defaults).toMatchObject({ BACKUP_EVERY_HOURS: 24, BACKUP_KEEP: 7 });
    expect(loadSettings({ BACKUP_EVERY_HOURS: "0.5", BACKUP_KEEP: "3" })).toMatchObject({
      BACKUP_EVERY_HOURS: 0.5,
      BACKUP_KEEP: 3,
    });
  });

  it.each([
    ["BACKUP_KEEP", "0", "BACKUP_KEEP: BACKUP_KEEP must be a whole number from 1 to 10000"],
    ["BACKUP_KEEP", "2.5", "BACKUP_KEEP: BACKUP_KEEP must be a whole number from 1 to 10000"],
    ["BACKUP_KEEP", "many", "BACKUP_KEEP: BACKUP_KEEP must be a whole number from 1 to 10000"],
    ["BACKUP_EVERY_HOURS", "0", "BACKUP_EVERY_HOURS: BACKUP_EVERY_HOURS must be a positive number of hours"],
    ["BACKUP_EVERY_HOURS", "-2", "BACKUP_EVERY_HOURS: BACKUP_EVERY_HOURS must be a positive number of hours"],
    ["BACKUP_EVERY_HOURS", "daily", "BACKUP_EVERY_HOURS: BACKUP_EVERY_HOURS must be a positive number of hours"],
  ])("refuses %s=%s with a clear message", (name, value, message) => {
    expect(() => loadSettings({ BACKUP_DIR: "/tmp/backups", [name]: value })).toThrow(message);
  });
});

describe("the server process and its scheduled backups (decision 027)", () => {
  it("refuses to start on a BACKUP_DIR it cannot create, saying so; with a good one it backs up and stops cleanly on SIGTERM", async () => {
    const place = await serverDataPlace("tafsiri-sched-proc-", cleanups);
    const blocker = path.join(place.DATA_DIR, "a-file");
    await fs.writeFile(blocker, "");
    const bad = path.join(blocker, "backups");
    const refused = await startServerProcess({ ...place, BACKUP_DIR: bad }).then(
      () => "started",
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/server exited with 1/);
    expect(refused).toContain(`BACKUP_DIR ${bad} cannot be used`);

    const dir = path.join(place.DATA_DIR, "backups");
    const server = await startServerProcess({
      ...place,
      BACKUP_DIR: dir,
      BACKUP_EVERY_HOURS: "1",
      BACKUP_KEEP: "2",
    });
    try {
      await until(async () => (await listBackupArchives(dir)).length === 1, 60_000);
    } finally {
      await stopServerProcess(server);
    }
    expect(server.child.exitCode, server.output()).toBe(0);
    expect(server.output()).toContain("scheduled backup: wrote tafsiri-backup-");
    expect((await fs.readdir(dir)).filter((n) => n.endsWith(".partial"))).toEqual([]);
  }, 180_000);
});
