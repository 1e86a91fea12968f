import { sweepStoredFiles, sweepTempFiles, timeJob, type FileStorage, type JobLocks } from "@tafsiri/api";
import type { Database } from "@tafsiri/db";
import { runHourly, skipReason, type JobLog } from "./hourly-job";

/**
 * Sweeps left-over files now and then every hour (the crash sweep, decision 014): temp entries and stored
 * files no row points at, each older than an hour (sweepFiles, in its two parts). Each round logs
 * one info line with the counts and the names removed ("file sweep: removed …"); a failure is
 * logged as an error and retried at the next round.
 *
 * Several instances (decision 015): every process sweeps its own temp folder (DATA_DIR is each
 * instance's own) every round; the shared part (unfinished multipart uploads, stored files no row
 * points at: a listing of the whole bucket) runs only in the process holding the `file-sweep` job
 * lock, and the others log `file sweep: removed N temp file(s); stored files skipped, another
 * process runs this job`. Returns the function that stops it (awaiting a round in progress).
 */
export function sweepFilesHourly(
  deps: { db: Database; storage: FileStorage; locks: JobLocks },
  log: JobLog,
): () => Promise<void> {
  const sweepRound = async (): Promise<void> => {
    const now = new Date();
    const tempFiles = await sweepTempFiles(deps.storage, { now });
    const shared = await deps.locks.runRound("file-sweep", () => sweepStoredFiles(deps, { now }));
    if (!shared.ran) {
      log.info(
        { tempFiles },
        `file sweep: removed ${tempFiles.length} temp file(s); stored files skipped, ${skipReason(shared)}`,
      );
      return;
    }
    const removedTemp = [...tempFiles, ...shared.value.aborted];
    const { files } = shared.value;
    log.info(
      { tempFiles: removedTemp, files },
      `file sweep: removed ${removedTemp.length} temp file(s) and ${files.length} stored file(s) no row points at`,
    );
  };
  return runHourly({
    label: "file sweep",
    log,
    // Each round counts as one sweep run, ok or failed (decision 028).
    round: () => timeJob("sweep", sweepRound),
  });
}
