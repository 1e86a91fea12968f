import type { Executor } from "@tafsiri/db";
import {
  insertForActiveAdmins,
  insertNotification,
  type NotificationContent,
} from "@tafsiri/db/repositories/notifications";
import { notificationEvent, recordEvent } from "../live/record";

/** Screens notifications link to (SPEC §2.1 routes, spelling as given). */

/**
 * SPEC §4: one unread notification row for every active admin (the sender included), each with
 * its 'notification.created' live event, written in the caller's transaction so they commit with
 * the change they announce (the caller pokes the event bus after the commit). Returns the row count.
 */
export async function notifyAdmins(
  trx: Executor,
  content: { senderId: string | null; message: string; link: string; audioId: string | null },
): Promise<number> {
  const rows = await insertForActiveAdmins(trx, content);
  await recordEvent(trx, rows.map(notificationEvent));
  return rows.length;
}

/**
 * SPEC §3, §4: one unread notification for `recipientId` with its 'notification.created' live
 * event, in the caller's transaction (the caller pokes the event bus after the commit).
 * Returns the notification's id.
 */
export async function notifyUser(
  trx: Executor,
  content: NotificationContent & { recipientId: string; senderId: string | null },
): Promise<{ id: string }> {
  const row = await insertNotification(trx, content);
  await recordEvent(trx, notificationEvent(row));
  return { id: row.id };
}
