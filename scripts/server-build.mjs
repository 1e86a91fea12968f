// Compiles the server to JavaScript under apps/server/dist (decision 026): `npm run build`
// (turbo runs `npm run build -w @tafsiri/server`, which runs this file) and `npm start` (through
// ensureServerBuild when the build is missing or stale).
//
// dist/server.js        apps/server/src/server.ts with the @tafsiri/* workspace packages bundled in
// dist/decode-worker.mjs the waveform job's decoding worker (compute-waveform.ts loads it by
// dist/vad-worker.mjs    `new URL("./decode-worker.mjs", import.meta.url)`, so it sits beside
//                        server.js), and Suggest segments' worker likewise
// dist/backup.js        the backup and restore commands (apps/server/src/cli), run by scripts/cli.mjs
// dist/restore.js
// dist/*.map            source maps, so `node --enable-source-maps` names the TypeScript in stack traces
//
// Every other package stays external (loaded from node_modules at run time), except one that the
// bundled code would find in another version from apps/server/dist than from where it is imported
// (npm nests a package under packages/api/node_modules when the root holds another version of it):
// such a package is bundled, so the compiled server runs the same code as the sources under tsx.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { newest, root } from "./web-build.mjs";

export const serverDist = path.join(root, "apps/server/dist");
const SERVER_JS = path.join(serverDist, "server.js");
const WORKERS = [
  "packages/api/src/waveforms/decode-worker.mjs",
  "packages/api/src/segments/vad-worker.mjs",
  "packages/api/src/takes/take-worker.mjs",
  "packages/api/src/takes/assemble-worker.mjs",
];
/** The command-line tools compiled beside the server: apps/server/src/cli/<name>.ts → dist/<name>.js. */
export const CLIS = ["backup", "restore"];
/** What the build is made from: the sources of the server and of the workspace packages it bundles. */
const SOURCES = [
  "apps/server/src",
  "apps/server/package.json",
  "packages/api/src",
  "packages/api/package.json",
  "packages/db/src",
  "packages/db/package.json",
  "packages/domain/src",
  "packages/domain/package.json",
  "migrations",
  "package-lock.json",
  "scripts/server-build.mjs",
].map((p) => path.join(root, p));

const builtins = new Set(builtinModules);

/** `@scope/name` or `name` of a bare import such as `@scope/name/sub/path`. */
function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The directory Node would load package `name` from for a file in `fromDir` (null when none). */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(candidate)) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * esbuild plugin: a bare import is external when apps/server/dist would load the same copy of the
 * package as the importing file does; otherwise (a nested copy, a workspace package) it is bundled.
 */
const externalWhereSame = {
  name: "external-where-same",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (args.path.startsWith("node:") || builtins.has(args.path)) return { path: args.path, external: true };
      const name = packageName(args.path);
      if (name.startsWith("@tafsiri/")) return undefined;
      const fromSource = packageDir(name, args.resolveDir);
      const fromDist = packageDir(name, serverDist);
      if (fromSource !== null && fromSource === fromDist) return { path: args.path, external: true };
      return undefined;
    });
  },
};

/**
 * Compiles the server and its workers into apps/server/dist (esbuild; node20, ESM, source maps
 * without sources, as the TypeScript is beside them); server.js is written last, so its time says
 * the whole build is there. Resolves when written; rejects with esbuild's error (its messages
 * already printed) when a file does not compile, or with a message when esbuild is not installed
 * (an install without dev dependencies).
 */
async function buildServer() {
  const esbuild = await import("esbuild").catch(() => {
    throw new Error("esbuild is not installed: run `npm install` (with dev dependencies) to build the server.");
  });
  const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
    outdir: serverDist,
    absWorkingDir: root,
    plugins: [externalWhereSame],
    // A bundled CommonJS package calls require(); an ES module has none unless it makes one.
    banner: {
      js: 'import { createRequire as __tafsiriRequire } from "node:module"; const require = __tafsiriRequire(import.meta.url);',
    },
  };
  await esbuild.build({
    ...common,
    entryPoints: Object.fromEntries(WORKERS.map((w) => [path.basename(w, ".mjs"), path.join(root, w)])),
    outExtension: { ".js": ".mjs" },
  });
  // The backup and restore commands (decision 027), run by `npm run backup` / `restore` (scripts/cli.mjs).
  await esbuild.build({
    ...common,
    entryPoints: Object.fromEntries(CLIS.map((name) => [name, path.join(root, `apps/server/src/cli/${name}.ts`)])),
  });
  await esbuild.build({ ...common, entryPoints: { server: path.join(root, "apps/server/src/server.ts") } });
}

/** True when apps/server/dist/server.js exists and is newer than everything it is built from. */
function serverBuildIsFresh() {
  return existsSync(SERVER_JS) && statSync(SERVER_JS).mtimeMs >= Math.max(...SOURCES.map(newest));
}

/**
 * Builds the server when dist/server.js is missing or older than any of its sources (as
 * ensureWebBuild does for the web app). Exits the process with esbuild's status on failure.
 */
export function ensureServerBuild() {
  if (serverBuildIsFresh()) return;
  console.log("Building the server…");
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer().catch((error) => {
    // esbuild has printed its own messages (error.errors); anything else is said here.
    if (!Array.isArray(error?.errors)) console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
  console.log(`Server built into ${path.relative(root, serverDist)}/ in ${Date.now() - started} ms`);
}
