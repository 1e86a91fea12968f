import type { LogEntry } from "#web/lib/api-types";
import { displayTime, shortTime } from "#web/lib/dates";

/** The columns of the Logs table. */
export const LOG_COLUMNS = ["Time", "Actor", "Action", "Concerns"] as const;

/** What an entry concerns: its audio (opened as the current audio; a deleted one as text), else its user, else a dash. */
function Concerns({ entry, onOpen }: { entry: LogEntry; onOpen: (audioId: string) => void }) {
  const { audio, user } = entry;
  if (audio) {
    if (audio.exists && audio.filename) {
      return (
        <button type="button" className="link-button" onClick={() => onOpen(audio.id)}>
          {audio.filename}
        </button>
      );
    }
    return <span className="muted">{audio.filename ?? "Unknown audio"} (deleted)</span>;
  }
  if (user) return <span>{user.username ?? <span className="muted">Deleted user</span>}</span>;
  return (
    <span className="muted">
      <span aria-hidden="true">—</span>
      <span className="sr-only">Nothing</span>
    </span>
  );
}

/** One row of the Logs table: time (short, in full in the title), actor, the action in words, what it concerns. */
export function LogRow({ entry, onOpen }: { entry: LogEntry; onOpen: (audioId: string) => void }) {
  return (
    <tr>
      <td className="logs-time">
        <time dateTime={entry.createdAt} title={displayTime(entry.createdAt).full}>
          {shortTime(entry.createdAt)}
        </time>
      </td>
      <td>{entry.actor?.username ?? <span className="muted">Unknown User</span>}</td>
      <td className="logs-action">{entry.sentence}</td>
      <td className="logs-concerns">
        <Concerns entry={entry} onOpen={onOpen} />
      </td>
    </tr>
  );
}
