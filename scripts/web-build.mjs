import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "apps/web/dist/index.html");
const sources = ["apps/web/src", "apps/web/index.html", "apps/web/vite.config.ts", "packages/ui/src"].map((p) =>
  path.join(root, p),
);

/** The latest modification time (ms) of `p` or of anything below it; 0 when it does not exist. */
export function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

/** Builds the web app when dist is missing or older than its sources. Exits on failure. */
export function ensureWebBuild() {
  if (existsSync(dist) && statSync(dist).mtimeMs >= Math.max(...sources.map(newest))) return;
  console.log("Building the web app…");
  const r = spawnSync("npm", ["run", "build", "-w", "@tafsiri/web"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
