import dayjs from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat";
import relativeTime from "dayjs/plugin/relativeTime";

dayjs.extend(advancedFormat);
dayjs.extend(relativeTime);

/** SPEC §9: dates in banners and notifications, e.g. 'November 21st 2026, 3:04:05 PM'. */
const DISPLAY_DATE_FORMAT = "MMMM Do YYYY, h:mm:ss A";

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

/** SPEC §9 dates in lists: en-US long form with the time, e.g. 'November 23, 2026 at 4:54 PM'. */
const LONG_DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short" });

/** An ISO time in SPEC §9's en-US long form with the time, in the browser's time zone. */
export function longTime(at: string): string {
  // ICU puts a narrow no-break space before AM/PM; the SPEC's example has a plain space.
  return LONG_DATE_TIME.format(new Date(at)).replace(/\u202f/g, " ");
}
