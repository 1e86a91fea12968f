import type { FastifyPluginAsync } from "fastify";
import type { NotificationItem } from "@tafsiri/api/schemas/notifications";
import type { RestOptions } from "../rest";
import { callerFor, pageQuery, restError, sendResult, stringField } from "../../lib/rest-helpers";

/** SPEC §3 Notification: `{ _id, message, link, audioId, is_read, created_at, audioAvailable }`. */
function restNotification(n: NotificationItem) {
  return {
    _id: n.id,
    message: n.message,
    link: n.link,
    audioId: n.audioId,
    is_read: n.isRead,
    created_at: n.createdAt,
    audioAvailable: n.audioAvailable,
  };
}

/** A JSON body field that must be a boolean when present (undefined when absent). */
function booleanField(body: unknown, name: string): boolean | undefined {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw restError("BAD_REQUEST", `${name} must be true or false.`);
  return value;
}

/** A JSON body field that may be absent, null or a string. */
function optionalString(body: unknown, name: string): string | null | undefined {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  if (value === undefined || value === null || value === "") return value === undefined ? undefined : null;
  if (typeof value !== "string") throw restError("BAD_REQUEST", `${name} must be a string.`);
  return value;
}

/**
 * SPEC §7.1 notification paths, mapped onto the notifications procedures: the bell's list,
 * marking one read, and creating notifications.
 */
export const notificationRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps }) => {
  /**
   * GET /api/fetchnotifications/{userId}?limit → array of SPEC §3 notifications, newest first
   * (20 by default). Only the caller's own id is allowed (403 'You may only read your own
   * notifications.', admins included).
   */
  app.get<{ Params: { userId: string } }>("/api/fetchnotifications/:userId", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const { limit } = pageQuery(req.query);
      const result = await caller.notifications.list({ limit, userId: req.params.userId });
      return result.items.map(restNotification);
    }),
  );

  /** PUT /api/markNotificationAsRead/{id} → `{ status, message }`; someone else's id → 404 'Notification not found.'. */
  app.put<{ Params: { id: string } }>("/api/markNotificationAsRead/:id", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      await caller.notifications.markRead({ id: req.params.id });
      return { status: "success", success: true, message: "Notification marked as read." };
    }),
  );

  /**
   * POST /api/createnotification { senderId, message, link, audioId, toAdmins | recipientId }
   * → `{ status, message, count }` (admins send as anyone, others only as themselves).
   */
  app.post("/api/createnotification", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const out = await caller.notifications.create({
        senderId: stringField(req.body, "senderId"),
        message: stringField(req.body, "message"),
        link: stringField(req.body, "link"),
        audioId: optionalString(req.body, "audioId"),
        toAdmins: booleanField(req.body, "toAdmins"),
        recipientId: optionalString(req.body, "recipientId") ?? undefined,
      });
      return { status: "success", success: true, message: out.message, count: out.count };
    }),
  );
};
