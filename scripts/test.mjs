// `npm test`: builds the web app when needed (the browser tests serve it), then runs vitest.
// Extra arguments go to vitest, e.g. `npm test -- --project browser`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { ensureWebBuild, root } from "./web-build.mjs";

ensureWebBuild();
const r = spawnSync(path.join(root, "node_modules/.bin/vitest"), ["run", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.warn("\n" + "!".repeat(72));
  console.warn(`!! BROWSER TESTS SKIPPED: no Chromium at ${chromium}.`);
  console.warn("!! Install it with `apt-get install -y chromium` to run them.");
  console.warn("!".repeat(72) + "\n");
}
process.exit(r.status ?? 1);
