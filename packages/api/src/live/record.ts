import type { EventAudience, Executor } from "@tafsiri/db";
import { audioStaffIds, insertEvents, lockEventOrder } from "@tafsiri/db/repositories/events";
import type { InsertedNotification } from "@tafsiri/db/repositories/notifications";
import type { AppDeps } from "../context";
import type { RecordedEventKind } from "../schemas/events";

/** One event to record: who it reaches ('admins': every active admin; 'user': recipientId). */
export interface EventToRecord {
  audience: EventAudience;
  recipientId?: string | null;
  audioId?: string | null;
  kind: RecordedEventKind;
  payload?: Record<string, unknown>;
}

/**
 * Records live events in the caller's transaction, so they commit (or roll back) with the change
 * they report (decision 004). Takes the event-order lock first (ids commit in id order) and queues the
 * PostgreSQL NOTIFY that wakes every process's event bus at commit. After the commit the caller
 * pokes its own bus: `deps.events.poke()`.
 */
export async function recordEvent(trx: Executor, events: EventToRecord | EventToRecord[]): Promise<void> {
  const list = Array.isArray(events) ? events : [events];
  if (list.length === 0) return;
  await lockEventOrder(trx);
  await insertEvents(
    trx,
    list.map((e) => ({
      audience: e.audience,
      recipientId: e.recipientId ?? null,
      audioId: e.audioId ?? null,
      kind: e.kind,
      payload: e.payload ?? {},
    })),
  );
}

/** The 'notification.created' event of a notification row, for its recipient. */
export function notificationEvent(row: InsertedNotification): EventToRecord {
  return {
    audience: "user",
    recipientId: row.recipientId,
    audioId: row.audioId,
    kind: "notification.created",
    payload: {
      id: row.id,
      message: row.message,
      link: row.link,
      audioId: row.audioId,
      isRead: row.isRead,
      createdAt: row.createdAt.toISOString(),
    },
  };
}

/** The staff who may open an audio (assignee and recommendation recipients): its 'user' audience. */
export function audioAudience(trx: Executor, audioId: string): Promise<string[]> {
  return audioStaffIds(trx, audioId);
}

/**
 * Records that an audio's task, transcript, recording or assignment changed ('audio.changed') or
 * that it was deleted ('audio.deleted'): one event for the admins and one for each staff member
 * who may open it. `staffIds` replaces the looked-up audience (deletion looks it up before the
 * rows go); `alsoTo` adds users (the previous assignee on reassignment). Call it last in the
 * transaction, after the change.
 */
export async function recordAudioEvent(
  trx: Executor,
  kind: "audio.changed" | "audio.deleted",
  audioId: string,
  opts: { staffIds?: string[]; alsoTo?: string[] } = {},
): Promise<void> {
  const staff = new Set([...(opts.staffIds ?? (await audioAudience(trx, audioId))), ...(opts.alsoTo ?? [])]);
  await recordEvent(trx, [
    { audience: "admins", audioId, kind },
    ...[...staff].map((recipientId): EventToRecord => ({ audience: "user", recipientId, audioId, kind })),
  ]);
}

/**
 * Awaits a change's transaction and, once it has committed, pokes the event bus so the events it
 * recorded reach subscribers now, and wakes the webhook delivery job (decision 037) so the webhook
 * events it wrote are sent now. A failed change pokes nothing (its events rolled back).
 */
export async function publishAfter<T>(deps: Pick<AppDeps, "events" | "webhooks">, change: Promise<T>): Promise<T> {
  const result = await change;
  deps.events.poke();
  deps.webhooks?.wake();
  return result;
}
