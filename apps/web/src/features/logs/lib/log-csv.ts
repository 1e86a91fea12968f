import type { LogEntry } from "#web/lib/api-types";
import { toCsv } from "#web/lib/csv";

/** The CSV columns of the Logs download: the table's, with the time in ISO and the action as written. */
const LOG_CSV_HEADER = ["Time", "Actor", "Action", "Concerns", "Action code", "Entity"] as const;

/** What an entry concerns, as the table shows it: the audio's filename or the user's username ('' for neither). */
function concernsText(entry: LogEntry): string {
  if (entry.audio) return `${entry.audio.filename ?? "Unknown audio"}${entry.audio.exists ? "" : " (deleted)"}`;
  if (entry.user) return entry.user.username ?? "Deleted user";
  return "";
}

/** Log entries as CSV: a header, then one line per entry (RFC 4180 quoting). */
export function logsCsv(entries: readonly LogEntry[]): string {
  return toCsv([
    LOG_CSV_HEADER,
    ...entries.map((e) => [
      e.createdAt,
      e.actor?.username ?? "Unknown User",
      e.sentence,
      concernsText(e),
      e.action,
      e.entity,
    ]),
  ]);
}
