import type { FastifyBaseLogger } from "fastify";
import { sweepFiles, type FileStorage } from "@tafsiri/api";
import type { Database } from "@tafsiri/db";

/** How often the file sweep runs after the one at start. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Issue 10 Build 5: sweeps left-over files now and then every hour (sweepFiles: temp entries and
 * stored files no row points at, each older than an hour). Each round logs one info line with
 * the counts and the names removed ("file sweep: removed …"); a failure is logged as an error
 * and retried at the next round. Returns the function that stops it (awaiting a round in
 * progress). The timer does not keep the process alive.
 */
export function sweepFilesHourly(
  deps: { db: Database; storage: FileStorage },
  log: FastifyBaseLogger,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const round = () => {
    running = sweepFiles(deps).then(
      ({ tempFiles, files }) =>
        log.info(
          { tempFiles, files },
          `file sweep: removed ${tempFiles.length} temp file(s) and ${files.length} stored file(s) no row points at`,
        ),
      (error: unknown) => log.error({ err: error }, "file sweep failed"),
    );
  };
  round();
  const timer = setInterval(round, SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
