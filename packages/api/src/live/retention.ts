import type { Database } from "@tafsiri/db";
import { deleteEventsCreatedBefore } from "@tafsiri/db/repositories/events";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Decision 004: deletes live events older than `retentionDays` days before `now`, so
 * the events table does not grow without end. A client resuming from an older id then gets the
 * events that are kept; the web client refetches its views whenever a subscription (re)starts,
 * so nothing it shows depends on the pruned ones. Notifications have their own table and are
 * not touched. Returns how many events were deleted.
 */
export function pruneEvents(db: Database, retentionDays: number, now: Date = new Date()): Promise<number> {
  return deleteEventsCreatedBefore(db, new Date(now.getTime() - retentionDays * DAY_MS));
}
