import type { InfiniteData } from "@tanstack/react-query";
import type { NotificationItem, NotificationList } from "./api-types";

/** The bell's list as cached (SPEC §2.3): the pages loaded so far, newest first, each from its cursor. */
export type NotificationPages = InfiniteData<NotificationList, unknown>;

/** The entries of every loaded page, newest first. */
export function notificationItems(data: NotificationPages | undefined): NotificationItem[] {
  return data ? data.pages.flatMap((page) => page.items) : [];
}

/**
 * `data` with `item` added at the top and the unread count raised when it is unread (a live
 * event's new notification), unless it is listed already.
 */
export function withNewNotification(
  data: NotificationPages | undefined,
  item: NotificationItem,
): NotificationPages | undefined {
  if (!data || notificationItems(data).some((entry) => entry.id === item.id)) return data;
  const rise = item.isRead ? 0 : 1;
  return {
    ...data,
    pages: data.pages.map((page, i) => ({
      ...page,
      items: i === 0 ? [item, ...page.items] : page.items,
      unreadCount: page.unreadCount + rise,
    })),
  };
}

/** `data` with the entries `read` picks marked Read and the unread count lowered to match. */
export function withRead(
  data: NotificationPages | undefined,
  read: (item: NotificationItem) => boolean,
): NotificationPages | undefined {
  if (!data) return data;
  const turned = notificationItems(data).filter((item) => !item.isRead && read(item)).length;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((item) => (!item.isRead && read(item) ? { ...item, isRead: true } : item)),
      unreadCount: Math.max(0, page.unreadCount - turned),
    })),
  };
}

/** `data` with every entry Read and no unread left ('Mark all as read', pages not loaded included). */
export function withAllRead(data: NotificationPages | undefined): NotificationPages | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((item) => (item.isRead ? item : { ...item, isRead: true })),
      unreadCount: 0,
    })),
  };
}
