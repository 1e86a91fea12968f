import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import type { Role } from "@tafsiri/db";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import type { AppDeps, SessionUser } from "../context";
import { appRouter } from "../root";
import { createCallerFactory } from "../trpc";
import { createUser } from "../services/accounts";
import { startSession } from "../services/session-start";
import { findSessionUser } from "@tafsiri/db/repositories/users";
import { createLocalStorage, type FileStorage, type StorageBackend } from "../storage/file-storage";
import { startTestS3Server, type TestS3Server } from "./s3-server";
import { createEventBus } from "../live/bus";

const createCaller = createCallerFactory(appRouter);

/** The password every test user gets: Strong by the rules of SPEC §5. */
export const TEST_PASSWORD = "Passw0rd!";

export interface TestHarness {
  deps: AppDeps;
  /** The cloned database's PostgreSQL URL (unset on PGlite): other processes may connect to it. */
  databaseUrl?: string;
  /**
   * Folder the file storage writes under: every file on local disk; on S3 only the temp files
   * (`filesDir/.tmp`), the stored files being in the bucket.
   */
  filesDir: string;
  /** The storage backend of `deps.storage`. */
  storageBackend: StorageBackend;
  /**
   * Every file the storage holds, sorted: stored keys and temp entries (as `.tmp/{name}`), on
   * either backend (on local disk also any other file under `filesDir`).
   */
  storedFiles(): Promise<string[]>;
  /**
   * What the resumable (tus) uploads keep, sorted: on local disk the files under
   * `filesDir/.uploads`, in S3 the bucket's keys named by an upload id (`{id}`, `{id}.info`,
   * `{id}.part`).
   */
  resumableUploadObjects(): Promise<string[]>;
  createUser(role: Role, overrides?: { username?: string; email?: string; password?: string }): Promise<SessionUser>;
  /** A tRPC caller acting as `user` (or anonymous with null). */
  caller(user: SessionUser | null): ReturnType<typeof createCaller>;
  /** A session token for `user` carrying their current session version. */
  token(user: SessionUser): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

/** Options of createHarness. */
export interface HarnessOptions {
  /**
   * Where files are stored: `local` (a temp folder) or `s3` (a bucket of a real S3-compatible
   * server the harness starts, startTestS3Server). Default: the `TEST_STORAGE` environment
   * variable, else `local`, so `TEST_STORAGE=s3 npm test -- --project 'server*'` runs every server
   * test on S3.
   */
  storage?: StorageBackend;
}

/** The backend asked for: `opts.storage`, else TEST_STORAGE, else local; throws for another TEST_STORAGE. */
function storageBackendOf(opts: HarnessOptions): StorageBackend {
  const backend = opts.storage ?? (process.env.TEST_STORAGE || "local");
  if (backend !== "local" && backend !== "s3") throw new Error(`TEST_STORAGE must be local or s3, not ${backend}`);
  return backend;
}

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/**
 * A real database cloned from the run's migrated template, real file storage (a temp folder, or
 * a bucket on a test S3 server: `opts.storage`), a real event bus (LISTENing on PostgreSQL), and
 * helpers to make users and callers. One per test file (beforeAll), closed in afterAll (which
 * also stops the S3 server).
 */
export async function createHarness(opts: HarnessOptions = {}): Promise<TestHarness> {
  const storageBackend = storageBackendOf(opts);
  const handle = await createTestDb(inject("dbTemplate"));
  const filesDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-files-"));
  let s3: TestS3Server | null = null;
  let storage: FileStorage;
  if (storageBackend === "s3") {
    s3 = await startTestS3Server();
    // Loaded only here, so tests on local disk do not load the AWS SDK.
    const { createS3Storage } = await import("../storage/s3-storage");
    storage = createS3Storage({ ...s3.config, tempDir: path.join(filesDir, ".tmp") });
  } else {
    storage = createLocalStorage(filesDir);
  }
  const events = await createEventBus({ db: handle.db, databaseUrl: handle.url });
  const deps: AppDeps = {
    db: handle.db,
    storage,
    jwtSecret: new TextEncoder().encode(randomBytes(32).toString("hex")),
    events,
    // Decision 038: the relying party of the software authenticator (soft-authenticator.ts); the
    // browser specs set the origin of their own server (e2e/support/server.ts).
    webauthn: { rpId: "localhost", origin: "http://localhost:3000", rpName: "Tafsiri" },
  };
  return {
    deps,
    databaseUrl: handle.url,
    filesDir,
    storageBackend,
    async storedFiles() {
      const onDisk = await filesUnder(filesDir);
      if (storageBackend === "local") return onDisk.sort();
      const keys: string[] = [];
      for await (const file of storage.list()) keys.push(file.key);
      return [...onDisk, ...keys].sort();
    },
    async resumableUploadObjects() {
      if (!s3) return (await filesUnder(path.join(filesDir, ".uploads"))).sort();
      const { S3Client, ListObjectsV2Command } = await import("@aws-sdk/client-s3");
      const { bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle } = s3.config;
      const client = new S3Client({ region, endpoint, forcePathStyle, credentials: { accessKeyId, secretAccessKey } });
      try {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
        const keys = (page.Contents ?? []).map((item) => item.Key ?? "");
        return keys.filter((key) => /^[0-9a-f]{32}(\.info|\.part)?$/.test(key)).sort();
      } finally {
        client.destroy();
      }
    },
    async createUser(role, overrides = {}) {
      counter += 1;
      const username = overrides.username ?? `${role.toLowerCase()}${counter}_${randomBytes(3).toString("hex")}`;
      const row = await createUser(deps.db, {
        username,
        email: overrides.email ?? `${username}@example.test`,
        password: overrides.password ?? TEST_PASSWORD,
        role,
      });
      return { id: row.id, username: row.username, email: row.email, role: row.role, active: row.active };
    },
    caller: (user) => createCaller({ ...deps, user }),
    async token(user) {
      const row = await findSessionUser(deps.db, user.id);
      // A session as after a full sign-in (password and a code, decision 038): a row, checked just now.
      const subject = { id: user.id, role: user.role, sessionVersion: row?.sessionVersion ?? 1 };
      return (await startSession(deps, subject, "password+totp", {})).token;
    },
    async close() {
      await events.close();
      await handle.close();
      await storage.close();
      await s3?.close();
      await fs.rm(filesDir, { recursive: true, force: true });
    },
  };
}
