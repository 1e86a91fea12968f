/**
 * Oral translation benchmark (decision 035; ARCHITECTURE "Long recordings and the corpus"): how
 * long the server takes to assemble an hour of spoken takes into the translated recording, and how
 * much its resident memory grows meanwhile.
 *
 * The takes are made here: one sentence spoken by espeak-ng (22,050 Hz mono WAV, as the browser
 * records takes), padded with silence by sox to `--take-seconds` (default 3.6), then stored
 * `--takes` times (default 1,000: 60 minutes in all) under different keys in a temporary local
 * storage. Then `assembleRecording` (packages/api/src/takes/assemble-recording.ts), in this
 * process, writes them with `--gap-ms` (default 300) of silence between consecutive takes into one
 * 16 kHz mono WAV, while process.memoryUsage().rss is sampled every 100 ms (its worker thread is
 * part of this process).
 *
 * Targets: the assembly under 30 s of wall time; RSS growth (the largest sample minus the one
 * before the assembly) under 100 MB; the output's duration (soxi's, and the function's own) equal
 * to takes × take + (takes − 1) × gap within 1 s. Prints the figures and PASS or FAIL per target,
 * and exits 1 when one fails. MB are 2^20 bytes.
 *
 * Usage: npm run bench -- oral-translation [--takes 1000] [--take-seconds 3.6] [--gap-ms 300]
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs, promisify } from "node:util";
import { createLocalStorage } from "../packages/api/src/storage/file-storage";
import { assembleRecording } from "../packages/api/src/takes/assemble-recording";
import { wholeNumber } from "./support/args";
import { Verdicts } from "./support/targets";

const { values } = parseArgs({
  options: {
    takes: { type: "string", default: "1000" },
    "take-seconds": { type: "string", default: "3.6" },
    "gap-ms": { type: "string", default: "300" },
  },
});
const TAKES = wholeNumber("takes", values.takes, 1);
const GAP_MS = wholeNumber("gap-ms", values["gap-ms"], 0);
const TAKE_SECONDS = Number(values["take-seconds"]);
if (!(TAKE_SECONDS >= 0.5))
  throw new Error(`--take-seconds must be a number of at least 0.5 (got ${values["take-seconds"]}).`);
/** Targets: wall time (s) and RSS growth (MB) under; the output's duration within (s). */
const MAX_SECONDS = 30;
const MAX_RSS_GROWTH_MB = 100;
const DURATION_TOLERANCE_S = 1;
/** How often the resident set size is sampled, ms. */
const RSS_EVERY_MS = 100;
const MB = 1024 * 1024;
const SENTENCE = "My grandmother used to grow tomatoes in the garden";

const run = promisify(execFile);
const verdicts = new Verdicts();
/** Seconds of the audio file `file`, as soxi reads them. */
async function soxSeconds(file: string): Promise<number> {
  const { stdout } = await run("soxi", ["-D", file]);
  return Number(stdout.trim());
}

const dir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-oral-translation-"));

try {
  // One take: the sentence, padded with silence and cut to TAKE_SECONDS.
  const made = performance.now();
  const spoken = path.join(dir, "spoken.wav");
  const take = path.join(dir, "take.wav");
  await run("espeak-ng", ["-w", spoken, SENTENCE]);
  // -V1: sox would warn that trim ended the stream before all of the pad was written.
  await run("sox", ["-V1", spoken, take, "pad", "0", String(TAKE_SECONDS), "trim", "0", String(TAKE_SECONDS)]);
  const takeSeconds = await soxSeconds(take);
  const storage = createLocalStorage(path.join(dir, "files"));
  const bytes = readFileSync(take);
  const keys: string[] = [];
  for (let i = 0; i < TAKES; i++) {
    const key = `takes/take-${String(i).padStart(5, "0")}.wav`;
    await storage.put(key, bytes);
    keys.push(key);
  }
  console.log(
    `${TAKES} takes of ${takeSeconds.toFixed(3)} s (22,050 Hz mono WAV, ${(bytes.length / 1024).toFixed(0)} KB each; ` +
      `${((TAKES * takeSeconds) / 60).toFixed(1)} minutes in all) made and stored in ${((performance.now() - made) / 1000).toFixed(1)} s`,
  );

  // The assembly, with RSS sampled meanwhile.
  const outputPath = path.join(dir, "assembled.wav");
  const rssStart = process.memoryUsage().rss;
  let rssMax = rssStart;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), RSS_EVERY_MS);
  const started = performance.now();
  let result;
  try {
    result = await assembleRecording(
      storage,
      keys.map((fileKey) => ({ fileKey, mimeType: "audio/wav" })),
      { gapMs: GAP_MS, outputPath },
    );
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  rssMax = Math.max(rssMax, process.memoryUsage().rss);
  const growthMb = (rssMax - rssStart) / MB;
  const outputSeconds = await soxSeconds(outputPath);
  const expectedSeconds = TAKES * takeSeconds + ((TAKES - 1) * GAP_MS) / 1000;
  const lastSpan = result.spans.at(-1);

  console.log(
    `\nAssembled with ${GAP_MS} ms gaps into a ${(statSync(outputPath).size / MB).toFixed(1)} MB 16 kHz mono WAV:`,
  );
  console.log(
    `  wall time        ${seconds.toFixed(2)} s (${((TAKES * takeSeconds) / seconds).toFixed(0)} s of takes a second)`,
  );
  console.log(
    `  RSS              ${(rssStart / MB).toFixed(0)} MB before, ${(rssMax / MB).toFixed(0)} MB at most: +${growthMb.toFixed(1)} MB`,
  );
  console.log(
    `  duration         soxi ${outputSeconds.toFixed(3)} s, assembleRecording ${(result.durationMs / 1000).toFixed(3)} s, ` +
      `expected ${expectedSeconds.toFixed(3)} s; last span ${lastSpan?.startMs}–${lastSpan?.endMs} ms`,
  );

  const durationOff = Math.max(
    Math.abs(outputSeconds - expectedSeconds),
    Math.abs(result.durationMs / 1000 - expectedSeconds),
  );
  const checks: [string, boolean][] = [
    [`assembly of ${TAKES} takes under ${MAX_SECONDS} s (${seconds.toFixed(2)} s)`, seconds < MAX_SECONDS],
    [`RSS growth under ${MAX_RSS_GROWTH_MB} MB (${growthMb.toFixed(1)} MB)`, growthMb < MAX_RSS_GROWTH_MB],
    [
      `duration within ${DURATION_TOLERANCE_S} s of ${TAKES} × take + ${TAKES - 1} × gap (off by ${(durationOff * 1000).toFixed(0)} ms)`,
      durationOff <= DURATION_TOLERANCE_S && result.spans.length === TAKES,
    ],
  ];
  console.log("\nTargets:");
  for (const [label, ok] of checks) console.log(`  ${verdicts.record(label, ok, ok ? "PASS" : "FAIL")}  ${label}`);
  verdicts.finish();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
