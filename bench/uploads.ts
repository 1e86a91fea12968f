/**
 * Upload benchmark: how fast a large audio goes through the real upload route, and
 * how much memory the server takes for it, against a plain server that only writes the file.
 *
 * One run starts two child processes side by side:
 *  - the real Tafsiri server (`tsx apps/server/src/server.ts`, fresh DATA_DIR under the system's
 *    temporary directory; its embedded PGlite, or a fresh temporary database on DATABASE_URL's
 *    PostgreSQL server, dropped afterwards), signed in as the first admin it creates at start
 *    (POST /auth/login); each upload is `POST /api/audios/upload/AUDIO` with the field
 *    `category` then the file part `file`, as the web app sends it, under a new name each time;
 *    the server streams it to DATA_DIR/files/.tmp, sniffs its type from its content, moves it
 *    into place and commits the audio's row;
 *  - the floor: a plain Fastify + @fastify/multipart server (bench/support/upload-floor-server.ts)
 *    whose one route pipes the file part to a file on the same disk.
 * The file is a valid WAV of --size-mb MB (a 44-byte RIFF header, then noise), generated streamed
 * into a temporary file; the benchmark sends it with node:http as a browser sends a form, streamed
 * from that file (bench/support/streamed-upload.ts), so neither it nor the generator holds the file
 * in memory. MAX_UPLOAD_BYTES is raised for both servers only when the file is larger than the
 * default 512 MB.
 *
 * Each server first takes one small warm-up upload (so lazy imports, JIT and the first insert are
 * not counted), then --runs uploads each, alternating floor and Tafsiri, one at a time. An
 * upload's time runs from sending the request to reading the whole answer (the file is on disk
 * and, for Tafsiri, its row committed); MB/s is the file's size over that time, and each side's
 * figure is its median. The memory of each server process (tsx runs the script in a node child
 * of its own; that is the process measured) is its VmRSS from /proc/<pid>/status just before its
 * first measured upload (the baseline) and its peak over all of them: VmHWM, reset first through
 * /proc/<pid>/clear_refs so the start's own peak does not count, and never less than VmRSS
 * sampled every 20 ms. Growth = peak − baseline. Server CPU is per upload (/proc/<pid>/stat).
 * MB are 2^20 bytes throughout.
 *
 * Targets: Tafsiri's throughput at least 80% of the floor's, and its RSS growth under 64 MB (the
 * file is streamed, never held). Prints a PASS or FAIL line for each and exits 1 when one fails.
 * The machine's load average is printed before and after: a busy machine moves the figures.
 *
 * Usage: npm run bench -- uploads [--size-mb 200] [--runs 3]
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds node options to both servers.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { wholeNumber } from "./support/args";
import { restSignIn } from "./support/rest-sign-in";
import { benchDatabase } from "./support/bench-database";
import { cpuTimeMs, startChild, stopChild, type ChildServer } from "./support/child-process";
import { watchRss, type RssWatch } from "./support/rss-watch";
import { uploadFile, type UploadTiming } from "./support/streamed-upload";
import { silentWav } from "./support/wav";
import { writeWavFile } from "./support/wav-file";

const { values } = parseArgs({
  options: {
    "size-mb": { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
  },
});
const SIZE_MB = wholeNumber("size-mb", values["size-mb"], 1);
const RUNS = wholeNumber("runs", values.runs, 1);
const MB = 1024 * 1024;
const FILE_BYTES = SIZE_MB * MB;
/** The servers' own default upload limit; raised for both only for a larger file. */
const DEFAULT_MAX_UPLOAD_BYTES = 512 * MB;
const MAX_UPLOAD_BYTES = String(Math.max(DEFAULT_MAX_UPLOAD_BYTES, FILE_BYTES + MB));
/** Targets: Tafsiri's MB/s over the floor's, at least; Tafsiri's RSS growth, under (MB). */
const MIN_RATIO = 0.8;
const MAX_RSS_GROWTH_MB = 64;
const SERVER_SCRIPT = "apps/server/src/server.ts";
const FLOOR_SCRIPT = "bench/support/upload-floor-server.ts";
const ADMIN = { email: "bench-admin@example.test", username: "benchadmin", password: "Bench#2026-admin" };

/** One side of the comparison: how to send it an upload and what it measured. */
interface Side {
  name: string;
  server: ChildServer;
  /** Sends upload `i` (−1: the warm-up, with the small file) and checks the answer; throws otherwise. */
  upload(i: number, file: string): Promise<UploadTiming>;
  seconds: number[];
  cpuMs: number[];
  rss?: RssWatch;
  peakMb?: number;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

/** Throws unless an upload was answered 200 and `accepted(body)` holds. */
function expectAccepted(side: string, timing: UploadTiming, accepted: (body: unknown) => boolean): UploadTiming {
  if (timing.status !== 200 || !accepted(timing.body)) {
    throw new Error(`${side} answered ${timing.status}: ${JSON.stringify(timing.body)}`);
  }
  return timing;
}

/** The real server, its first admin signed in; each upload is a new audio named bench_upload_<i>. */
async function tafsiriSide(children: ChildServer[], dataDir: string, databaseUrl: string | undefined): Promise<Side> {
  const server = await startChild(SERVER_SCRIPT, {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    MAX_UPLOAD_BYTES,
  });
  children.push(server);
  const token = await restSignIn(server.baseUrl, ADMIN);
  return {
    name: "Tafsiri POST /api/audios/upload/AUDIO",
    server,
    seconds: [],
    cpuMs: [],
    upload: async (i, file) => {
      const name = i < 0 ? "bench_upload_warmup" : `bench_upload_${i + 1}`;
      const timing = await uploadFile({
        url: `${server.baseUrl}/api/audios/upload/AUDIO`,
        token,
        fields: { category: i % 2 === 0 ? "Control" : "Dementia" },
        file,
        filename: `${name}.wav`,
        contentType: "audio/wav",
      });
      return expectAccepted("Tafsiri", timing, (body) => (body as { filename?: string }).filename === name);
    },
  };
}

/** The plain @fastify/multipart server writing into `uploadDir`. */
async function floorSide(children: ChildServer[], uploadDir: string): Promise<Side> {
  const server = await startChild(FLOOR_SCRIPT, { UPLOAD_DIR: uploadDir, MAX_UPLOAD_BYTES });
  children.push(server);
  return {
    name: "plain @fastify/multipart (floor)",
    server,
    seconds: [],
    cpuMs: [],
    upload: async (i, file) => {
      const timing = await uploadFile({
        url: `${server.baseUrl}/upload`,
        fields: { category: "Control" },
        file,
        contentType: "audio/wav",
      });
      const expected = statSync(file).size;
      return expectAccepted("the floor", timing, (body) => (body as { bytes?: number }).bytes === expected);
    },
  };
}

/** Sends side's measured upload `i` of `file`, noting its time and the server's CPU time. */
async function measuredUpload(side: Side, i: number, file: string): Promise<void> {
  const cpuBefore = cpuTimeMs(side.server.pid);
  const timing = await side.upload(i, file);
  side.cpuMs.push(cpuTimeMs(side.server.pid) - cpuBefore);
  side.seconds.push(timing.ms / 1000);
  const mbPerSecond = SIZE_MB / (timing.ms / 1000);
  console.log(
    `  run ${i + 1}: ${side.name.padEnd(40)} ${(timing.ms / 1000).toFixed(2).padStart(6)} s  ${mbPerSecond.toFixed(1).padStart(6)} MB/s`,
  );
}

/** The number of files of exactly `bytes` bytes under `dir` (recursively). */
function filesOfSize(dir: string, bytes: number): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && statSync(path.join(entry.parentPath, entry.name)).size === bytes,
  ).length;
}

/** The middle value of `samples` (the mean of the two middle ones for an even count). */
function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const medianMbPerSecond = (side: Side) => SIZE_MB / median(side.seconds);

const children: ChildServer[] = [];
const workDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-uploads-"));
const db = await benchDatabase(process.env.DATABASE_URL);
let cleaned: Promise<void> | undefined;
const cleanUp = () => {
  cleaned ??= (async () => {
    await Promise.all(children.map(stopChild));
    await db.drop();
    rmSync(workDir, { recursive: true, force: true });
  })();
  return cleaned;
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void cleanUp().then(() => process.exit(130)));
}

try {
  console.log(
    `Uploads: a ${SIZE_MB} MB WAV, ${RUNS} runs per server alternating floor and Tafsiri; ` +
      `${os.cpus().length} cores, Node ${process.version}, database ${db.label}${db.name ? ` (temporary ${db.name})` : ""}`,
  );
  console.log(`load average (1, 5, 15 min) at the start: ${loadAverage()}`);
  const bigFile = path.join(workDir, "bench-upload.wav");
  const smallFile = path.join(workDir, "bench-warmup.wav");
  const generated = performance.now();
  await writeWavFile(bigFile, FILE_BYTES);
  writeFileSync(smallFile, silentWav());
  console.log(`generated ${bigFile} (${FILE_BYTES} bytes) in ${((performance.now() - generated) / 1000).toFixed(1)} s`);

  const floorDir = path.join(workDir, "floor-uploads");
  const dataDir = path.join(workDir, "tafsiri-data");
  mkdirSync(floorDir);
  const sides = [await floorSide(children, floorDir), await tafsiriSide(children, dataDir, db.url)];
  const [floor, tafsiri] = sides as [Side, Side];

  for (const side of sides) await side.upload(-1, smallFile);
  for (const side of sides) side.rss = watchRss(side.server.pid);
  for (let i = 0; i < RUNS; i++) {
    for (const side of sides) await measuredUpload(side, i, bigFile);
  }
  for (const side of sides) side.peakMb = side.rss!.stop();
  if (!sides.every((side) => side.rss!.hwmReset)) console.log("(VmHWM could not be reset: peaks are sampled VmRSS)");
  console.log(`load average (1, 5, 15 min) at the end: ${loadAverage()}`);
  // ru_maxrss is in kB: the client streamed the file rather than holding it.
  console.log(`this process's peak RSS (the client): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

  const stored = filesOfSize(path.join(dataDir, "files"), FILE_BYTES);
  if (stored !== RUNS) throw new Error(`Tafsiri stored ${stored} files of ${FILE_BYTES} bytes, not ${RUNS}`);

  console.log(
    `\n${"server".padEnd(40)}${"median MB/s".padStart(12)}${"min–max".padStart(16)}${"CPU/upload".padStart(12)}` +
      `${"RSS before".padStart(12)}${"peak".padStart(10)}${"growth".padStart(10)}`,
  );
  for (const side of sides) {
    const rates = side.seconds.map((s) => SIZE_MB / s);
    const growth = side.peakMb! - side.rss!.baselineMb;
    console.log(
      `${side.name.padEnd(40)}${medianMbPerSecond(side).toFixed(1).padStart(12)}` +
        `${`${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)}`.padStart(16)}` +
        `${`${(median(side.cpuMs) / 1000).toFixed(2)} s`.padStart(12)}` +
        `${`${side.rss!.baselineMb.toFixed(0)} MB`.padStart(12)}${`${side.peakMb!.toFixed(0)} MB`.padStart(10)}` +
        `${`${growth.toFixed(1)} MB`.padStart(10)}`,
    );
  }

  const ratio = medianMbPerSecond(tafsiri) / medianMbPerSecond(floor);
  const growth = tafsiri.peakMb! - tafsiri.rss!.baselineMb;
  const ratioMet = ratio >= MIN_RATIO;
  const growthMet = growth < MAX_RSS_GROWTH_MB;
  console.log(
    `\n${ratioMet ? "PASS" : "FAIL"}: throughput Tafsiri / floor = ${(ratio * 100).toFixed(0)}% (target ≥ ${MIN_RATIO * 100}%)`,
  );
  console.log(
    `${growthMet ? "PASS" : "FAIL"}: Tafsiri RSS growth = ${growth.toFixed(1)} MB (target < ${MAX_RSS_GROWTH_MB} MB)`,
  );
  if (!ratioMet || !growthMet) process.exitCode = 1;
} finally {
  await cleanUp();
}
