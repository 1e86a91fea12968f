import { DropdownMenu } from "radix-ui";
import type { NotificationItem } from "#web/lib/api-types";
import { displayTime } from "#web/lib/dates";

/**
 * One bell entry (SPEC §2.3, §2.13, §9): the message, Read or Unread, and the relative time with
 * the full date; an entry whose audio is gone says '(Audio no longer available)'. Entries without
 * an available audio do not link. A menu item: Enter, Space or a click opens it.
 */
export function NotificationEntry({
  item,
  now,
  onOpen,
}: {
  item: NotificationItem;
  now: Date;
  onOpen: (item: NotificationItem) => void;
}) {
  const time = displayTime(item.createdAt, now);
  const linked = item.audioId !== null && item.audioAvailable;
  return (
    <DropdownMenu.Item
      className="notification-entry"
      data-read={item.isRead}
      data-linked={linked}
      data-testid="notification-entry"
      onSelect={() => onOpen(item)}
    >
      <span className="notification-dot" aria-hidden="true" />
      <span className="notification-body">
        <span className="notification-top">
          <span className="notification-message">{item.message}</span>
          <span className={`notification-state${item.isRead ? "" : " is-unread"}`}>
            {item.isRead ? "Read" : "Unread"}
          </span>
        </span>
        {item.audioId !== null && !item.audioAvailable && (
          <span className="notification-gone">(Audio no longer available)</span>
        )}
        <time className="notification-time" dateTime={item.createdAt}>
          {time.relative} · {time.full}
        </time>
      </span>
    </DropdownMenu.Item>
  );
}
