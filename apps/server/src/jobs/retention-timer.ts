import type { Database } from "@tafsiri/db";
import { pruneEvents, pruneWebhookEvents, timeJob, type JobLocks } from "@tafsiri/api";
import { runHourly, skipReason, type JobLog } from "./hourly-job";

/**
 * Prunes live events older than `retentionDays` now and then every hour (EVENT_RETENTION_DAYS), and
 * settled webhook events as old with their delivery logs (decision 037), logging `live event
 * retention: deleted N event(s) and W webhook event(s) older than D day(s)`. Failures are logged and
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
        timeJob("retention", async () => ({
          events: await pruneEvents(deps.db, retentionDays),
          webhookEvents: await pruneWebhookEvents(deps.db, retentionDays),
        })),
      );
      if (!outcome.ran) log.info(`${label}: skipped, ${skipReason(outcome)}`);
      else {
        const { events, webhookEvents } = outcome.value;
        log.info(
          `${label}: deleted ${events} event(s) and ${webhookEvents} webhook event(s) older than ${retentionDays} day(s)`,
        );
      }
    },
  });
}
