import { setImmediate as nextTurn } from "node:timers/promises";
import { tracked, type TrackedEnvelope } from "@trpc/server";
import type { EventRow } from "@tafsiri/db/repositories/events";
import type { Context, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { LIVE_EVENT_KINDS, type LiveEvent, type LiveEventKind } from "../schemas/events";
import type { NotificationItem } from "../schemas/notifications";
import { BACKLOG_PAGE, readBacklogPage } from "./backlog-reads";
import { shareSerialization } from "./serialize-once";
import { endsSession, SESSION_ENDED } from "./session-events";

/** Missed events a resuming subscription sends in one turn of the event loop. */
const BACKLOG_TURN = 20;

/** The message that ends a deactivated user's subscription (UNAUTHORIZED). */
const ACCOUNT_DEACTIVATED = "Your account has been deactivated.";

function isLiveEventKind(kind: string): kind is LiveEventKind {
  return (LIVE_EVENT_KINDS as readonly string[]).includes(kind);
}

/** The notification a 'notification.created' event carries, as the bell shows it. */
function notificationOf(row: EventRow): NotificationItem | null {
  if (row.kind !== "notification.created") return null;
  const p = row.payload as Partial<Record<keyof NotificationItem, unknown>>;
  return {
    id: String(p.id),
    message: String(p.message),
    link: String(p.link),
    audioId: typeof p.audioId === "string" ? p.audioId : null,
    audioAvailable: row.audioAvailable,
    isRead: p.isRead === true,
    createdAt: String(p.createdAt),
  };
}

/** A stored event as `events.onEvent` sends it (ZLiveEvent); null for a kind this server does not know. */
function toLiveEvent(row: EventRow): LiveEvent | null {
  if (!isLiveEventKind(row.kind)) return null;
  return {
    id: row.id,
    kind: row.kind,
    audioId: row.audioId,
    notification: notificationOf(row),
    at: row.createdAt.toISOString(),
  };
}

/** Live events of the rows the bus hands out: every subscriber a row reaches shares one event. */
const liveEvents = new WeakMap<EventRow, LiveEvent | null>();

/** `toLiveEvent(row)`, made once per row and serialized once for all its subscribers. */
function sharedLiveEvent(row: EventRow): LiveEvent | null {
  let event = liveEvents.get(row);
  if (event === undefined) {
    event = toLiveEvent(row);
    if (event) shareSerialization(event);
    liveEvents.set(row, event);
  }
  return event;
}

/** a > b for event ids (decimal strings without leading zeros). */
function isAfter(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

/**
 * `events.onEvent` (decision 004): the caller's live events as tracked events (tracking id = event id).
 * Registers with the bus first (buffering), then, when `lastEventId` is given, yields the
 * caller's events after it from the table (theirs, and the admins' when they are an admin; read
 * a page at a time through readBacklogPage, bounded and shared, decision 013), then
 * the live ones, each once and in id order. An event that ends the caller's session (decision 012:
 * a 'user.deactivated', or a 'session.ended' newer than the session of `deps.session`)
 * is yielded and then ends the stream with UNAUTHORIZED 'Your account has been deactivated.' or
 * 'Your session has ended. Please sign in again.'; a 'session.ended' of an older session is
 * skipped. Ends quietly when `signal` aborts (the client unsubscribed or the socket closed).
 */
export async function* streamLiveEvents(
  deps: Pick<Context, "db" | "events" | "session">,
  user: SessionUser,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<TrackedEnvelope<LiveEvent>, void, unknown> {
  // A caller made in code has no token: any session event ends its stream.
  const sessionVersion = deps.session?.version ?? 0;
  /** The error ending the stream after `row`, or null when the stream goes on (a stale session event is skipped: undefined). */
  const endingOf = (row: EventRow): AppError | null | undefined => {
    if (row.kind !== "user.deactivated" && row.kind !== "session.ended") return null;
    if (!endsSession(row, sessionVersion)) return undefined;
    return new AppError("UNAUTHORIZED", row.kind === "user.deactivated" ? ACCOUNT_DEACTIVATED : SESSION_ENDED);
  };
  const isAdmin = user.role === "Admin";
  const queue: EventRow[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = deps.events.subscribe({
    userId: user.id,
    isAdmin,
    deliver(row) {
      queue.push(row);
      wake?.();
    },
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  let last = lastEventId ? String(BigInt(lastEventId)) : null;
  try {
    if (last !== null) {
      while (!signal?.aborted) {
        const rows = await readBacklogPage(deps.db, { afterId: last, userId: user.id, isAdmin });
        for (const [index, row] of rows.entries()) {
          // Lets the server answer others every few events: many subscriptions can get the same page at once.
          if (index > 0 && index % BACKLOG_TURN === 0) await nextTurn();
          last = row.id;
          const ending = endingOf(row);
          if (ending === undefined) continue;
          const event = sharedLiveEvent(row);
          if (event) yield tracked(event.id, event);
          if (ending) throw ending;
        }
        if (rows.length < BACKLOG_PAGE) break;
        await nextTurn();
      }
    }
    while (!signal?.aborted) {
      const row = queue.shift();
      if (!row) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if (last !== null && !isAfter(row.id, last)) continue;
      last = row.id;
      const ending = endingOf(row);
      if (ending === undefined) continue;
      const event = sharedLiveEvent(row);
      if (!event) continue;
      yield tracked(event.id, event);
      if (ending) throw ending;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    unsubscribe();
  }
}
