import type { Executor } from "../connection";

export interface NotificationContent {
  senderId: string | null;
  message: string;
  link: string;
  audioId: string | null;
}

/**
 * Inserts one unread notification per active Admin (index users_role_idx) in a single
 * statement. Returns the number of rows written.
 */
export async function insertForActiveAdmins(db: Executor, content: NotificationContent): Promise<number> {
  const result = await db
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
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
