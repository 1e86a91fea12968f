import type { Executor } from "../connection";
import { LIST_COUNT_KEYS, readListCount } from "./list-counts";

/** A notification as its recipient's bell shows it (SPEC §2.3, §3). */
export interface NotificationRow {
  id: string;
  message: string;
  link: string;
  audioId: string | null;
  /** False when the audio it is about has been deleted (or it names none). */
  audioAvailable: boolean;
  isRead: boolean;
  createdAt: Date;
}

/**
 * The newest `limit` notifications of `recipientId`, newest first (index notifications_recipient_idx),
 * each with whether its audio still exists (left join on audios).
 */
export async function listForRecipient(db: Executor, recipientId: string, limit: number): Promise<NotificationRow[]> {
  const rows = await db
    .selectFrom("notifications")
    .leftJoin("audios", "audios.id", "notifications.audioId")
    .select([
      "notifications.id",
      "notifications.message",
      "notifications.link",
      "notifications.audioId",
      "notifications.isRead",
      "notifications.createdAt",
      "audios.id as existingAudioId",
    ])
    .where("notifications.recipientId", "=", recipientId)
    .orderBy("notifications.createdAt", "desc")
    .orderBy("notifications.id", "desc")
    .limit(limit)
    .execute();
  return rows.map(({ existingAudioId, ...row }) => ({ ...row, audioAvailable: existingAudioId !== null }));
}

/** How many of `recipientId`'s notifications are unread: the count kept in list_counts (unread:<id>). */
export async function countUnread(db: Executor, recipientId: string): Promise<number> {
  return readListCount(db, LIST_COUNT_KEYS.unread(recipientId));
}

/** Marks the notification read if it belongs to `recipientId`; returns false when it does not (or is unknown). */
export async function markReadForRecipient(db: Executor, id: string, recipientId: string): Promise<boolean> {
  const result = await db
    .updateTable("notifications")
    .set({ isRead: true })
    .where("id", "=", id)
    .where("recipientId", "=", recipientId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
