import { authedProcedure, router } from "../trpc";
import {
  ZCreateNotificationInput,
  ZCreateNotificationOutput,
  ZListNotificationsInput,
  ZMarkReadInput,
  ZNotificationList,
  ZOkOutput,
} from "../schemas/notifications";
import { createNotification, listNotifications, markNotificationRead } from "../services/notification-list";

export const notificationsRouter = router({
  /**
   * SPEC §2.3 bell: `{ items, unreadCount }`, the caller's `limit` (20) newest notifications, newest
   * first, each with `audioAvailable`. `userId`, when given, must be the caller's (FORBIDDEN otherwise).
   */
  list: authedProcedure
    .input(ZListNotificationsInput)
    .output(ZNotificationList)
    .query(({ ctx, input }) => listNotifications(ctx, ctx.user, input)),
  /** SPEC §4: marks one of the caller's notifications Read → `{ ok: true }`; others' ids NOT_FOUND. */
  markRead: authedProcedure
    .input(ZMarkReadInput)
    .output(ZOkOutput)
    .mutation(({ ctx, input }) => markNotificationRead(ctx, ctx.user, input.id)),
  /**
   * SPEC §3, §7.1 POST /api/createnotification: to every active admin (`toAdmins`) or one user
   * (`recipientId`); admins send as anyone, others as themselves. → `{ count, message }`.
   */
  create: authedProcedure
    .input(ZCreateNotificationInput)
    .output(ZCreateNotificationOutput)
    .mutation(({ ctx, input }) => createNotification(ctx, ctx.user, input)),
});
