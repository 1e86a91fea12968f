import dayjs from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat";
import relativeTime from "dayjs/plugin/relativeTime";

dayjs.extend(advancedFormat);
dayjs.extend(relativeTime);

/** SPEC §9: banner date format. */
export const BANNER_DATE_FORMAT = "MMMM Do YYYY, h:mm:ss A";

/**
 * SPEC §2.11: 'Last opened by {user} on {date} ({relative time})', e.g.
 * 'Last opened by admin on November 21st 2026, 3:04:05 PM (a few seconds ago)'.
 * `at` is an ISO time; `now` is for tests.
 */
export function lastOpenedText(username: string, at: string, now: Date = new Date()): string {
  const time = dayjs(at);
  return `Last opened by ${username} on ${time.format(BANNER_DATE_FORMAT)} (${time.from(now)})`;
}
