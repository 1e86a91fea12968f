import type { Database } from "@tafsiri/db";
import { pruneEvents } from "@tafsiri/api";

/** How often old live events are pruned. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Prunes live events older than `retentionDays` now and then every hour (EVENT_RETENTION_DAYS).
 * Failures go to `onError` and are retried at the next round. Returns the function that stops
 * it (awaiting a round in progress). The timer does not keep the process alive.
 */
export function keepEventsFor(
  db: Database,
  retentionDays: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const round = () => {
    running = pruneEvents(db, retentionDays).catch(onError);
  };
  round();
  const timer = setInterval(round, PRUNE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
