import type { Database } from "@tafsiri/db";
import { pruneEvents, timeJob, type JobLocks } from "@tafsiri/api";
import { runHourly, skipReason, type JobLog } from "./hourly-job";

/**
 * Prunes live events older than `retentionDays` now and then every hour (EVENT_RETENTION_DAYS),
 * logging `live event retention: deleted N event(s) older than D day(s)`. Failures are logged and
 * retried at the next round. With several server processes on one database only the one holding
 * the `event-retention` job lock prunes; the others log `live event retention: skipped, another
 * process runs this job` (decision 015, openJobLocks). Returns the function that stops it
 * (awaiting a round in progress). The timer does not keep the process alive.
 */
export function keepEventsFor(
  deps: { db: Database; locks: JobLocks },
  retentionDays: number,
  log: JobLog,
): () => Promise<void> {
  const label = "live event retention";
  return runHourly({
    label,
    log,
    round: async () => {
      // A round that prunes here counts as one retention run, ok or failed (decision 028).
      const outcome = await deps.locks.runRound("event-retention", () =>
        timeJob("retention", () => pruneEvents(deps.db, retentionDays)),
      );
      if (!outcome.ran) log.info(`${label}: skipped, ${skipReason(outcome)}`);
      else log.info(`${label}: deleted ${outcome.value} event(s) older than ${retentionDays} day(s)`);
    },
  });
}
