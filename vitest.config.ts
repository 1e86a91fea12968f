import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const SERVER_FILES = ["packages/*/test/**/*.test.ts", "apps/server/test/**/*.test.ts"];
/**
 * Pure code that needs no database, server or browser: the web app's own logic, the shared UI
 * package and the domain package. Node by default; a file that needs a DOM says
 * `// @vitest-environment happy-dom` on its first line.
 */
const UNIT_FILES = [
  "apps/web/src/**/*.test.{ts,tsx}",
  "packages/ui/{src,test}/**/*.test.{ts,tsx}",
  "packages/domain/{src,test}/**/*.test.ts",
];
const UNIT_PACKAGES = ["packages/ui/**", "packages/domain/**"];

/**
 * Server files that run one at a time, after the others: those that start Tafsiri server processes
 * (a server's start-up compiles and migrates, and two files starting servers at once pushed a
 * start past its test's 30 s), and those whose assertions are wall-clock bounds under load they
 * make themselves (a flood with /healthz timed beside it, sign-in timings compared, a live event
 * within 2 s, a cached answer within 100 ms). Beside a second file on 2 cores both kinds failed.
 */
const SERVER_FILES_ALONE = [
  // Start server processes.
  "apps/server/test/start.test.ts",
  "apps/server/test/compiled-server.test.ts",
  "apps/server/test/graceful-shutdown.test.ts",
  "apps/server/test/rolling-restart.test.ts",
  "apps/server/test/instances.test.ts",
  "apps/server/test/live-events-processes.test.ts",
  "apps/server/test/scheduled-backups.test.ts",
  "apps/server/test/backup-restore.test.ts",
  "apps/server/test/metrics.test.ts",
  "apps/server/test/seed.test.ts",
  "apps/server/test/hostile/crash-sweep.test.ts",
  "apps/server/test/hostile/webhook-kill.test.ts",
  // Wall-clock bounds.
  "apps/server/test/hostile/websocket-flood.test.ts",
  "apps/server/test/hostile/request-flood.test.ts",
  "apps/server/test/hostile/sign-in-timing.test.ts",
  "apps/server/test/live-events.test.ts",
  "apps/server/test/sessions.test.ts",
  "packages/api/test/suggest-segments.test.ts",
];
// A renamed or misspelt entry would quietly put its file back beside the others.
for (const file of SERVER_FILES_ALONE) {
  if (!existsSync(fileURLToPath(new URL(file, import.meta.url)))) {
    throw new Error(`vitest.config.ts: SERVER_FILES_ALONE names ${file}, which does not exist`);
  }
}

/** Both server projects' limits: a test 30 s, a hook (a database, a server) 60 s. */
const SERVER_TIMEOUTS = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    globalSetup: ["./test/global-setup.ts"],
    reporters: ["default", "./test/project-timings.ts"],
    // Test files share a worker's imported modules (the server, tRPC, Kysely, PGlite's loader)
    // instead of importing them again for each file: every file still makes its own database,
    // server and browser, so nothing but module loading is shared (docs/testing.md).
    isolate: false,
    // Vitest's default in a run is one worker fewer than the cores: one on the 2-core CI machine.
    // Server files wait on their database, server and child processes for much of their time,
    // so at least two run at once (docs/testing.md has the figures).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        // The web app's `#web/...` imports (apps/web/tsconfig.json paths, apps/web/vite.config.ts).
        resolve: {
          alias: [{ find: /^#web\//, replacement: fileURLToPath(new URL("apps/web/src/", import.meta.url)) }],
        },
        test: {
          name: "unit",
          include: UNIT_FILES,
          environment: "node",
          // Cheap to import, and some stub globals (fetch, timers, a DOM): each file starts clean.
          isolate: true,
        },
      },
      {
        extends: true,
        test: {
          name: "server",
          include: SERVER_FILES,
          exclude: [...configDefaults.exclude, ...UNIT_PACKAGES, ...SERVER_FILES_ALONE],
          ...SERVER_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          name: "server-alone",
          include: SERVER_FILES_ALONE,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          ...SERVER_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["apps/web/e2e/**/*.spec.ts"],
          // After the server tests (groupOrder 2), two spec files at a time (maxWorkers): a spec
          // mostly waits on its page, its server and Chromium, so two keep 2 cores busy
          // (docs/testing.md has the figures).
          sequence: { groupOrder: 2 },
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
