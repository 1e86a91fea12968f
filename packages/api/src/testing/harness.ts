import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import type { Role } from "@tafsiri/db";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { createContextInner, type AppDeps, type SessionUser } from "../context";
import { appRouter } from "../root";
import { createCallerFactory } from "../trpc";
import { createUser } from "../services/accounts";
import { signToken } from "../services/auth";
import { findSessionUser } from "@tafsiri/db/repositories/users";
import { createLocalStorage } from "../storage/file-storage";
import { createEventBus } from "../live/bus";

const createCaller = createCallerFactory(appRouter);

/** The password every test user gets: Strong by the rules of SPEC §5. */
export const TEST_PASSWORD = "Passw0rd!";

export interface TestHarness {
  deps: AppDeps;
  /** The cloned database's PostgreSQL URL (unset on PGlite): other processes may connect to it. */
  databaseUrl?: string;
  /** Folder the file storage writes under. */
  filesDir: string;
  createUser(role: Role, overrides?: { username?: string; email?: string; password?: string }): Promise<SessionUser>;
  /** A tRPC caller acting as `user` (or anonymous with null). */
  caller(user: SessionUser | null): ReturnType<typeof createCaller>;
  /** A session token for `user` carrying their current session version. */
  token(user: SessionUser): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * A real database cloned from the run's migrated template, real file storage in a temp folder,
 * a real event bus (LISTENing on PostgreSQL), and helpers to make users and callers. One per test file (beforeAll), closed in afterAll.
 */
export async function createHarness(): Promise<TestHarness> {
  const handle = await createTestDb(inject("dbTemplate"));
  const filesDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-files-"));
  const events = await createEventBus({ db: handle.db, databaseUrl: handle.url });
  const deps: AppDeps = {
    db: handle.db,
    storage: createLocalStorage(filesDir),
    jwtSecret: new TextEncoder().encode(randomBytes(32).toString("hex")),
    events,
  };
  return {
    deps,
    databaseUrl: handle.url,
    filesDir,
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
      return signToken(deps.jwtSecret, { id: user.id, role: user.role, sessionVersion: row?.sessionVersion ?? 1 });
    },
    async close() {
      await events.close();
      await handle.close();
      await fs.rm(filesDir, { recursive: true, force: true });
    },
  };
}

export { createContextInner };
