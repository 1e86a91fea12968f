import { existsSync, promises as fs } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { Role } from "@tafsiri/db";
import type { SessionUser } from "@tafsiri/api";
import { createHarness, TEST_PASSWORD, type TestHarness } from "@tafsiri/api/testing/harness";
import { buildApp } from "../../../server/src/app";

/** Root of the repository (this file is apps/web/e2e/support/server.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const WEB_DIST = path.join(REPO_ROOT, "apps/web/dist");

/** A user made for a browser test, with the password to type into the sign-in form. */
export interface TestUser extends SessionUser {
  password: string;
}

export interface TestServer {
  /** http://127.0.0.1:{port}, the real Tafsiri server serving the built web app. */
  baseURL: string;
  /** The database, file storage and helpers behind the server (a fresh clone of the run's template). */
  harness: TestHarness;
  /** Creates an active user of `role` with a Strong password (TEST_PASSWORD unless given). */
  createUser(role: Role, overrides?: { username?: string; email?: string; password?: string }): Promise<TestUser>;
  /** Stops the server, drops the database and removes the stored files. */
  close(): Promise<void>;
}

/**
 * Starts a real Tafsiri server in this process for one spec file: a fresh database cloned from the
 * run's migrated template (PGlite, or PostgreSQL when DATABASE_URL is set), file storage in a temp
 * folder, a random JWT secret, and a copy of the built web app (apps/web/dist), listening on
 * 127.0.0.1 at a free port. Throws when the web app has not been built. Set E2E_SERVER_LOG=1 to
 * see the server's log.
 */
export async function startServer(): Promise<TestServer> {
  const webDist = await snapshotWebBuild();
  const harness = await createHarness();
  const app = await buildApp({
    deps: harness.deps,
    settings: { MAX_UPLOAD_BYTES: 64 * 1024 * 1024, WEB_DIST: webDist },
    logger: process.env.E2E_SERVER_LOG === "1",
  });
  try {
    await app.listen({ host: "127.0.0.1", port: 0 });
  } catch (error) {
    await harness.close();
    await fs.rm(webDist, { recursive: true, force: true });
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  // Decision 038: passkeys are bound to a domain, not an IP, so a spec that uses them opens the app
  // at http://localhost:{port} (a secure context, like 127.0.0.1), whose origin this is.
  harness.deps.webauthn = { rpId: "localhost", origin: `http://localhost:${port}`, rpName: "Tafsiri" };
  return {
    baseURL: `http://127.0.0.1:${port}`,
    harness,
    async createUser(role, overrides = {}) {
      const password = overrides.password ?? TEST_PASSWORD;
      const user = await harness.createUser(role, { ...overrides, password });
      return { ...user, password };
    },
    async close() {
      await app.close();
      await harness.close();
      await fs.rm(webDist, { recursive: true, force: true });
    },
  };
}

/**
 * Copies apps/web/dist to a temp folder, so that a rebuild while the spec runs cannot swap the
 * assets under the open pages. Retries while a build is half-written (an asset of index.html
 * missing); throws a clear message when there is no build at all. Returns the copy's folder.
 */
async function snapshotWebBuild(): Promise<string> {
  const index = path.join(WEB_DIST, "index.html");
  if (!existsSync(index)) {
    throw new Error(
      `The browser tests need the built web app, but ${index} is missing. ` +
        "Run `npm test` (it builds it) or `npm run build -w @tafsiri/web` first.",
    );
  }
  const copy = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-web-"));
  for (let attempt = 1; ; attempt += 1) {
    await fs.rm(copy, { recursive: true, force: true });
    await fs.cp(WEB_DIST, copy, { recursive: true }).catch(() => undefined);
    const html = await fs.readFile(path.join(copy, "index.html"), "utf8").catch(() => "");
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
    if (html && assets.every((a) => existsSync(path.join(copy, a)))) return copy;
    if (attempt === 10) throw new Error(`The web build in ${WEB_DIST} is incomplete (is a build running?).`);
    await sleep(2000);
  }
}
