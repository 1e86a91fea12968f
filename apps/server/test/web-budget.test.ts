import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_WEB_DIST } from "../src/app";

// What a phone on a slow link (Chromium's "Fast 3G", 1.6 Mbit/s) fetches to show the sign-in
// page, as served (brotli, the build's `.br` files), stays within a budget; so does every lazily loaded chunk.
// It reads the build `npm test` makes first (scripts/test.mjs) through Vite's manifest (vite.config.ts).

const KiB = 1024;
/** The sign-in page's JavaScript and CSS, compressed, all together. */
const SIGN_IN_BUDGET = 200 * KiB;
/** Any one lazily loaded file, compressed. */
const LAZY_CHUNK_BUDGET = 250 * KiB;
const ENTRY = "index.html";
const SIGN_IN_ROUTE = "src/app/routes/signin.tsx";
/** Text each heavy library leaves in its JavaScript (our CSS names some of their classes): none may reach the sign-in page. */
const HEAVY = { editor: "ProseMirror", waveform: "wavesurfer", charts: "recharts" };
/**
 * A class of each feature's own stylesheet (apps/web/src/features/<feature>/<feature>.css) and of the shared
 * stylesheets only signed-in pages load (apps/web/src/styles/): none may reach the sign-in page's CSS.
 */
const FEATURE_CLASSES = {
  dashboard: ".dash-card",
  exports: ".export-fieldset",
  accounts: ".account-card",
  logs: ".logs-filters",
  participants: ".participant-fieldset",
  submissions: ".submissions-table",
  management: ".management-menu",
  "audio management": ".audio-subnav",
  feedback: ".comment-list",
  notifications: ".notification-menu",
  search: ".search-dialog",
  shell: ".shell-sidebar",
  "audio player": ".audio-player-controls",
  "task cards": ".task-card-title",
  "not-found page": ".not-found-code",
};

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const manifestPath = path.join(DEFAULT_WEB_DIST, ".vite/manifest.json");
if (!existsSync(manifestPath)) {
  throw new Error(`No ${manifestPath}: build the web app first (npm run build, or npm test, which builds it).`);
}
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;

/** The files (JS and CSS, relative to dist) that loading `keys` fetches: their chunks, static imports and CSS. */
function filesLoadedBy(keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest has no ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

/** The bytes a browser accepting brotli receives for `file`: its `.br` twin, or the file when the build made none. */
function servedBytes(file: string): number {
  const br = path.join(DEFAULT_WEB_DIST, `${file}.br`);
  return readFileSync(existsSync(br) ? br : path.join(DEFAULT_WEB_DIST, file)).length;
}

const kib = (bytes: number) => `${(bytes / KiB).toFixed(1)} KiB`;

describe("web app budget", () => {
  const signInFiles = [...filesLoadedBy([ENTRY, SIGN_IN_ROUTE])].sort();
  const startup = filesLoadedBy([ENTRY]);
  const lazyFiles = [...new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]))]
    .filter((file) => !startup.has(file))
    .map((file) => ({ file, bytes: servedBytes(file), raw: readFileSync(path.join(DEFAULT_WEB_DIST, file)).length }))
    .sort((a, b) => b.bytes - a.bytes);

  it(`keeps the sign-in page's JavaScript and CSS within ${kib(SIGN_IN_BUDGET)} compressed`, () => {
    const rows = signInFiles.map((file) => ({ file, bytes: servedBytes(file) }));
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    console.info(
      [
        `Sign-in page (${SIGN_IN_ROUTE}), brotli as served:`,
        ...rows.map((row) => `  ${row.file.padEnd(44)} ${kib(row.bytes).padStart(10)}`),
        `  ${"total".padEnd(44)} ${kib(total).padStart(10)} of ${kib(SIGN_IN_BUDGET)}`,
      ].join("\n"),
    );
    expect(signInFiles.some((file) => file.endsWith(".js"))).toBe(true);
    expect(total, `sign-in page ${kib(total)}`).toBeLessThanOrEqual(SIGN_IN_BUDGET);
  });

  it(`keeps every lazily loaded file within ${kib(LAZY_CHUNK_BUDGET)} compressed`, () => {
    console.info(
      [
        "Largest lazily loaded files, brotli as served (raw):",
        ...lazyFiles.slice(0, 5).map((f) => `  ${f.file.padEnd(44)} ${kib(f.bytes).padStart(10)} (${kib(f.raw)})`),
      ].join("\n"),
    );
    expect(lazyFiles.length).toBeGreaterThan(0);
    for (const { file, bytes } of lazyFiles)
      expect(bytes, `${file} ${kib(bytes)}`).toBeLessThanOrEqual(LAZY_CHUNK_BUDGET);
  });

  it("leaves the editor, the waveform and the charts out of the sign-in page", () => {
    const loaded = signInFiles
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(path.join(DEFAULT_WEB_DIST, file), "utf8"))
      .join("\n");
    const everything = Object.values(manifest)
      .map((chunk) => readFileSync(path.join(DEFAULT_WEB_DIST, chunk.file), "utf8"))
      .join("\n");
    for (const [library, marker] of Object.entries(HEAVY)) {
      // The marker must be somewhere in the build, or this check would pass for nothing.
      expect(everything.includes(marker), `${library} (${marker}) is in the build`).toBe(true);
      expect(loaded.includes(marker), `${library} (${marker}) is loaded by the sign-in page`).toBe(false);
    }
  });

  it("leaves the other features' styles out of the sign-in page's CSS", () => {
    const cssOf = (files: string[]) =>
      files
        .filter((file) => file.endsWith(".css"))
        .map((file) => readFileSync(path.join(DEFAULT_WEB_DIST, file), "utf8"))
        .join("\n");
    const loaded = cssOf(signInFiles);
    const everything = cssOf([...new Set(Object.values(manifest).flatMap((chunk) => chunk.css ?? []))]);
    // A class selector as the minified CSS writes it: not followed by more of a class name.
    const has = (css: string, selector: string) => new RegExp(`${selector.replace(".", "\\.")}(?![\\w-])`).test(css);
    expect(has(loaded, ".auth-card"), "the sign-in page's own styles are loaded").toBe(true);
    for (const [feature, selector] of Object.entries(FEATURE_CLASSES)) {
      // The class must be somewhere in the build's CSS, or this check would pass for nothing.
      expect(has(everything, selector), `${feature} (${selector}) is in the build's CSS`).toBe(true);
      expect(has(loaded, selector), `${feature} (${selector}) is loaded by the sign-in page`).toBe(false);
    }
  });
});
