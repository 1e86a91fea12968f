import type { Database } from "@tafsiri/db";
import { listenForEvents, type EventChannelListener } from "@tafsiri/db/event-channel";
import { latestEventId, readEventsAfter, type EventRow } from "@tafsiri/db/repositories/events";
import { liveEventsDelivered, liveEventsPublished } from "../metrics/live";

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
 * subscribers it reaches (decision 004).
 */
export interface EventBus {
  /**
   * New events may have committed: runs one query for the events after the last one seen and
   * dispatches them. Pokes during a read are coalesced into one more read. Never throws.
   */
  poke(): void;
  /** Adds a subscriber; returns the function that removes it (it is handed nothing more, even mid-dispatch). */
  subscribe(subscriber: EventSubscriber): () => void;
  /** Resolves once every poke made so far has been dispatched (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops listening (closes the LISTEN connection); later pokes do nothing. */
  close(): Promise<void>;
}

/** Events read per query. */
const BATCH = 500;
/** Subscribers handed their events before the bus yields to the event loop. */
const DISPATCH_SLICE = 100;

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

  /** Everyone subscribed right now (a subscriber that left is skipped even mid-dispatch). */
  const subscribed = new Set<EventSubscriber>();

  /**
   * Hands `rows` (in id order) to the subscribers they reach, each subscriber all of its rows at
   * once and in order, DISPATCH_SLICE subscribers at a time: between slices the bus lets the
   * process run (setImmediate), so the messages of a slice go out, and other requests are served,
   * while the next slices are prepared, instead of one long block for every subscriber.
   * Who a row reaches is fixed when the rows are read.
   */
  const dispatch = async (rows: EventRow[]) => {
    const perSubscriber = new Map<EventSubscriber, EventRow[]>();
    for (const row of rows) {
      for (const subscriber of (row.audience === "admins" ? admins : byUser.get(row.recipientId ?? "")) ?? []) {
        const list = perSubscriber.get(subscriber);
        if (list) list.push(row);
        else perSubscriber.set(subscriber, [row]);
      }
    }
    liveEventsPublished.inc(rows.length);
    let handed = 0;
    let delivered = 0;
    for (const [subscriber, list] of perSubscriber) {
      if (handed > 0 && handed % DISPATCH_SLICE === 0) {
        liveEventsDelivered.inc(delivered);
        delivered = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      handed++;
      for (const row of list) {
        if (!subscribed.has(subscriber)) break;
        try {
          subscriber.deliver(row);
          delivered++;
        } catch (error) {
          opts.onError?.(error);
        }
      }
    }
    liveEventsDelivered.inc(delivered);
  };

  const drain = async () => {
    for (;;) {
      const rows = await readEventsAfter(opts.db, lastSeen, BATCH);
      if (rows.length > 0) {
        lastSeen = rows[rows.length - 1]!.id;
        await dispatch(rows);
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
      subscribed.add(subscriber);
      const set = byUser.get(subscriber.userId) ?? new Set<EventSubscriber>();
      set.add(subscriber);
      byUser.set(subscriber.userId, set);
      if (subscriber.isAdmin) admins.add(subscriber);
      return () => {
        subscribed.delete(subscriber);
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
