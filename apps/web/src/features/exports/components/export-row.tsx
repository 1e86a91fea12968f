import type { ExportItem } from "#web/lib/api-types";
import { displayTime, shortTime } from "#web/lib/dates";
import { chatInWords, choiceInWords } from "#web/features/exports/lib/export-words";
import { ExportState } from "./export-state";

/** The columns of the exports table. */
export const EXPORT_COLUMNS = ["Started", "Choice", "State"] as const;

/**
 * One export of the Export page's table: when it started and by whom, what it
 * took in words (category, status, approval period, CHAT settings) and where it is (ExportState).
 */
export function ExportRow({ item }: { item: ExportItem }) {
  return (
    <tr>
      <td>
        <div className="export-started">
          <time dateTime={item.createdAt} title={displayTime(item.createdAt).full}>
            {shortTime(item.createdAt)}
          </time>
          <span className="muted">by {item.createdBy?.username ?? "a deleted user"}</span>
        </div>
      </td>
      <td>
        <div className="export-choice">
          <span>{choiceInWords(item)}</span>
          <span className="muted">{chatInWords(item.chat)}</span>
        </div>
      </td>
      <td>
        <ExportState item={item} />
      </td>
    </tr>
  );
}
