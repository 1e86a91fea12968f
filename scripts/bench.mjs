// `npm run bench`: runs the benchmarks in bench/ with tsx, one after the other.
//   npm run bench                       every benchmark (lists, http, uploads, load, live, export, field, long-audio,
//                                       server-start, translation, oral-translation, webhooks) with its defaults; not scale-out (only when named)
//   DATABASE_URL=postgres://… npm run bench -- scale-out [--part live|lists]
//                                       two instances behind Caddy, and lists at 1,000,000 audios
//                                       (bench/scale-out.ts; PostgreSQL, ~20 min and 10,000 sockets)
//   npm run bench -- live               only the live-delivery benchmark (bench/live.ts)
//   npm run bench -- lists --runs 50    only the list benchmark, with its options
//   npm run bench -- translation --explain
//                                       only the translation memory's matches (bench/translation.ts)
//   npm run bench -- oral-translation   only the assembly of an hour of spoken takes (bench/oral-translation.ts)
//   npm run bench -- webhooks           10,000 changes announced to 5 local receivers: change → delivery, and the
//                                       read load's p99 with and without webhooks (bench/webhooks.ts)
//   BENCH=live npm run bench            the same choice through the environment (comma-separated)
// Leading names choose benchmarks; the arguments after them go to each chosen one (so name the
// benchmark when you pass options: the benchmarks take different ones). DATABASE_URL, when set,
// is used by every benchmark instead of the embedded PGlite.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensureWebBuild, root } from "./web-build.mjs";

const BENCHMARKS = [
  "lists",
  "http",
  "uploads",
  "load",
  "live",
  "export",
  "field",
  "long-audio",
  "server-start",
  "translation",
  "oral-translation",
  "webhooks",
  "scale-out",
];
/** Run only when named: long, and needs PostgreSQL, Caddy and a high open-file limit (bench/scale-out.ts). */
const ONLY_WHEN_NAMED = ["scale-out"];

const args = process.argv.slice(2);
const named = [];
while (args.length > 0 && !args[0].startsWith("-")) named.push(args.shift());
if (named.length === 0 && process.env.BENCH)
  named.push(
    ...process.env.BENCH.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
const chosen = named.map((name) => name.replace(/\.ts$/, ""));
const unknown = chosen.filter((name) => !BENCHMARKS.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(", ")}. Choose from: ${BENCHMARKS.join(", ")}.`);
  process.exit(2);
}

const running = chosen.length > 0 ? chosen : BENCHMARKS.filter((name) => !ONLY_WHEN_NAMED.includes(name));
// The field and long-audio benchmarks load the built web app in Chromium.
if (running.includes("field") || running.includes("long-audio")) ensureWebBuild();
for (const name of running) {
  const file = `${name}.ts`;
  console.log(`\n== bench/${file}`);
  const r = spawnSync(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "bench", file), ...args], {
    cwd: root,
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
