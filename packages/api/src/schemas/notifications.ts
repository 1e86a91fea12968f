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

/** `limit` newest notifications (20 by default); `userId`, when given, must be the caller's own id. */
export const ZListNotificationsInput = z
  .object({
    limit: z.number().int().min(1).max(100).default(20),
    userId: z.string().optional(),
  })
  .prefault({});
export type ListNotificationsInput = z.infer<typeof ZListNotificationsInput>;

export const ZNotificationList = z.object({ items: z.array(ZNotificationItem), unreadCount: z.number().int() });
export type NotificationList = z.infer<typeof ZNotificationList>;

export const ZMarkReadInput = z.object({ id: ZId });
export const ZOkOutput = z.object({ ok: z.literal(true) });

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
