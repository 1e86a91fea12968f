import { z } from "zod";
import { ZId } from "./common";

/** A notification as the bell shows it (SPEC §2.3, §3). */
export const ZNotificationItem = z.object({
  id: z.string(),
  message: z.string(),
  link: z.string(),
  /** The audio it is about; null when it names none ('The audio ID is invalid.'). */
  audioId: z.string().nullable(),
  /** False once the audio has been deleted ('(Audio no longer available)'). */
  audioAvailable: z.boolean(),
  isRead: z.boolean(),
  /** ISO time. */
  createdAt: z.string(),
});
export type NotificationItem = z.infer<typeof ZNotificationItem>;

/** The 400 message for a cursor this server did not hand out. */
export const MALFORMED_CURSOR = "The cursor is malformed.";

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * SPEC §2.3 'Show older': the cursor of the entry after which a page starts, opaque to callers:
 * base64url of "<created_at with microseconds, UTC>_<id>" (NotificationKey). Answers null for
 * anything else, including a time that is no calendar time, so nothing malformed reaches SQL.
 */
export function decodeNotificationCursor(cursor: string): { createdAt: string; id: string } | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const [createdAt = "", id = "", ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("_");
  if (rest.length > 0 || !CURSOR_TIME.test(createdAt) || !CURSOR_ID.test(id)) return null;
  const ms = Date.parse(createdAt.slice(0, 23) + "Z");
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== createdAt.slice(0, 19)) return null;
  return { createdAt, id: id.toLowerCase() };
}

/** The cursor of a NotificationKey (decodeNotificationCursor reads it back). */
export function encodeNotificationCursor(key: { createdAt: string; id: string }): string {
  return Buffer.from(`${key.createdAt}_${key.id}`, "utf8").toString("base64url");
}

/** A cursor as an input: at most 200 characters, one this server handed out (400 otherwise). */
const ZNotificationCursor = z
  .string({ error: MALFORMED_CURSOR })
  .max(200, MALFORMED_CURSOR)
  .refine((c) => decodeNotificationCursor(c) !== null, MALFORMED_CURSOR);

/**
 * `limit` newest notifications (20 by default, at most 100), or with `cursor` (a `nextCursor`
 * answered before) the `limit` after it; `userId`, when given, must be the caller's own id.
 */
export const ZListNotificationsInput = z
  .object({
    limit: z.number().int().min(1).max(100).default(20),
    cursor: ZNotificationCursor.nullish(),
    userId: z.string().optional(),
  })
  .prefault({});

export const ZNotificationList = z.object({
  items: z.array(ZNotificationItem),
  unreadCount: z.number().int(),
  /** The cursor of the next (older) page; null when this page ends the list. */
  nextCursor: z.string().nullable(),
});
export type NotificationList = z.infer<typeof ZNotificationList>;

/** 'Mark all as read': how many of the caller's notifications turned Read. */
/** SPEC §2.3 'Mark all as read': what was said and how many notifications turned Read. */
export const ZMarkAllReadOutput = z
  .object({ message: z.string(), count: z.number().int() })
  .meta({ examples: [{ message: "All notifications marked as read.", count: 3 }] });

export const ZMarkReadInput = z.object({ id: ZId });
/** SPEC §4: what marking one notification Read says. */
export const ZMarkReadOutput = z.object({ message: z.string() });

/** SPEC §3 payload when creating: senderId, message, link, audioId, and toAdmins or recipientId. */
export const ZCreateNotificationInput = z.object({
  senderId: z.string({ error: "senderId is required." }),
  message: z
    .string({ error: "Message is required." })
    .trim()
    .min(1, "Message is required.")
    .max(1000, "Message is too long."),
  /** A path inside the app (starts with a single '/'), so the bell never leads elsewhere. */
  link: z
    .string({ error: "The link must be a path inside the app." })
    .regex(/^\/(?!\/)/, "The link must be a path inside the app.")
    .max(500),
  audioId: ZId.nullable().optional(),
  toAdmins: z.boolean({ error: "toAdmins must be true or false." }).optional(),
  recipientId: z.string({ error: "recipientId must be a string." }).optional(),
});
export type CreateNotificationInput = z.infer<typeof ZCreateNotificationInput>;
export const ZCreateNotificationOutput = z.object({ count: z.number().int(), message: z.string() });
