import {
  listForRecipient,
  markAllReadForRecipient,
  markReadForRecipient,
  type NotificationRow,
} from "@tafsiri/db/repositories/notification-list";
import { findUserRef } from "@tafsiri/db/repositories/users";
import type { AppDeps, SessionUser } from "../context";
import {
  decodeNotificationCursor,
  encodeNotificationCursor,
  MALFORMED_CURSOR,
  type CreateNotificationInput,
  type NotificationItem,
  type NotificationList,
} from "../schemas/notifications";
import { AppError } from "../errors/app-error";
import { isUuid } from "../schemas/common";
import { requireAudioAccess } from "./access";
import { notifyAdmins, notifyUser } from "./notifications";

const NOTIFICATION_NOT_FOUND = "Notification not found.";
const OWN_NOTIFICATIONS_ONLY = "You may only read your own notifications.";
const SENDER_MUST_BE_YOU = "You may only send notifications as yourself.";
const RECIPIENT_REQUIRED = "Choose the recipients: toAdmins or recipientId.";
const RECIPIENT_NOT_FOUND = "The recipient does not exist.";
const SENDER_NOT_FOUND = "The sender does not exist.";
const NOTIFICATION_SENT = "Notification sent.";

/** A stored notification as the API returns it (ZNotificationItem). */
function toNotificationItem(row: NotificationRow): NotificationItem {
  return {
    id: row.id,
    message: row.message,
    link: row.link,
    audioId: row.audioId,
    audioAvailable: row.audioAvailable,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * SPEC §2.3 bell: the caller's `limit` newest notifications (newest first), or with `cursor` the
 * `limit` older than the entry it names ('Show older'), each flagged with whether its audio still
 * exists, the caller's unread count and the next page's cursor (null at the end), in one query.
 * Naming another user in `userId` (the REST path's id) throws FORBIDDEN 'You may only read your
 * own notifications.', admins included: notifications are personal. A cursor this server did not
 * hand out throws BAD_REQUEST 'The cursor is malformed.'.
 */
export async function listNotifications(
  deps: AppDeps,
  user: SessionUser,
  input: { limit: number; cursor?: string | null | undefined; userId?: string | undefined },
): Promise<NotificationList> {
  if (input.userId !== undefined && input.userId !== user.id) {
    throw new AppError("FORBIDDEN", OWN_NOTIFICATIONS_ONLY);
  }
  const before = input.cursor ? decodeNotificationCursor(input.cursor) : null;
  if (input.cursor && !before) throw new AppError("BAD_REQUEST", MALFORMED_CURSOR);
  const page = await listForRecipient(deps.db, user.id, { limit: input.limit, before });
  return {
    items: page.rows.map(toNotificationItem),
    unreadCount: page.unreadCount,
    nextCursor: page.next ? encodeNotificationCursor(page.next) : null,
  };
}

/**
 * SPEC §4: marks one of the caller's notifications Read. Someone else's (or an unknown id)
 * throws NOT_FOUND 'Notification not found.' and changes nothing. Marking twice is fine.
 * Returns the sentence said: `{ message: 'Notification marked as read.' }`.
 */
export async function markNotificationRead(deps: AppDeps, user: SessionUser, id: string): Promise<{ message: string }> {
  const updated = isUuid(id) && (await markReadForRecipient(deps.db, id, user.id));
  if (!updated) throw new AppError("NOT_FOUND", NOTIFICATION_NOT_FOUND);
  return { message: "Notification marked as read." };
}

/**
 * SPEC §2.3 'Mark all as read': every unread notification of the caller turns Read, in one
 * statement; only the caller's own (the recipient is the session's user, never an input).
 * Returns how many changed and the sentence said: `{ message, count }`.
 */
export async function markAllNotificationsRead(
  deps: AppDeps,
  user: SessionUser,
): Promise<{ message: string; count: number }> {
  const count = await markAllReadForRecipient(deps.db, user.id);
  return { message: "All notifications marked as read.", count };
}

/**
 * SPEC §3, §7.1 POST /api/createnotification: sends `message` (linking to `link`, a path in the
 * app) to every active admin (`toAdmins`) or to one existing user (`recipientId`), as `senderId`.
 * Admins may send as anyone; others only as themselves (FORBIDDEN 'You may only send
 * notifications as yourself.') and only about an audio they may open. Throws BAD_REQUEST
 * 'Choose the recipients: toAdmins or recipientId.' or 'The recipient does not exist.'.
 * The rows and their live events commit together; returns how many rows were written.
 */
export async function createNotification(
  deps: AppDeps,
  user: SessionUser,
  input: CreateNotificationInput,
): Promise<{ count: number; message: string }> {
  if (user.role !== "Admin" && input.senderId !== user.id) {
    throw new AppError("FORBIDDEN", SENDER_MUST_BE_YOU);
  }
  const toAdmins = input.toAdmins === true;
  const recipientId = input.recipientId ?? "";
  if (!toAdmins && !recipientId) throw new AppError("BAD_REQUEST", RECIPIENT_REQUIRED);
  const audioId = input.audioId ?? null;
  const count = await deps.db.transaction().execute(async (trx) => {
    const sender = isUuid(input.senderId) ? await findUserRef(trx, input.senderId) : undefined;
    if (!sender) throw new AppError("BAD_REQUEST", SENDER_NOT_FOUND);
    if (audioId !== null && user.role !== "Admin") await requireAudioAccess(trx, user, audioId);
    const content = { senderId: sender.id, message: input.message, link: input.link, audioId };
    if (toAdmins) return notifyAdmins(trx, content);
    const recipient = isUuid(recipientId) ? await findUserRef(trx, recipientId) : undefined;
    if (!recipient) throw new AppError("BAD_REQUEST", RECIPIENT_NOT_FOUND);
    await notifyUser(trx, { ...content, recipientId: recipient.id });
    return 1;
  });
  deps.events.poke();
  return { count, message: NOTIFICATION_SENT };
}
