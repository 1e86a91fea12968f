import type { FastifyRequest } from "fastify";
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

/** `?limit&cursor` of the bell's list: the page size, and where an older page starts ('Show older'). */
const ZNotificationQuery = ZPageQuery.pick({ limit: true }).extend({
  cursor: z
    .string()
    .optional()
    .meta({
      description:
        'Where the page starts: the cursor in the `Link` header\'s rel="next" URL of the page before, opaque. ' +
        "Left out: the newest notifications. 400 'The cursor is malformed.' for any other value.",
    }),
});

/**
 * The root-relative URL of the page after this one (SPEC §2.3 'Show older'): the request's own
 * path and query with `cursor` set, so `limit` is kept; URLSearchParams percent-encodes it.
 */
function nextPageUrl(req: FastifyRequest, cursor: string): string {
  // req.url is the path and query as sent; the base only lets URL parse it.
  const url = new URL(req.url, "http://list.invalid");
  url.searchParams.set("cursor", cursor);
  return `${url.pathname}${url.search}`;
}

const NOTIFICATIONS = ["Notifications"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §7.1 notification paths: the bell's list (paged by cursor), marking one or all read, creating notifications. */
export const notificationRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/fetchnotifications/:userId",
    {
      schema: {
        summary: "List my notifications",
        description:
          "SPEC §2.3, §3, §7.1. Newest first, ?limit (20 by default, at most 100). Paged by cursor: when older " +
          'notifications follow, the `Link` header (RFC 8288) gives the root-relative URL of the next page, rel="next" ' +
          "(the same path and limit with `cursor` set); the last page has no `Link`. Only the caller's own id is " +
          "allowed, admins included (403 'You may only read your own notifications.'). 400 for a limit that is not a " +
          "whole number from 1 to 100 or a malformed cursor, 401 without a session.",
        tags: NOTIFICATIONS,
        security: BEARER,
        params: z.object({ userId: ZPathId }),
        querystring: ZNotificationQuery,
        response: answers(ZRestNotificationList),
      },
    },
    async (req, reply) => {
      const result = await req.caller.notifications.list({
        limit: req.query.limit,
        cursor: req.query.cursor,
        userId: req.params.userId,
      });
      if (result.nextCursor) reply.header("link", `<${nextPageUrl(req, result.nextCursor)}>; rel="next"`);
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
      const { message } = await req.caller.notifications.markRead({ id: req.params.id });
      return { ...DONE, message };
    },
  );

  app.post(
    "/api/createnotification",
    {
      schema: {
        summary: "Create a notification",
        description:
          "SPEC §3, §7.1. To every admin (`toAdmins: true`) or to `recipientId`. Admins may send as anyone, others only " +
          "as themselves (403). 400 for a missing message, a link outside the app, or an unknown sender or recipient (as " +
          "every path answers an unknown user named in a body), 401, 404 for an unknown audio (a staff sender's).",
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
