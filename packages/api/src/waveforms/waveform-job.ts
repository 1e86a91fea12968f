import type { Database } from "@tafsiri/db";
import type { JobLocks } from "@tafsiri/db/repositories/job-locks";
import {
  audioIdOfWaveformRow,
  countPendingWaveforms,
  nextPendingWaveform,
  recordWaveform,
  type PendingWaveform,
  type WaveformRowRef,
} from "@tafsiri/db/repositories/waveforms";
import { StoredFileMissingError, type FileStorage } from "../storage/file-storage";
import { computeWaveform, WaveformDecodeError } from "./compute-waveform";
import { peaksKeyOf } from "./peaks-format";
import type { EventBus } from "../live/bus";
import { recordAudioEvent } from "../live/record";
import { jobRun } from "../metrics/jobs";

/** How often the job looks for pending rows when nothing wakes it: 30 s (an upload to another instance). */
const WAVEFORM_POLL_MS = 30_000;

/** Errors in a row (storage or database) after which a round gives up; the next round tries again. */
const ERRORS_IN_A_ROW_BEFORE_PAUSE = 3;

/** How often, at most, a round logs its progress by default: every 5 s. */
const PROGRESS_EVERY_MS = 5_000;

/** Where the job's lines go (a pino logger fits). */
export interface WaveformJobLog {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** What one call of processPendingWaveforms did. */
export interface WaveformRoundReport {
  /** Rows whose peaks were stored and recorded. */
  ready: number;
  /** Rows marked 'failed': the decoder cannot read their file (or it is missing). */
  failed: number;
  /** Rows left pending after a storage or database error (retried at the next round). */
  errors: number;
  /** Rows still pending when the round ended (0 when it found none to start with). */
  remaining: number;
}

/** What the job works with: the database, the storage, and optionally its log and the live-event bus. */
interface WaveformDeps {
  db: Database;
  storage: FileStorage;
  log?: WaveformJobLog;
  /** When given, a recorded waveform is announced live ('audio.changed'), so open players draw it. */
  events?: EventBus;
}

/**
 * Records `outcome` for `ref` in one transaction with an 'audio.changed' event for the audio's
 * audience (when `deps.events` is given), then pokes the bus. Returns recordWaveform's answer.
 */
async function recordOutcome(
  deps: WaveformDeps,
  ref: WaveformRowRef,
  outcome: Parameters<typeof recordWaveform>[2],
): Promise<Awaited<ReturnType<typeof recordWaveform>>> {
  const recorded = await deps.db.transaction().execute(async (trx) => {
    const result = await recordWaveform(trx, ref, outcome);
    if (result !== "recorded" || !deps.events) return result;
    const audioId = await audioIdOfWaveformRow(trx, ref);
    if (audioId) await recordAudioEvent(trx, "audio.changed", audioId);
    return result;
  });
  if (recorded === "recorded") deps.events?.poke();
  return recorded;
}

/** What happened to one row. */
type RowResult = "ready" | "failed" | "error" | "gone" | "stopped";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Decodes one pending row's file, stores its peaks beside it and records the result, only while
 * the row is still pending (a deleted row's peaks file is removed again).
 */
async function processRow(
  deps: WaveformDeps,
  row: PendingWaveform,
  signal: AbortSignal | undefined,
): Promise<RowResult> {
  const ref: WaveformRowRef = { table: row.table, id: row.id };
  try {
    const waveform = await computeWaveform(deps.storage, row.fileKey, row.mimeType, { signal });
    const peaksKey = peaksKeyOf(row.fileKey);
    await deps.storage.put(peaksKey, waveform.peaks);
    const recorded = await recordOutcome(deps, ref, {
      status: "ready",
      peaksKey,
      durationSeconds: waveform.durationSeconds,
      sampleRate: waveform.sampleRate,
      channelCount: waveform.channelCount,
    });
    if (recorded === "gone") await deps.storage.delete(peaksKey);
    return recorded === "recorded" ? "ready" : "gone";
  } catch (error) {
    if (signal?.aborted) return "stopped";
    if (!(error instanceof WaveformDecodeError || error instanceof StoredFileMissingError)) {
      deps.log?.error(`waveforms: ${row.fileKey} left pending for the next round: ${messageOf(error)}`);
      return "error";
    }
    const reason = error instanceof StoredFileMissingError ? "the stored file is missing" : error.message;
    try {
      const recorded = await recordOutcome(deps, ref, { status: "failed" });
      if (recorded !== "recorded") return "gone";
    } catch (recordError) {
      deps.log?.error(`waveforms: ${row.fileKey} left pending for the next round: ${messageOf(recordError)}`);
      return "error";
    }
    deps.log?.warn(`waveforms: cannot decode ${row.fileKey} (${row.mimeType}), marked failed: ${reason}`);
    return "failed";
  }
}

/**
 * ARCHITECTURE "Long recordings and the corpus": computes the waveform of every pending audio and
 * translated recording, one file at a time, oldest first (computeWaveform), stores its peaks under
 * `${fileKey}.peaks.dat` and records status 'ready', the peaks key, duration (seconds), sample rate
 * (Hz) and channel count, only while the row is still pending (the peaks of a row deleted
 * meanwhile are removed again). A file the decoder cannot read (or that is missing) is marked
 * 'failed' with a warning line naming its key and the reason. A storage or database error leaves
 * the row pending, logs an error line, and the round goes on with the next row; after three such
 * errors in a row the round ends (the next round retries). Loops until no pending row is left,
 * `limit` rows were handled, or `signal` aborts (the file in hand stays pending).
 *
 * With `deps.events`, each recorded waveform is announced live ('audio.changed' for the audio's
 * admins and staff), so a player showing 'Waveform is being prepared' draws the peaks at once.
 *
 * Logs, when there was work: how many files are pending at the start, "waveforms: 12 of 340 done"
 * at most every `progressEveryMs` (5 s), and a final line. State lives in the rows, so a round
 * stopped anywhere is resumed by the next, in this process or another. Run it through the job lock
 * (startWaveformJob) so one process does the work. Returns the counts; rejects only when the
 * database cannot be asked for pending rows.
 */
export async function processPendingWaveforms(
  deps: WaveformDeps,
  opts: { limit?: number; signal?: AbortSignal; progressEveryMs?: number } = {},
): Promise<WaveformRoundReport> {
  const report: WaveformRoundReport = { ready: 0, failed: 0, errors: 0, remaining: 0 };
  const total = await countPendingWaveforms(deps.db);
  if (total === 0) return report;
  const started = Date.now();
  const progressEveryMs = opts.progressEveryMs ?? PROGRESS_EVERY_MS;
  let lastProgress = started;
  deps.log?.info(`waveforms: ${total} file(s) to decode`);
  const skip: WaveformRowRef[] = [];
  let done = 0;
  let errorsInARow = 0;
  while (opts.limit === undefined || done < opts.limit) {
    if (opts.signal?.aborted) break;
    const row = await nextPendingWaveform(deps.db, skip);
    if (!row) break;
    const rowStarted = performance.now();
    const result = await processRow(deps, row, opts.signal);
    if (result === "stopped") break;
    // One waveform run per file decoded: ok when its peaks are stored (decision 028).
    jobRun("waveform", result === "ready" ? "ok" : "failed", (performance.now() - rowStarted) / 1000);
    done += 1;
    errorsInARow = result === "error" ? errorsInARow + 1 : 0;
    if (result === "ready") report.ready += 1;
    if (result === "failed") report.failed += 1;
    if (result === "error") {
      report.errors += 1;
      skip.push({ table: row.table, id: row.id });
      if (errorsInARow >= ERRORS_IN_A_ROW_BEFORE_PAUSE) {
        deps.log?.error(`waveforms: ${errorsInARow} files in a row could not be processed; the next round tries again`);
        break;
      }
    }
    if (Date.now() - lastProgress >= progressEveryMs) {
      lastProgress = Date.now();
      const left = await countPendingWaveforms(deps.db).catch(() => null);
      if (left !== null) deps.log?.info(`waveforms: ${done} of ${done + left} done`);
    }
  }
  report.remaining = await countPendingWaveforms(deps.db);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const stopped = opts.signal?.aborted ? ", stopped" : "";
  deps.log?.info(
    `waveforms: ${done} of ${done + report.remaining} done in ${seconds} s (${report.ready} ready, ${report.failed} failed, ` +
      `${report.errors} left pending after errors, ${report.remaining} pending${stopped})`,
  );
  return report;
}

/** A running waveform job. */
export interface WaveformJob {
  /** Starts a round now (or, when one is running, another right after it): a file was stored. */
  wake(): void;
  /** Stops the timer, aborts the file in hand (it stays pending) and resolves once the round has ended. */
  stop(): Promise<void>;
}

/**
 * ARCHITECTURE "Long recordings and the corpus": runs processPendingWaveforms in rounds, at start,
 * whenever `wake()` is called (after an upload) and every `pollMs` (30 s, so an upload received by
 * another instance is picked up), each through `locks.runRound("waveforms", …)`, so one process
 * sharing the database does the work. A round due while one runs starts right after it. A round
 * that fails is logged as an error ("waveforms: round failed: …") and the next retries. The timer
 * does not keep the process alive. Returns wake and stop.
 */
export function startWaveformJob(
  deps: WaveformDeps & { locks: JobLocks; log: WaveformJobLog },
  opts: { pollMs?: number; progressEveryMs?: number } = {},
): WaveformJob {
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;
  const rounds = async () => {
    do {
      again = false;
      try {
        await deps.locks.runRound("waveforms", () =>
          processPendingWaveforms(deps, { signal: stopping.signal, progressEveryMs: opts.progressEveryMs }),
        );
      } catch (error) {
        deps.log.error(`waveforms: round failed: ${messageOf(error)}`);
      }
    } while (again && !stopping.signal.aborted);
  };
  const wake = () => {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = rounds().finally(() => {
      running = null;
    });
  };
  wake();
  const timer = setInterval(wake, opts.pollMs ?? WAVEFORM_POLL_MS);
  timer.unref();
  return {
    wake,
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
