import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ZCreateNotificationInput, ZId } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { DONE, EXAMPLE_ID, EXAMPLE_USER_ID, ZPageQuery, ZPathId, ZRestDone, answers } from "./shapes/common";
import { ZRestNotificationList, restNotification } from "./shapes/notifications";

/** An optional id that may also come as "" or null (none). */
const ZOptionalId = z
  .union([z.literal(""), ZId])
  .nullable()
  .optional();

const ZCreateNotificationBody = ZCreateNotificationInput.extend({
  audioId: ZOptionalId,
  recipientId: ZOptionalId,
}).meta({
  examples: [
    {
      senderId: EXAMPLE_USER_ID,
      message: "amina uploaded a new transcript for interview-07",
      link: "/audiomanagement/trascript",
      audioId: EXAMPLE_ID,
      toAdmins: true,
    },
  ],
});

const ZCreated = ZRestDone.extend({ count: z.number().int() }).meta({
  examples: [{ ...DONE, message: "Notification sent.", count: 2 }],
});

const NOTIFICATIONS = ["Notifications"];
const BEARER = [{ bearerAuth: [] }];

/** SPEC §7.1 notification paths: the bell's list, marking one read, creating notifications. */
export const notificationRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/fetchnotifications/:userId",
    {
      schema: {
        summary: "List my notifications",
        description:
          "SPEC §2.3, §3, §7.1. Newest first, ?limit (20 by default). Only the caller's own id is allowed, admins " +
          "included (403 'You may only read your own notifications.'). 401 without a session.",
        tags: NOTIFICATIONS,
        security: BEARER,
        params: z.object({ userId: ZPathId }),
        querystring: ZPageQuery.pick({ limit: true }),
        response: answers(ZRestNotificationList),
      },
    },
    async (req) => {
      const result = await req.caller.notifications.list({ limit: req.query.limit, userId: req.params.userId });
      return result.items.map(restNotification);
    },
  );

  app.put(
    "/api/markNotificationAsRead/:id",
    {
      schema: {
        summary: "Mark a notification read",
        description:
          "SPEC §4, §7.1. Unread becomes Read. Someone else's or an unknown id: 404 'Notification not found.'. 400 'Unknown id.', 401.",
        tags: NOTIFICATIONS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: answers(ZRestDone.meta({ examples: [{ ...DONE, message: "Notification marked as read." }] })),
      },
    },
    async (req) => {
      await req.caller.notifications.markRead({ id: req.params.id });
      return { ...DONE, message: "Notification marked as read." };
    },
  );

  app.post(
    "/api/createnotification",
    {
      schema: {
        summary: "Create a notification",
        description:
          "SPEC §3, §7.1. To every admin (`toAdmins: true`) or to `recipientId`. Admins may send as anyone, others only " +
          "as themselves (403). 400 for a missing message or a link outside the app, 401, 404 for an unknown recipient.",
        tags: NOTIFICATIONS,
        security: BEARER,
        body: ZCreateNotificationBody,
        response: answers(ZCreated),
      },
    },
    async (req) => {
      const { audioId, recipientId } = req.body;
      const out = await req.caller.notifications.create({
        ...req.body,
        audioId: audioId || null,
        recipientId: recipientId || undefined,
      });
      return { ...DONE, message: out.message, count: out.count };
    },
  );
};
