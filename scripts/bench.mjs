// `npm run bench`: runs the benchmarks in bench/ with tsx. Arguments after `--` go to each.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./web-build.mjs";

for (const file of ["lists.ts"]) {
  console.log(`\n== bench/${file}`);
  const r = spawnSync(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "bench", file), ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
