import type { Executor } from "../connection";
import { sql } from "kysely";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";

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
 * A place in a recipient's list (SPEC §2.3 'Show older'): the (created_at, id) of the last entry
 * shown. `createdAt` is the exact timestamptz as text (microseconds), never a JS Date, which would
 * drop the microseconds and show an entry of the same millisecond twice or never.
 */
export interface NotificationKey {
  createdAt: string;
  id: string;
}

/** A page of a recipient's notifications (listForRecipient). */
export interface NotificationPage {
  rows: NotificationRow[];
  /** The key of the last row when older notifications follow, else null. */
  next: NotificationKey | null;
  /** The recipient's unread notifications, all pages together. */
  unreadCount: number;
}

/**
 * The `limit` newest notifications of `recipientId` older than `before` (all when null), newest
 * first, each with whether its audio still exists (left join on audios), and the recipient's
 * unread count, in one query ("count left join lateral page"): the count kept in list_counts
 * (unread:<id>), the page a keyset walk of notifications_recipient_order_idx (recipient_id,
 * created_at, id) that reads `limit + 1` rows to learn whether an older page follows.
 */
export async function listForRecipient(
  db: Executor,
  recipientId: string,
  q: { limit: number; before: NotificationKey | null },
): Promise<NotificationPage> {
  let page = db
    .selectFrom("notifications")
    .leftJoin("audios", "audios.id", "notifications.audioId")
    .select([
      "notifications.id",
      "notifications.message",
      "notifications.link",
      "notifications.audioId",
      "notifications.isRead",
      "notifications.createdAt",
      sql<string>`to_char(notifications.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        "createdAtKey",
      ),
      "audios.id as existingAudioId",
    ])
    .where("notifications.recipientId", "=", recipientId);
  if (q.before) {
    const { createdAt, id } = q.before;
    page = page.where(
      sql<boolean>`(notifications.created_at, notifications.id) < (${createdAt}::timestamptz, ${id}::uuid)`,
    );
  }
  page = page
    .orderBy("notifications.createdAt", "desc")
    .orderBy("notifications.id", "desc")
    .limit(q.limit + 1);
  const rows = await db
    .selectFrom(countOfKey(db, LIST_COUNT_KEYS.unread(recipientId)).as("c"))
    .leftJoinLateral(page.as("p"), (join) => join.onTrue())
    .selectAll("p")
    .select("c.total")
    .orderBy(sql.ref("p.createdAt"), "desc")
    .orderBy(sql.ref("p.id"), "desc")
    .execute();
  const unreadCount = Number(rows[0]?.total ?? 0);
  const found = rows.filter((r) => r.id !== null);
  const shown = found.slice(0, q.limit);
  const last = shown.at(-1);
  return {
    rows: shown.map((r) => ({
      id: r.id!,
      message: r.message!,
      link: r.link!,
      audioId: r.audioId,
      isRead: r.isRead!,
      createdAt: r.createdAt!,
      audioAvailable: r.existingAudioId !== null,
    })),
    next: found.length > q.limit && last ? { createdAt: last.createdAtKey!, id: last.id! } : null,
    unreadCount,
  };
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

/**
 * Marks every unread notification of `recipientId` read (SPEC §2.3 'Mark all as read'), in one
 * statement over notifications_recipient_order_idx; the list_counts trigger zeroes unread:<id>.
 * Answers how many changed.
 */
export async function markAllReadForRecipient(db: Executor, recipientId: string): Promise<number> {
  const result = await db
    .updateTable("notifications")
    .set({ isRead: true })
    .where("recipientId", "=", recipientId)
    .where("isRead", "=", false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
