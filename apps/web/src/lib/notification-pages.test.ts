import { describe, expect, it } from "vitest";
import type { NotificationItem } from "./api-types";
import {
  notificationItems,
  withAllRead,
  withNewNotification,
  withRead,
  type NotificationPages,
} from "./notification-pages";

const item = (id: string, isRead = false): NotificationItem => ({
  id,
  message: `Note ${id}`,
  link: "/Audios",
  audioId: null,
  audioAvailable: true,
  isRead,
  createdAt: "2026-11-23T16:54:00.000Z",
});

/** Two loaded pages (newest first) of a list with `unread` unread in all. */
function pages(unread: number): NotificationPages {
  return {
    pages: [
      { items: [item("5"), item("4", true)], unreadCount: unread, nextCursor: "c1" },
      { items: [item("3"), item("2", true)], unreadCount: unread, nextCursor: null },
    ],
    pageParams: [null, "c1"],
  };
}

const ids = (data: NotificationPages | undefined) =>
  notificationItems(data).map((n) => `${n.id}${n.isRead ? "r" : ""}`);
const counts = (data: NotificationPages | undefined) => data?.pages.map((p) => p.unreadCount);

describe("the bell's cached pages (SPEC §2.3)", () => {
  it("lists the entries of every loaded page, newest first", () => {
    expect(ids(pages(3))).toEqual(["5", "4r", "3", "2r"]);
    expect(notificationItems(undefined)).toEqual([]);
  });

  it("a live notification goes on top and raises the unread count, once", () => {
    const added = withNewNotification(pages(3), item("6"));
    expect(ids(added)).toEqual(["6", "5", "4r", "3", "2r"]);
    expect(counts(added)).toEqual([4, 4]);
    expect(withNewNotification(added, item("6"))).toBe(added);
    expect(counts(withNewNotification(pages(3), item("7", true)))).toEqual([3, 3]);
    expect(withNewNotification(undefined, item("6"))).toBeUndefined();
  });

  it("marks the entries picked Read and lowers the count by those that turned", () => {
    const read = withRead(pages(3), (n) => n.id === "3" || n.id === "4");
    expect(ids(read)).toEqual(["5", "4r", "3r", "2r"]);
    expect(counts(read)).toEqual([2, 2]);
  });

  it("never lowers the count below 0", () => {
    expect(counts(withRead(pages(0), () => true))).toEqual([0, 0]);
  });

  it("'Mark all as read' reads every entry and clears the count", () => {
    const all = withAllRead(pages(7));
    expect(ids(all)).toEqual(["5r", "4r", "3r", "2r"]);
    expect(counts(all)).toEqual([0, 0]);
    expect(withAllRead(undefined)).toBeUndefined();
  });
});
