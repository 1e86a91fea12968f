import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import {
  appRouter,
  createCallerFactory,
  restoreBackup,
  RestoreRefusedError,
  writeBackup,
  type AppDeps,
  type BackupSummary,
  type RestoreTarget,
} from "@tafsiri/api";
import { s3Settings, startTestS3Server, type TestS3Server } from "@tafsiri/api/testing/s3-server";
import { createUser, signToken } from "@tafsiri/api/testing/services";
import { wavFile } from "@tafsiri/api/testing/wav";
import type { DbHandle } from "@tafsiri/db";
import { sql } from "kysely";
import yauzl from "yauzl";
import yazl from "yazl";
import { buildApp } from "../src/app";
import { bootstrap } from "../src/bootstrap";
import { loadSettings } from "../src/settings";
import { multipart, type FormParts } from "./fixtures/app-harness";
import { emptyDatabase } from "./fixtures/empty-database";

/**
 * Decision 027 (backups and restore), docs/operations.md "Backups and restore": a seeded instance
 * is backed up while uploads and transcript saves go on, then restored, step by step as the
 * recovery procedure says, into an empty embedded database with local files and (with
 * DATABASE_URL) into a new PostgreSQL database with a new S3 bucket.
 */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
const serverUrl = process.env.DATABASE_URL;
const createCaller = createCallerFactory(appRouter);
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** A new database on the test server, dropped after the file. */
function newDatabase(): Promise<string> {
  return emptyDatabase(serverUrl!, cleanups, "tafsiri_backup");
}

/** A server's settings over a new DATA_DIR (and a database URL / bucket when given). */
async function settingsFor(opts: { databaseUrl?: string; s3?: TestS3Server }) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-backup-"));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir, ADMIN_PASSWORD: "Adm1n-backup-pass" };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  if (opts.s3) Object.assign(env, s3Settings(opts.s3));
  return { dataDir, env, settings: loadSettings(env) };
}

interface World {
  deps: AppDeps;
  handle: DbHandle;
  app: FastifyInstance;
  staffId: string;
  adminToken: string;
  staffToken: string;
  close(): Promise<void>;
}

/** A real server (bootstrap + buildApp) on `settings`, with one staff member. */
async function startWorld(settings: ReturnType<typeof loadSettings>, restored = false): Promise<World> {
  const { deps, handle } = await bootstrap(settings, () => undefined);
  const app = await buildApp({ deps, settings, logger: process.env.TEST_SERVER_LOG === "1" });
  await app.ready();
  const admin = await deps.db.selectFrom("users").select(["id", "role"]).executeTakeFirstOrThrow();
  const staff = restored
    ? await deps.db.selectFrom("users").select("id").where("username", "=", "staff1").executeTakeFirstOrThrow()
    : await createUser(deps.db, {
        username: "staff1",
        email: "staff1@example.test",
        password: "Passw0rd!",
        role: "Staff",
      });
  const token = (user: { id: string; role: "Admin" | "Staff" }) =>
    signToken(deps.jwtSecret, { id: user.id, role: user.role, sessionVersion: 1 });
  return {
    deps,
    handle,
    app,
    staffId: staff.id,
    adminToken: await token(admin),
    staffToken: await token({ id: staff.id, role: "Staff" }),
    async close() {
      await app.close();
      await deps.events.close();
      await deps.storage.close();
      await handle.close();
    },
  };
}

/** POSTs a multipart form to /api/audios/upload/{kind} as `token`; expects 200 and returns the answer. */
async function upload(w: World, kind: string, token: string, parts: FormParts): Promise<{ _id: string }> {
  const { body, contentType } = await multipart(parts);
  const res = await w.app.inject({
    method: "POST",
    url: `/api/audios/upload/${kind}`,
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ _id: string }>();
}

let uploads = 0;
/** Uploads a small distinct WAV as an audio over REST; returns its id. */
async function uploadAudio(w: World): Promise<string> {
  uploads += 1;
  const n = uploads;
  const name = `rec_${n}_${randomBytes(3).toString("hex")}.wav`;
  const answer = await upload(w, "AUDIO", w.adminToken, [
    ["category", "Control"],
    ["file", { name, content: wavFile(2000 + n, (i) => i * n) }],
  ]);
  return answer._id;
}

/** Seeds audios, tasks, two transcript versions each, a recording and an initial transcript. */
async function seed(w: World): Promise<string[]> {
  const staff = createCaller({ ...w.deps, user: { id: w.staffId, role: "Staff", username: "staff1" } as never });
  const audios: string[] = [];
  for (let i = 0; i < 4; i++) audios.push(await uploadAudio(w));
  for (const audioId of audios.slice(0, 3)) {
    const res = await w.app.inject({
      method: "POST",
      url: "/api/createtask",
      headers: { authorization: `Bearer ${w.adminToken}` },
      payload: { audio_id: audioId, assigned_to: w.staffId },
    });
    expect(res.statusCode, res.body).toBe(200);
    await staff.transcripts.save({ audioId, text: `Habari ya kwanza ${audioId}` });
    await staff.transcripts.save({ audioId, text: `Habari ya pili ${audioId}` });
  }
  await upload(w, "AUDIOTRANSLATION", w.staffToken, [
    ["audioId", audios[0]!],
    ["recordedBy", w.staffId],
    ["file", { name: "take.wav", content: wavFile(3000, (i) => i * 7) }],
  ]);
  await upload(w, "INITIAL_TRANSCRIPT", w.adminToken, [
    ["audioId", audios[1]!],
    ["file", { name: "notes.txt", content: "The initial transcript." }],
  ]);
  return audios;
}

/** Backs up `w` while a loop uploads audios and saves transcripts; returns the backup and the writes made. */
async function backupWhileWriting(
  w: World,
  audios: string[],
  out: string,
): Promise<{ summary: BackupSummary; writes: number }> {
  const staff = createCaller({ ...w.deps, user: { id: w.staffId, role: "Staff", username: "staff1" } as never });
  let stop = false;
  let writes = 0;
  let failed: unknown = null;
  const writing = (async () => {
    while (!stop && !failed) {
      await uploadAudio(w);
      await staff.transcripts.save({ audioId: audios[writes % 3]!, text: `Mabadiliko ${writes}` });
      writes += 1;
    }
  })().catch((error: unknown) => {
    failed = error;
  });
  const until = async (enough: () => boolean) => {
    while (!enough() && !failed) await new Promise((resolve) => setTimeout(resolve, 10));
    if (failed) throw failed;
  };
  // Let some writes land before the snapshot, and keep them going while the files are copied.
  await until(() => writes >= 2);
  const summary = await writeBackup(
    {
      db: w.deps.db,
      storage: w.deps.storage,
      databaseUrl: w.handle.kind === "postgres" ? serverOf(w) : undefined,
      pglite: w.handle.pglite,
    },
    out,
  );
  const atEnd = writes;
  await until(() => writes >= atEnd + 2);
  stop = true;
  await writing;
  return { summary, writes };
}

const urls = new WeakMap<World, string>();
function serverOf(w: World): string {
  return urls.get(w)!;
}

/** SHA-256 (hex) of a stored file. */
async function sha256Of(storage: AppDeps["storage"], key: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of await storage.read(key)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Flips one byte in the middle of `key`'s data in a copy of `archive` (audio is stored, not
 * deflated, so its bytes are found as they are; the test archive is small enough to read whole).
 */
async function tamper(archive: string, storage: AppDeps["storage"], key: string, copy: string): Promise<void> {
  const bytes = await fs.readFile(archive);
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
  const content = Buffer.concat(chunks);
  const offset = bytes.indexOf(content);
  expect(offset).toBeGreaterThan(0);
  const at = offset + Math.floor(content.length / 2);
  bytes[at] = bytes[at]! ^ 0xff;
  await fs.writeFile(copy, bytes);
}

/**
 * A copy of `archive` whose manifest says `lastMigration` (as a newer version's archive would),
 * every other entry copied as it is.
 */
async function withLastMigration(archive: string, lastMigration: string, copy: string): Promise<void> {
  const source = await yauzl.openPromise(archive, { lazyEntries: true, autoClose: false });
  const out = new yazl.ZipFile();
  const written = pipeline(out.outputStream, createWriteStream(copy));
  for await (const entry of source.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await source.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (entry.fileName === "manifest.json") {
      const manifest = JSON.parse(body.toString("utf8")) as { database: { lastMigration: string } };
      manifest.database.lastMigration = lastMigration;
      body = Buffer.from(JSON.stringify(manifest));
    }
    out.addBuffer(body, entry.fileName);
  }
  source.close();
  out.end();
  await written;
}

const cases = [{ name: "embedded PGlite, local files", postgres: false }];
if (serverUrl) cases.push({ name: "PostgreSQL, S3 bucket", postgres: true });

describe.each(cases)("backup and restore: $name (decision 027)", ({ postgres }) => {
  it("restores a backup taken while writes go on: every snapshot row and file, no row without its file; a second restore and a tampered archive are refused", async () => {
    const s3a = postgres ? await startTestS3Server() : undefined;
    if (s3a) cleanups.push(() => s3a.close());
    const source = await settingsFor({ databaseUrl: postgres ? await newDatabase() : undefined, s3: s3a });
    const w = await startWorld(source.settings);
    cleanups.push(() => w.close());
    if (postgres) urls.set(w, source.settings.DATABASE_URL!);
    const audios = await seed(w);

    const archive = path.join(source.dataDir, "backup.zip");
    const { summary, writes } = await backupWhileWriting(w, audios, archive);
    const { manifest } = summary;
    expect(manifest.database.kind).toBe(postgres ? "postgres" : "pglite");
    expect(manifest.database.lastMigration).toMatch(/^\d{14}_/);
    // Writes went on after the snapshot: the source now has more audios than the archive.
    const sourceAudios = Number(
      (
        await w.deps.db
          .selectFrom("audios")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(writes).toBeGreaterThan(2);
    expect(manifest.database.tables.audios).toBeGreaterThanOrEqual(4);
    expect(sourceAudios).toBeGreaterThan(manifest.database.tables.audios!);
    expect(manifest.files.length).toBeGreaterThan(manifest.database.tables.audios!);

    // The recovery procedure: a new, empty DATA_DIR (and database, and bucket), then restore.
    const s3b = postgres ? await startTestS3Server() : undefined;
    if (s3b) cleanups.push(() => s3b.close());
    const target = await settingsFor({ databaseUrl: postgres ? await newDatabase() : undefined, s3: s3b });
    const restoredWorld = async () => {
      const { openStorage } = await import("@tafsiri/api");
      const { storageConfig } = await import("../src/config/storage-config");
      return openStorage(storageConfig(target.settings, target.dataDir));
    };
    const storage = await restoredWorld();
    const restoreTarget: RestoreTarget = {
      databaseUrl: target.settings.DATABASE_URL,
      pgliteDir: postgres ? undefined : path.join(target.dataDir, "db"),
      storage,
      storageName: "the target storage",
    };

    // A tampered archive is refused naming the key, and leaves the target empty.
    const victim = manifest.files.find((f) => f.key.startsWith("audios/"))!;
    const tampered = path.join(source.dataDir, "tampered.zip");
    await tamper(archive, w.deps.storage, victim.key, tampered);
    await expect(restoreBackup(tampered, restoreTarget)).rejects.toThrow(
      `stored file ${victim.key} in the archive does not match its manifest (size or SHA-256)`,
    );
    const leftOver: string[] = [];
    for await (const file of storage.list()) leftOver.push(file.key);
    expect(leftOver).toEqual([]);
    if (!postgres) expect(await fs.readdir(restoreTarget.pgliteDir!).catch(() => [])).toEqual([]);

    // An archive a newer version wrote (a migration this code does not know) is refused before anything is written.
    const newer = path.join(source.dataDir, "newer.zip");
    await withLastMigration(archive, "29991231000000_from_the_future", newer);
    await expect(restoreBackup(newer, restoreTarget)).rejects.toThrow(
      /the archive was taken by a newer version of Tafsiri \(version .*, last migration 29991231000000_from_the_future; this one knows up to \d{14}_\w+\)/,
    );
    if (!postgres) expect(await fs.readdir(restoreTarget.pgliteDir!).catch(() => [])).toEqual([]);

    const restored = await restoreBackup(archive, restoreTarget);
    expect(restored.tables).toEqual(manifest.database.tables);
    expect(restored.files).toBe(manifest.files.length);
    for (const file of manifest.files) {
      expect(await storage.stat(file.key), file.key).toMatchObject({ sizeBytes: file.sizeBytes });
      expect(await sha256Of(storage, file.key), file.key).toBe(file.sha256);
    }

    // A second restore into the now non-empty target is refused and changes nothing.
    const filesBefore: string[] = [];
    for await (const file of storage.list()) filesBefore.push(file.key);
    await expect(restoreBackup(archive, restoreTarget)).rejects.toThrow(RestoreRefusedError);
    await expect(restoreBackup(archive, restoreTarget)).rejects.toThrow(
      postgres
        ? /Refusing to restore: the database is not empty: its public schema has \d+ table/
        : /Refusing to restore: the data directory .* is not empty/,
    );
    const filesAfter: string[] = [];
    for await (const file of storage.list()) filesAfter.push(file.key);
    expect(filesAfter.sort()).toEqual(filesBefore.sort());
    await storage.close();

    // The server starts on it and migrations find nothing to do; the rows are the snapshot's.
    const back = await startWorld(target.settings, true);
    cleanups.push(() => back.close());
    const migrations = await back.deps.db
      .selectFrom("kyselyMigration" as never)
      .select(sql`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    expect(Number((migrations as { n: string }).n)).toBe(manifest.database.tables.kysely_migration);
    for (const table of ["audios", "transcriptVersions", "translatedRecordings", "users"] as const) {
      const restoredRows = await back.deps.db.selectFrom(table).selectAll().orderBy("id").execute();
      const ids = restoredRows.map((r) => r.id);
      const sourceRows = await w.deps.db.selectFrom(table).selectAll().where("id", "in", ids).orderBy("id").execute();
      expect(restoredRows.length, table).toBe(manifest.database.tables[snake(table)]);
      expect(restoredRows, table).toEqual(sourceRows);
    }
    // No restored row points at a missing file.
    const { referencedKeys } = await import("@tafsiri/db/repositories/backup-snapshot");
    for await (const key of referencedKeys(back.deps.db)) {
      expect(await back.deps.storage.exists(key), key).toBe(true);
    }
  }, 180_000);
});

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

describe("the backup and restore commands (decision 027)", () => {
  it("back up a stopped instance, restore it into an empty DATA_DIR, refuse a second restore and a busy database", async () => {
    const source = await settingsFor({});
    const w = await startWorld(source.settings);
    await seed(w);
    const archive = path.join(source.dataDir, "cli-backup.zip");
    const env = { ...process.env, ...source.env, DATABASE_URL: "" };
    const cli = (script: string, args: string[], extra: Record<string, string> = {}) =>
      run(path.join(ROOT, "node_modules/.bin/tsx"), [`apps/server/src/cli/${script}.ts`, ...args], {
        cwd: ROOT,
        env: { ...env, ...extra },
      }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    const busy = await cli("backup", ["--out", archive]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain("is open in another process");
    expect(busy.stderr).toContain("BACKUP_DIR");
    await w.close();

    const done = await cli("backup", ["--out", archive]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/Backup written: .*cli-backup\.zip/);
    expect(done.stdout).toMatch(/files: \d+/);

    const target = await settingsFor({});
    const restored = await cli("restore", [archive], { DATA_DIR: target.dataDir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/audios: 4/);
    const again = await cli("restore", [archive], { DATA_DIR: target.dataDir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/Restore refused: Refusing to restore: the data directory .* is not empty/);
    expect(again.stderr).not.toMatch(/\n\s+at /);
  }, 180_000);
});
