// `npm run lint` (after eslint): fails when any text file of the repository cites the project's
// internal tracker (the word "issue" and a number, perhaps "Build" and another), which tells a later
// reader nothing. Cite what the number stood for instead: a SPEC section (`SPEC §2.6`), a decision
// record (`decision 015`), an ARCHITECTURE section (`ARCHITECTURE "Settings"`), or nothing when the
// sentence gives its reason.
// It reads every file git tracks or would track (new files not yet added count too, ignored ones do
// not): source, tests, browser specs, benchmarks, migrations, scripts, docs, decision records and
// config (Dockerfile, Caddyfile, compose and CI files). It skips binary files (a NUL byte in the
// first 8 KB), node_modules, dist, .git, test-results and the lockfile. Without git (an exported
// tree) it walks the folders instead. ESLint rules cannot see comments, Markdown or config, hence
// this small check. Exits 1 listing file:line.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CITATION = /\b[Ii]ssue \d+/;
const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", "test-results"]);
const SKIPPED_FILES = new Set(["package-lock.json"]);

/** Whether `relative` (slash-separated, from the root) is left out: a skipped folder or file. */
function skipped(relative) {
  const parts = relative.split("/");
  return SKIPPED_FILES.has(parts.at(-1)) || parts.slice(0, -1).some((part) => SKIPPED_DIRS.has(part));
}

/** The files git tracks, and the untracked ones it does not ignore; null when git cannot say. */
function gitFiles() {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) return null;
  return listed.stdout.split("\0").filter(Boolean);
}

/** Every file under `dir` (relative to the root, "" for the root), skipped folders left out. */
function walkedFiles(dir = "") {
  const files = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...walkedFiles(relative));
    } else if (entry.isFile()) {
      files.push(relative);
    }
  }
  return files;
}

/** The file's text, or null when it is binary (a NUL byte early on) or gone (deleted, not staged). */
function textOf(relative) {
  let bytes;
  try {
    bytes = readFileSync(path.join(root, relative));
  } catch {
    return null;
  }
  return bytes.subarray(0, 8192).includes(0) ? null : bytes.toString("utf8");
}

const found = [];
for (const file of (gitFiles() ?? walkedFiles()).filter((f) => !skipped(f)).sort()) {
  const text = textOf(file);
  if (text === null) continue;
  text.split("\n").forEach((line, i) => {
    if (CITATION.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
  });
}

if (found.length > 0) {
  console.error(`Tracker citations (${found.length}): a later reader has no tracker. Say what the number stood`);
  console.error('for: a SPEC section ("SPEC §2.6"), a decision record ("decision 015", docs/decisions/), an');
  console.error('ARCHITECTURE section (ARCHITECTURE "Settings"), or nothing where the sentence gives its reason:');
  for (const hit of found) console.error(`  ${hit}`);
  process.exit(1);
}
