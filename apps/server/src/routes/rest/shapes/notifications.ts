import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID } from "./common";

type NotificationItem = RouterOutputs["notifications"]["list"]["items"][number];

/** SPEC §3 Notification: `{ _id, message, link, audioId, is_read, created_at, audioAvailable }`. */
export const ZRestNotification = z.object({
  _id: z.string(),
  message: z.string(),
  link: z.string(),
  audioId: z.string().nullable(),
  is_read: z.boolean(),
  created_at: z.string(),
  audioAvailable: z.boolean(),
});
export const ZRestNotificationList = z.array(ZRestNotification).meta({
  examples: [
    [
      {
        _id: "7d3e1f2a-4b5c-4d6e-9f80-a1b2c3d4e5f6",
        message: "amina uploaded a new transcript for interview-07",
        link: "/audiomanagement/trascript",
        audioId: EXAMPLE_ID,
        is_read: false,
        created_at: "2026-11-23T09:30:00.000Z",
        audioAvailable: true,
      },
    ],
  ],
});

/** The REST notification of a notifications.list item. */
export function restNotification(n: NotificationItem): z.output<typeof ZRestNotification> {
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
