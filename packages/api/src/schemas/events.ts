import { z } from "zod";
import { ZNotificationItem } from "./notifications";

/** What a live event reports (decision 004). */
export const LIVE_EVENT_KINDS = [
  "notification.created",
  "audio.changed",
  "audio.deleted",
  "user.deactivated",
  "session.ended",
  "export.changed",
] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/**
 * Every kind of event recorded: the live ones, and 'session.renewed', which only the server's
 * WebSocket sessions act on (a renewed token keeps the user's open sockets open) and which is
 * never sent to a client, and 'token.revoked' (decision 036: the sockets opened with that API
 * token close), likewise server-side only.
 */
export type RecordedEventKind = LiveEventKind | "session.renewed" | "token.revoked";

/**
 * One event of `events.onEvent` (the data of a tracked event whose tracking id is `id`):
 * 'notification.created' carries the new notification as the bell shows it; 'audio.changed' /
 * 'audio.deleted' name the audio whose task, transcript, recording or assignment changed (or
 * that was deleted) so views refetch it; 'user.deactivated' and 'session.ended' (every session of
 * the user older than the event was ended: 'Sign out everywhere', a password change or reset,
 * reactivation) end the subscription, and the client signs out. 'export.changed' (admins only,
 * decision 019): a dataset export started, moved on, finished or failed; the Export page refetches.
 */
export const ZLiveEvent = z.object({
  /** Increasing decimal id; pass the last one seen as lastEventId to resume. */
  id: z.string(),
  kind: z.enum(LIVE_EVENT_KINDS),
  audioId: z.string().nullable(),
  notification: ZNotificationItem.nullable(),
  /** ISO time the change committed. */
  at: z.string(),
});
export type LiveEvent = z.infer<typeof ZLiveEvent>;

export const INVALID_EVENT_ID = "lastEventId must be an event id.";

/** `lastEventId`: resume after this event (the client's wsLink sends it on reconnect). */
export const ZOnEventInput = z
  .object({
    lastEventId: z
      .string()
      .regex(/^\d{1,18}$/, INVALID_EVENT_ID)
      .nullish(),
  })
  .prefault({});
