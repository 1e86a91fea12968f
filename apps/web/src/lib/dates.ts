import dayjs from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat";
import relativeTime from "dayjs/plugin/relativeTime";

dayjs.extend(advancedFormat);
dayjs.extend(relativeTime);

/** SPEC §9: dates in banners and notifications, e.g. 'November 21st 2026, 3:04:05 PM'. */
export const DISPLAY_DATE_FORMAT = "MMMM Do YYYY, h:mm:ss A";

/**
 * An ISO time as SPEC §9 shows it in banners and notifications: in full and relative to `now`
 * ('a few seconds ago').
 */
export function displayTime(at: string, now: Date = new Date()): { relative: string; full: string } {
  const time = dayjs(at);
  return { relative: time.from(now), full: time.format(DISPLAY_DATE_FORMAT) };
}

/** A short date and time for table cells, e.g. 'Nov 23 2026, 4:19 PM' (the full time is in the cell's title). */
export function shortTime(at: string): string {
  return dayjs(at).format("MMM D YYYY, h:mm A");
}
