import type { Database } from "@tafsiri/db";
import { deleteEventsCreatedBefore } from "@tafsiri/db/repositories/events";
import { deleteSettledWebhookEventsBefore } from "@tafsiri/db/repositories/webhooks";

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

/**
 * Decision 037: deletes webhook events older than `retentionDays` days before `now` whose
 * deliveries are all settled (delivered or given up; a disabled endpoint's waiting ones are kept),
 * with their deliveries and attempts, so the delivery logs do not grow without end. Their retries
 * end after 24 hours, well inside the retention. Returns how many events were deleted.
 */
export function pruneWebhookEvents(db: Database, retentionDays: number, now: Date = new Date()): Promise<number> {
  return deleteSettledWebhookEventsBefore(db, new Date(now.getTime() - retentionDays * DAY_MS));
}
