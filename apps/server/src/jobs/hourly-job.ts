import type { FastifyBaseLogger } from "fastify";
import type { JobRound } from "@tafsiri/api";

/** How often the hourly jobs run after the round at start. */
export const HOURLY_MS = 60 * 60 * 1000;

/** The lines a job's rounds log. */
export type JobLog = Pick<FastifyBaseLogger, "info" | "error">;

/**
 * Runs `round` now and then every `everyMs` (an hour). A failed round logs `{label} failed` as an
 * error and the next round retries; a round due while the previous one still runs is skipped with
 * the info line `{label}: skipped, the previous round is still running`. Returns the function that
 * stops it (awaiting a round in progress). The timer does not keep the process alive.
 */
export function runHourly(opts: {
  label: string;
  log: JobLog;
  round: () => Promise<void>;
  everyMs?: number;
}): () => Promise<void> {
  const { label, log } = opts;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) {
      log.info(`${label}: skipped, the previous round is still running`);
      return;
    }
    running = opts
      .round()
      .catch((error: unknown) => log.error({ err: error }, `${label} failed`))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, opts.everyMs ?? HOURLY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Why a round's job did not run here (decision 015): another process holds the job's lock and
 * runs it (see openJobLocks), or this process's previous round of it still runs.
 */
export function skipReason(outcome: JobRound<unknown> & { ran: false }): string {
  return outcome.reason === "elsewhere" ? "another process runs this job" : "the previous round is still running";
}
