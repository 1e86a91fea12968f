import type { Executor } from "../connection";

export interface NotificationContent {
  senderId: string | null;
  message: string;
  link: string;
  audioId: string | null;
}

/** A notification row as written: what its live event carries. */
export interface InsertedNotification {
  id: string;
  recipientId: string;
  message: string;
  link: string;
  audioId: string | null;
  isRead: boolean;
  createdAt: Date;
}

const RETURNED = ["id", "recipientId", "message", "link", "audioId", "isRead", "createdAt"] as const;

/**
 * Inserts one unread notification per active Admin (index users_role_idx) in a single
 * statement. Returns the rows written.
 */
export async function insertForActiveAdmins(
  db: Executor,
  content: NotificationContent,
): Promise<InsertedNotification[]> {
  return db
    .insertInto("notifications")
    .columns(["recipientId", "senderId", "message", "link", "audioId"])
    .expression((eb) =>
      eb
        .selectFrom("users")
        .select((s) => [
          "users.id",
          s.cast<string | null>(s.val(content.senderId), "uuid").as("senderId"),
          s.val(content.message).as("message"),
          s.val(content.link).as("link"),
          s.cast<string | null>(s.val(content.audioId), "uuid").as("audioId"),
        ])
        .where("users.role", "=", "Admin")
        .where("users.active", "=", true),
    )
    .returning(RETURNED)
    .execute();
}

/** Inserts one unread notification for `recipientId`. Returns the row written. */
export async function insertNotification(
  db: Executor,
  content: NotificationContent & { recipientId: string },
): Promise<InsertedNotification> {
  return db.insertInto("notifications").values(content).returning(RETURNED).executeTakeFirstOrThrow();
}
