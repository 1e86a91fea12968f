import { LRUCache } from "lru-cache";
import pLimit from "p-limit";
import { readUserEventsAfter, type EventRow } from "@tafsiri/db/repositories/events";
import type { Context } from "../context";

/** Missed events read per backlog query. */
export const BACKLOG_PAGE = 100;

/** Backlog queries one database handle runs at once; the others wait their turn (decision 013). */
const BACKLOG_READS_AT_ONCE = 2;

/** How long a full page stays shared after its read, and how many pages at most. */
const SHARED_PAGE_MS = 5_000;
const SHARED_PAGES = 500;

/** Which page of missed events: the events after `afterId` that reach `userId`. */
export interface BacklogQuery {
  afterId: string;
  userId: string;
  isAdmin: boolean;
}

type Rows = readonly EventRow[];

/** A read in flight or done; `startedAt` is the tick its query was sent (null while it waits its turn). */
interface PageRead {
  rows: Promise<Rows>;
  startedAt: number | null;
}

type BacklogReader = (q: BacklogQuery) => Promise<Rows>;

const readers = new WeakMap<Context["db"], BacklogReader>();

function createReader(db: Context["db"]): BacklogReader {
  const limit = pLimit(BACKLOG_READS_AT_ONCE);
  const reads = new LRUCache<string, PageRead>({ max: SHARED_PAGES, ttl: SHARED_PAGE_MS });
  let tick = 0;

  const start = (key: string, q: BacklogQuery): PageRead => {
    const read: PageRead = { rows: Promise.resolve([]), startedAt: null };
    read.rows = limit(() => {
      read.startedAt = ++tick;
      return readUserEventsAfter(db, { ...q, limit: BACKLOG_PAGE });
    });
    reads.set(key, read);
    // Only a full page is final (ids commit in id order); a short one is not shared once done.
    read.rows.then(
      (rows) => rows.length < BACKLOG_PAGE && reads.get(key) === read && reads.delete(key),
      () => reads.get(key) === read && reads.delete(key),
    );
    return read;
  };

  return async (q) => {
    const key = `${q.userId}|${q.isAdmin}|${q.afterId}`;
    const askedAt = ++tick;
    const shared = reads.get(key);
    if (!shared) return start(key, q).rows;
    const rows = await shared.rows;
    // A short page read before the caller asked may miss an event the caller's bus subscription
    // did not hear either (it committed in between): read again. A full page is final.
    if (rows.length === BACKLOG_PAGE || (shared.startedAt !== null && shared.startedAt > askedAt)) return rows;
    return (reads.get(key) ?? start(key, q)).rows;
  };
}

/**
 * One page (at most BACKLOG_PAGE rows, by id) of the events after `q.afterId`
 * that reach `q.userId` (readUserEventsAfter), for a subscription that resumes. The caller must
 * be subscribed to the bus before it asks, as streamLiveEvents is. Reads are bounded and shared
 * per database handle: at most BACKLOG_READS_AT_ONCE queries run at once, so a flood of resuming
 * subscriptions cannot take every connection of the pool; a caller asking for a page that is being
 * read, or that was read full in the last few seconds, gets those rows (every tab and subscription
 * of a user resuming from the same event costs one query), except a short page whose query was
 * sent before the caller asked, which it reads again. The rows are shared between callers and must
 * not be changed. Rejects with the driver's error.
 */
export function readBacklogPage(db: Context["db"], q: BacklogQuery): Promise<Rows> {
  let reader = readers.get(db);
  if (!reader) {
    reader = createReader(db);
    readers.set(db, reader);
  }
  return reader(q);
}
