import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/global-setup.ts"],
    // Test files share a worker's imported modules (the server, tRPC, Kysely, PGlite's loader)
    // instead of importing them again for each file: every file still makes its own database,
    // server and browser, so nothing but module loading is shared (docs/testing.md).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: "server",
          include: ["packages/*/test/**/*.test.ts", "apps/server/test/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["apps/web/e2e/**/*.spec.ts"],
          // One spec at a time, after the server tests (groupOrder 1): a spec's waits are what a
          // user would see, and on a machine busy with other tests they turn into races.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
