/**
 * Dataset export benchmark (decision 019): how long an export of `--exported` (default 1,000)
 * seeded audios takes on one real Tafsiri server, and how much its resident memory grows while the
 * zip is written. Targets: under a minute, and under 64 MB of RSS growth (the files are streamed
 * into the zip and the zip into storage, never held).
 *
 * The data: `npm run seed`'s project on a temporary database on DATABASE_URL's server (dropped
 * afterwards), with enough audios that at least `--exported` have an approved transcript (the
 * seed approves most older work). PostgreSQL only, as bench/load.ts: the server is a child process
 * (`tsx apps/server/src/server.ts`) and this process seeds and reads the database, which an
 * embedded PGlite cannot share between two processes (without DATABASE_URL it prints why and
 * exits 0). The files of the exported audios are written first under the server's DATA_DIR as
 * the app stores them: each audio and each translated recording a mono 8 kHz WAV of
 * `--audio-seconds` seconds (default 30: about 240 KB each, so 1,000 audios make a zip of about
 * half a GB), each transcript version its text.
 *
 * The run: the seeded first admin signs in (POST /auth/login); a warm-up export of an empty period
 * runs first (lazy imports, the first queries); then the resident memory of the server process
 * is watched (bench/support/rss-watch.ts: VmHWM reset, VmRSS sampled every 20 ms) while
 * `POST /api/exports` starts the export of every audio with an approved transcript (both
 * categories, `status: approved_transcript`), polled with `GET /api/exports` every 200 ms until it
 * is ready; the time runs from the POST to the first answer saying ready. Then the same choice
 * again: nothing changed, so the ready zip is offered again (timed too). The zip is read back
 * through its download link and its size checked against the export's.
 *
 * Prints the audios, files and MB written, the time, MB/s, the server's CPU time and RSS growth,
 * and a PASS or FAIL line per target; exits 1 when one fails.
 *
 * Usage: npm run bench -- export [--exported 1000] [--audio-seconds 30] [--staff 20]
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { createLocalStorage } from "@tafsiri/api";
import { wholeNumber } from "./support/args";
import { restSignIn } from "./support/rest-sign-in";
import { cpuTimeMs, startChild, stopChild, type ChildServer } from "./support/child-process";
import { watchRss } from "./support/rss-watch";
import { toneWav, writeSeedFiles } from "./support/seed-files";
import { describeSeed, seedProject } from "./support/seed-project";
import { onTemporaryDatabase } from "./support/temporary-database";
import { timedSeconds } from "./support/measure";

const { values } = parseArgs({
  options: {
    exported: { type: "string", default: "1000" },
    "audio-seconds": { type: "string", default: "30" },
    staff: { type: "string", default: "20" },
  },
});
const EXPORTED = wholeNumber("exported", values.exported, 1);
const AUDIO_SECONDS = wholeNumber("audio-seconds", values["audio-seconds"], 1);
const STAFF = wholeNumber("staff", values.staff, 1);
/** Targets: the export's time (s) for EXPORTED audios, and the server's RSS growth (MB), under. */
const MAX_SECONDS = 60;
const MAX_RSS_GROWTH_MB = 64;
const SERVER_SCRIPT = "apps/server/src/server.ts";
const ADMIN = { email: "bench-admin@example.test", username: "bench-admin", password: "Bench#2026x" };
const MB = 1024 * 1024;

interface RestExport {
  _id: string;
  state: string;
  done: number;
  total: number;
  size_bytes: number | null;
  reused_archive: boolean;
  download_url: string | null;
  error: string | null;
}

/** Starts an export of `choice` and polls until it is no longer running; resolves to it and its time (ms). */
async function exportOnce(
  baseUrl: string,
  token: string,
  choice: Record<string, unknown>,
): Promise<{ item: RestExport; ms: number }> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const start = performance.now();
  const res = await fetch(`${baseUrl}/api/exports`, { method: "POST", headers, body: JSON.stringify(choice) });
  const body = (await res.json()) as { export?: RestExport; message?: string };
  if (res.status !== 202 || !body.export) throw new Error(`POST /api/exports answered ${res.status}: ${body.message}`);
  const id = body.export._id;
  for (;;) {
    const page = await fetch(`${baseUrl}/api/exports?limit=10`, { headers });
    const list = (await page.json()) as { exports: RestExport[] };
    const item = list.exports.find((e) => e._id === id);
    if (!item) throw new Error(`export ${id} is not listed`);
    if (item.state !== "running") return { item, ms: performance.now() - start };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The bytes of the zip behind a download link (streamed and counted, not kept). */
async function downloadedBytes(baseUrl: string, link: string): Promise<number> {
  const res = await fetch(`${baseUrl}${link}`);
  if (!res.ok || !res.body) throw new Error(`GET ${link} answered ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
  return bytes;
}

async function run(): Promise<void> {
  await onTemporaryDatabase(async ({ bench, where, db, dataDir }) => {
    // The seed approves most older transcripts: a margin over EXPORTED.
    const audios = Math.ceil(EXPORTED * 1.6);
    const { seconds } = await timedSeconds(() =>
      seedProject(db, { audios, staff: STAFF, staffPassword: ADMIN.password, admin: ADMIN }),
    );
    console.log(`Seeded ${audios.toLocaleString("en")} audios, ${STAFF} staff in ${seconds.toFixed(0)} s:`);
    for (const line of await describeSeed(db)) console.log(`  ${line}`);
    const { rows } = await sql<{ audioId: string }>`
      select t.audio_id from submissions s join tasks t on t.id = s.task_id
      where s.translation_script_approval_status = 'Approved' and s.translation_script is not null
      order by t.audio_id`.execute(db);
    const ids = rows.map((r) => r.audioId);
    if (ids.length < EXPORTED) throw new Error(`only ${ids.length} audios have an approved transcript`);
    const wavs = { audio: toneWav(AUDIO_SECONDS, 440), recording: toneWav(AUDIO_SECONDS, 660) };
    const written = await timedSeconds(() =>
      writeSeedFiles(db, createLocalStorage(path.join(dataDir, "files")), ids, () => undefined, wavs),
    );
    console.log(
      `Wrote the files of the ${ids.length.toLocaleString("en")} audios with an approved transcript: ` +
        `${written.value.files.toLocaleString("en")} files, ${(written.value.bytes / MB).toFixed(0)} MB in ` +
        `${written.seconds.toFixed(0)} s`,
    );

    let server: ChildServer | undefined;
    try {
      server = await startChild(SERVER_SCRIPT, {
        DATA_DIR: dataDir,
        DATABASE_URL: bench.url,
        JWT_SECRET: randomBytes(32).toString("hex"),
        RATE_LIMIT_PER_USER: "0",
        RATE_LIMIT_PER_ADDRESS: "0",
      });
      const token = await restSignIn(server.baseUrl, ADMIN);
      const warmUp = await exportOnce(server.baseUrl, token, {
        approved_from: "2000-01-01",
        approved_to: "2000-01-02",
      });
      if (warmUp.item.state !== "ready") throw new Error(`the warm-up export ended ${warmUp.item.state}`);

      console.log(
        `\nExport: every audio with an approved transcript (${ids.length.toLocaleString("en")}), ` +
          `${AUDIO_SECONDS} s WAVs; ${where}; ${os.cpus().length} cores, Node ${process.version}; ` +
          `load average ${os
            .loadavg()
            .map((n) => n.toFixed(2))
            .join(", ")}`,
      );
      const choice = { status: "approved_transcript", category: "both" };
      const rss = watchRss(server.pid);
      const cpuBefore = cpuTimeMs(server.pid);
      const first = await exportOnce(server.baseUrl, token, choice);
      const cpuMs = cpuTimeMs(server.pid) - cpuBefore;
      const peakMb = rss.stop();
      if (first.item.state !== "ready") throw new Error(`the export ended ${first.item.state}: ${first.item.error}`);
      const zipBytes = await downloadedBytes(server.baseUrl, first.item.download_url!);
      if (zipBytes !== first.item.size_bytes)
        throw new Error(`the zip has ${zipBytes} bytes, the export says ${first.item.size_bytes}`);
      const again = await exportOnce(server.baseUrl, token, choice);

      const s = first.ms / 1000;
      const growth = peakMb - rss.baselineMb;
      console.log(
        `  audios exported:    ${first.item.done.toLocaleString("en")} of ${first.item.total.toLocaleString("en")}`,
      );
      console.log(`  zip:                ${(zipBytes / MB).toFixed(0)} MB (read back through its link)`);
      console.log(`  time:               ${s.toFixed(1)} s, ${(zipBytes / MB / s).toFixed(0)} MB/s`);
      console.log(`  server CPU:         ${(cpuMs / 1000).toFixed(1)} s`);
      console.log(
        `  server RSS:         ${rss.baselineMb.toFixed(0)} MB before, peak ${peakMb.toFixed(0)} MB ` +
          `(growth ${growth.toFixed(1)} MB${rss.hwmReset ? "" : ", sampled: VmHWM could not be reset"})`,
      );
      console.log(
        `  the same again:     ${(again.ms / 1000).toFixed(2)} s (${again.item.reused_archive ? "the zip offered again" : "written anew"})`,
      );
      const verdicts: Array<[boolean, string]> = [
        [
          first.item.done >= EXPORTED && s < MAX_SECONDS,
          `an export of ${first.item.done.toLocaleString("en")} audios (target: at least ${EXPORTED.toLocaleString("en")}) ` +
            `in ${s.toFixed(1)} s (target: under ${MAX_SECONDS} s)`,
        ],
        [
          growth < MAX_RSS_GROWTH_MB,
          `server RSS growth ${growth.toFixed(1)} MB (target: under ${MAX_RSS_GROWTH_MB} MB)`,
        ],
        [again.item.reused_archive, "a second export of the same choice, nothing changed, offers the same zip again"],
      ];
      console.log("");
      for (const [passed, text] of verdicts) console.log(`${passed ? "PASS" : "FAIL"} ${text}`);
      if (verdicts.some(([passed]) => !passed)) process.exitCode = 1;
    } finally {
      if (server) await stopChild(server);
    }
  });
}

if (!process.env.DATABASE_URL) {
  // Skipped, not failed: `npm run bench` runs every benchmark, the others on PGlite too.
  console.log(
    "Skipped: bench/export.ts needs PostgreSQL. Set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres; a " +
      "temporary database is created on that server). The server runs as a child process while this benchmark seeds " +
      "and reads the database, which the embedded PGlite cannot share between two processes.",
  );
} else {
  await run();
}
