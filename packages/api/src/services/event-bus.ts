import type { Database } from "@tafsiri/db";
import { listenForEvents, type EventChannelListener } from "@tafsiri/db/event-channel";
import { latestEventId, readEventsAfter, type EventRow } from "@tafsiri/db/repositories/events";

/** Someone listening to the bus: a user's subscription or WebSocket connection. */
export interface EventSubscriber {
  userId: string;
  /** Admins also receive the 'admins' audience. */
  isAdmin: boolean;
  /** Called synchronously, in id order, once per event that reaches this user. */
  deliver(event: EventRow): void;
}

/**
 * One per process (AppDeps.events): reads committed events in id order and hands each to the
 * subscribers it reaches (issue 3).
 */
export interface EventBus {
  /**
   * New events may have committed: runs one query for the events after the last one seen and
   * dispatches them. Pokes during a read are coalesced into one more read. Never throws.
   */
  poke(): void;
  /** Adds a subscriber; returns the function that removes it. */
  subscribe(subscriber: EventSubscriber): () => void;
  /** Resolves once every poke made so far has been dispatched (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops listening (closes the LISTEN connection); later pokes do nothing. */
  close(): Promise<void>;
}

/** Events read per query. */
const BATCH = 500;

/**
 * Creates the process's event bus, starting after the newest stored event. With `databaseUrl`
 * (PostgreSQL) it also LISTENs on the event channel with a dedicated connection and pokes itself
 * on every notification, so changes committed by other processes reach this process's
 * subscribers; with PGlite, events stay in the process. `onError` hears failed reads (the next
 * poke retries) and lost LISTEN connections (reopened).
 */
export async function createEventBus(opts: {
  db: Database;
  databaseUrl?: string | undefined;
  onError?: (error: unknown) => void;
}): Promise<EventBus> {
  const byUser = new Map<string, Set<EventSubscriber>>();
  const admins = new Set<EventSubscriber>();
  let lastSeen = await latestEventId(opts.db);
  let reading: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const dispatch = (event: EventRow) => {
    const targets = event.audience === "admins" ? admins : byUser.get(event.recipientId ?? "");
    if (!targets) return;
    for (const subscriber of [...targets]) {
      try {
        subscriber.deliver(event);
      } catch (error) {
        opts.onError?.(error);
      }
    }
  };

  const drain = async () => {
    for (;;) {
      const rows = await readEventsAfter(opts.db, lastSeen, BATCH);
      for (const row of rows) {
        lastSeen = row.id;
        dispatch(row);
      }
      if (rows.length < BATCH) return;
    }
  };

  const poke = () => {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = drain()
      .catch((error: unknown) => opts.onError?.(error))
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          poke();
        }
      });
  };

  let channel: EventChannelListener | null = null;
  if (opts.databaseUrl) channel = await listenForEvents(opts.databaseUrl, poke, { onError: opts.onError });

  return {
    poke,
    subscribe(subscriber) {
      const set = byUser.get(subscriber.userId) ?? new Set<EventSubscriber>();
      set.add(subscriber);
      byUser.set(subscriber.userId, set);
      if (subscriber.isAdmin) admins.add(subscriber);
      return () => {
        set.delete(subscriber);
        if (set.size === 0 && byUser.get(subscriber.userId) === set) byUser.delete(subscriber.userId);
        admins.delete(subscriber);
      };
    },
    async idle() {
      while (reading) await reading;
    },
    async close() {
      closed = true;
      await channel?.close();
      while (reading) await reading;
    },
  };
}
