import { authedProcedure, router } from "../trpc";
import {
  ZCreateNotificationInput,
  ZCreateNotificationOutput,
  ZListNotificationsInput,
  ZMarkAllReadOutput,
  ZMarkReadInput,
  ZNotificationList,
  ZMarkReadOutput,
} from "../schemas/notifications";
import {
  createNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from "../services/notification-list";

export const notificationsRouter = router({
  /**
   * SPEC §2.3 bell: `{ items, unreadCount, nextCursor }`, the caller's `limit` (20) newest
   * notifications, newest first, each with `audioAvailable`; with `cursor` (a `nextCursor`) the
   * next older page ('Show older'; BAD_REQUEST for a malformed cursor). `userId`, when given, must
   * be the caller's (FORBIDDEN otherwise).
   */
  list: authedProcedure
    .input(ZListNotificationsInput)
    .output(ZNotificationList)
    .query(({ ctx, input }) => listNotifications(ctx, ctx.user, input)),
  /** SPEC §4: marks one of the caller's notifications Read → `{ message }`; others' ids NOT_FOUND. */
  markRead: authedProcedure
    .input(ZMarkReadInput)
    .output(ZMarkReadOutput)
    .mutation(({ ctx, input }) => markNotificationRead(ctx, ctx.user, input.id)),
  /** SPEC §2.3 'Mark all as read': the caller's unread notifications turn Read → `{ message, count }`. */
  markAllRead: authedProcedure
    .meta({
      rest: {
        method: "PUT",
        path: "/api/markAllNotificationsAsRead",
        summary: "Mark all my notifications read",
        description:
          "SPEC §2.3. Every unread notification of the caller becomes Read, nobody else's; `count` says how many " +
          "changed (0 when none was unread). 401 without a session.",
        tags: ["Notifications"],
        done: true,
      },
    })
    .output(ZMarkAllReadOutput)
    .mutation(({ ctx }) => markAllNotificationsRead(ctx, ctx.user)),
  /**
   * SPEC §3, §7.1 POST /api/createnotification: to every active admin (`toAdmins`) or one user
   * (`recipientId`); admins send as anyone, others as themselves. → `{ count, message }`.
   */
  create: authedProcedure
    .input(ZCreateNotificationInput)
    .output(ZCreateNotificationOutput)
    .mutation(({ ctx, input }) => createNotification(ctx, ctx.user, input)),
});
