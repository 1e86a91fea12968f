import { useEffect, useRef } from "react";
import type { SubmissionRow } from "#web/lib/api-types";
import { announce } from "#web/lib/announce";

/** How a row is named when it arrives: the audio and who submitted it. */
function rowName(row: SubmissionRow): string {
  return `${row.filename} by ${row.staff?.username ?? "Unknown User"}`;
}

/**
 * Announces, once, the rows that arrive live on the Submissions page being looked at:
 * a row not on it before ('New submission: {audio} by {staff}', or 'n new submissions:
 * …'). The first load of a page or filter, and rows shown while the next page loads
 * (`placeholder`), are not announced.
 */
export function useNewRowAnnouncements(
  rows: readonly SubmissionRow[] | undefined,
  view: string,
  placeholder: boolean,
): void {
  const shown = useRef<{ view: string; ids: Set<string> } | null>(null);

  useEffect(() => {
    if (!rows || placeholder) return;
    const ids = new Set(rows.map((row) => row.id));
    const before = shown.current;
    shown.current = { view, ids };
    if (!before || before.view !== view) return;
    const arrived = rows.filter((row) => !before.ids.has(row.id));
    if (arrived.length === 1) announce(`New submission: ${rowName(arrived[0]!)}`);
    else if (arrived.length > 1) announce(`${arrived.length} new submissions: ${arrived.map(rowName).join(", ")}`);
  }, [rows, view, placeholder]);
}
