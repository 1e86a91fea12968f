import { useId, useLayoutEffect, useRef } from "react";
import { DropdownMenu } from "radix-ui";
import { notificationItems } from "#web/lib/notification-pages";
import { useMarkAllRead } from "#web/features/notifications/hooks/use-mark-all-read";
import { useNotifications } from "#web/features/notifications/hooks/use-notifications";
import { useNow } from "#web/features/notifications/hooks/use-now";
import { useOpenNotification } from "#web/features/notifications/hooks/use-open-notification";
import { NotificationEntry } from "./notification-entry";
import "#web/features/notifications/notifications.css";

/** How often the relative times of an open list are refreshed (ms). */
const CLOCK_MS = 30_000;

function BellIcon() {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/** The badge text: the unread count, '99+' past 99. */
function badgeText(count: number): string {
  return count > 99 ? "99+" : String(count);
}

/**
 * The open list: loading, failure, 'No notifications found.' or the entries, newest first, ending
 * with 'Show older' while older notifications remain (SPEC §2.3). 'Show older' keeps the menu
 * open, loads the next page and moves focus to its first entry; once the list has ended after
 * paging, 'No older notifications.' says so.
 */
function NotificationList({ notifications }: { notifications: ReturnType<typeof useNotifications> }) {
  const openNotification = useOpenNotification();
  const now = useNow(CLOCK_MS);
  const listRef = useRef<HTMLDivElement>(null);
  // Set by 'Show older': the index of the new page's first entry, focused once it is rendered
  // (the answer can arrive before or after React renders the new entries).
  const focusEntryAt = useRef<number | null>(null);
  const items = notifications.data ? notificationItems(notifications.data) : [];
  useLayoutEffect(() => {
    const at = focusEntryAt.current;
    if (at === null) return;
    const entry = listRef.current?.querySelectorAll<HTMLElement>('[data-testid="notification-entry"]')[at];
    if (!entry) return;
    focusEntryAt.current = null;
    entry.focus();
  }, [items.length]);

  if (notifications.isPending) {
    return (
      <p className="notification-empty" role="status">
        <span className="spinner" aria-hidden="true" /> Loading notifications…
      </p>
    );
  }
  if (notifications.isError && !notifications.data) {
    return (
      <p className="notification-empty" role="alert">
        Failed to fetch notifications
      </p>
    );
  }
  if (items.length === 0) return <p className="notification-empty">No notifications found.</p>;

  const showOlder = async () => {
    if (notifications.isFetchingNextPage) return;
    // The first entry of the new page takes focus, so the keyboard carries on where the list grew.
    focusEntryAt.current = items.length;
    const result = await notifications.fetchNextPage();
    if (result.isError) focusEntryAt.current = null;
  };

  return (
    <DropdownMenu.Group className="notification-list" ref={listRef}>
      {items.map((item) => (
        <NotificationEntry key={item.id} item={item} now={now} onOpen={(entry) => void openNotification(entry)} />
      ))}
      {notifications.hasNextPage ? (
        <DropdownMenu.Item
          className="notification-more"
          aria-busy={notifications.isFetchingNextPage || undefined}
          onSelect={(event) => {
            event.preventDefault();
            void showOlder();
          }}
        >
          {notifications.isFetchingNextPage ? (
            <>
              <span className="spinner" aria-hidden="true" /> Loading older notifications…
            </>
          ) : (
            "Show older"
          )}
        </DropdownMenu.Item>
      ) : (
        notifications.data.pages.length > 1 && <p className="notification-end">No older notifications.</p>
      )}
    </DropdownMenu.Group>
  );
}

/**
 * The header's notifications bell (SPEC §2.3): a button named 'Notifications' with the unread
 * count as a badge, opening a menu titled Notifications with 'Mark all as read' while any is
 * unread. Arrow keys move between entries, Escape closes it and returns focus to the bell.
 */
export function NotificationBell() {
  const notifications = useNotifications();
  const markAllRead = useMarkAllRead();
  const unread = notifications.data?.pages[0]?.unreadCount ?? 0;
  const countId = useId();
  const menuRef = useRef<HTMLDivElement>(null);
  // Set by 'Mark all as read': focus moves to the first entry in the very render that removes the
  // item (which had focus), so it never falls to the page whatever order the answer and the
  // refetch arrive in.
  const focusFirstEntry = useRef(false);
  useLayoutEffect(() => {
    if (!focusFirstEntry.current || unread > 0) return;
    focusFirstEntry.current = false;
    menuRef.current?.querySelector<HTMLElement>('[data-testid="notification-entry"]')?.focus();
  }, [unread]);

  // Not modal: a modal menu hides the page from screen readers while its controls stay focusable
  // (axe aria-hidden-focus). Focus still moves into the menu; Escape or a click outside closes it
  // and returns focus to the trigger.
  return (
    <DropdownMenu.Root modal={false}>
      {/* The badge sits over the button, not in it: the button's name is 'Notifications' and what
          it visibly shows is only the icon (WCAG 2.5.3); the count is its description. */}
      <span className="notification-bell-wrap">
        <DropdownMenu.Trigger asChild>
          <button
            type="button"
            className="shell-icon-button notification-bell"
            aria-label="Notifications"
            aria-describedby={unread > 0 ? countId : undefined}
          >
            <BellIcon />
          </button>
        </DropdownMenu.Trigger>
        {unread > 0 && (
          <span className="notification-badge" data-testid="notification-badge" aria-hidden="true">
            {badgeText(unread)}
          </span>
        )}
      </span>
      {unread > 0 && (
        <span id={countId} className="sr-only">
          {unread} unread
        </span>
      )}
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          ref={menuRef}
          className="notification-menu"
          align="end"
          sideOffset={8}
          collisionPadding={8}
          aria-label="Notifications"
        >
          <DropdownMenu.Label className="notification-header">
            <span className="notification-title">Notifications</span>
            {unread > 0 && <span className="badge notification-unread-count">{unread} unread</span>}
          </DropdownMenu.Label>
          {unread > 0 && (
            <DropdownMenu.Item
              className="notification-mark-all"
              disabled={markAllRead.isPending}
              onSelect={(event) => {
                event.preventDefault();
                // The item goes once nothing is unread: focus moves on to the first entry (above).
                focusFirstEntry.current = true;
                markAllRead.mutate(undefined, {
                  onError: () => {
                    focusFirstEntry.current = false;
                  },
                });
              }}
            >
              Mark all as read
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator className="shell-menu-separator" />
          <NotificationList notifications={notifications} />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
