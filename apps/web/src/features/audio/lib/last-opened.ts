import { displayTime } from "#web/lib/dates";

/**
 * SPEC §2.11: 'Last opened by {user} on {date} ({relative time})', e.g.
 * 'Last opened by admin on November 21st 2026, 3:04:05 PM (a few seconds ago)'.
 * `at` is an ISO time; `now` is for tests.
 */
export function lastOpenedText(username: string, at: string, now: Date = new Date()): string {
  const { full, relative } = displayTime(at, now);
  return `Last opened by ${username} on ${full} (${relative})`;
}
