import { useCallback, useState } from "react";
import { toast } from "sonner";
import type { LogEntry } from "#web/lib/api-types";
import { downloadCsv } from "#web/lib/csv";
import { useTRPCClient } from "#web/lib/trpc";
import { logsCsv } from "#web/features/logs/lib/log-csv";
import type { LogQuery } from "#web/features/logs/lib/log-filters";

/** The most rows one download holds. */
const CSV_MAX_ROWS = 10_000;
/** Rows fetched per request while downloading (logs.list's largest page). */
const CSV_PAGE_SIZE = 100;

/**
 * 'Download CSV' of the filtered Logs list: every page of `query` (newest first) fetched one after
 * another, at most CSV_MAX_ROWS rows, offered as logs.csv. `busy` while it runs; a failure is a toast.
 */
export function useLogsDownload(query: LogQuery): { download: () => void; busy: boolean } {
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const download = useCallback(() => {
    if (!query.ok || busy) return;
    setBusy(true);
    void (async () => {
      try {
        // By id: an entry written meanwhile shifts the pages, so one may come twice.
        const rows = new Map<string, LogEntry>();
        let truncated = false;
        for (let page = 1; ; page++) {
          const result = await client.logs.list.query({ ...query.input, page, limit: CSV_PAGE_SIZE });
          for (const entry of result.items) rows.set(entry.id, entry);
          if (page >= result.totalPages || result.items.length === 0) break;
          if (rows.size >= CSV_MAX_ROWS) {
            truncated = true;
            break;
          }
        }
        downloadCsv("logs.csv", logsCsv([...rows.values()].slice(0, CSV_MAX_ROWS)));
        if (truncated) toast.info(`Only the newest ${CSV_MAX_ROWS.toLocaleString("en")} entries were downloaded.`);
      } catch (error) {
        console.error("Failed to download the log entries.", error);
        toast.error("Failed to download the log entries.");
      } finally {
        setBusy(false);
      }
    })();
  }, [busy, client, query]);
  return { download, busy };
}
