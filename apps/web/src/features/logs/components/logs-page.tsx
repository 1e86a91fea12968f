import { Pagination } from "@tafsiri/ui/pagination";
import { useOpenAudio } from "#web/hooks/use-open-audio";
import { useLastPageFallback, usePageParam } from "#web/hooks/use-page-param";
import { useLogFilterParams } from "#web/features/logs/hooks/use-log-filter-params";
import { useLogFilterChoices, useLogs } from "#web/features/logs/hooks/use-logs";
import { useLogsDownload } from "#web/features/logs/hooks/use-logs-download";
import { logQuery } from "#web/features/logs/lib/log-filters";
import { LogFiltersBar } from "./log-filters-bar";
import { LOG_COLUMNS, LogRow } from "./log-row";
import { DataTable } from "#web/components/data-table";
import "#web/features/logs/logs.css";

/**
 * The Logs page (/log/log-listing, Admin; SPEC §2.1): the audit log, newest first, 50 per
 * page with numbered pagination: time, actor, the action in words, and the audio (opened as the
 * current audio) or user it concerns. Filters by actor, action and a From–To range are kept in
 * the URL; new entries appear live (features/live refetches logs on every event but
 * 'export.changed': a started export's entry shows at the next refetch). 'Download CSV' saves the
 * whole filtered list (up to 10,000 rows). Loading, empty and error states.
 */
export function LogsPage() {
  const openAudio = useOpenAudio();
  const { page, goTo } = usePageParam();
  const { values, change, clear } = useLogFilterParams();
  const query = logQuery(values);
  const logs = useLogs(page, query);
  const choices = useLogFilterChoices();
  const { download, busy } = useLogsDownload(query);
  useLastPageFallback(page, logs.data?.totalPages);
  const filtered = Boolean(values.actorId || values.action || values.from || values.to);

  const body = () => {
    if (!query.ok) {
      return (
        <tr>
          <td colSpan={LOG_COLUMNS.length} className="empty-state">
            Fix the dates to see log entries.
          </td>
        </tr>
      );
    }
    if (logs.isPending) {
      return (
        <tr>
          <td colSpan={LOG_COLUMNS.length} className="empty-state" role="status">
            <span className="spinner" aria-hidden="true" /> Loading log entries…
          </td>
        </tr>
      );
    }
    if (logs.isError && !logs.data) {
      return (
        <tr>
          <td colSpan={LOG_COLUMNS.length} className="empty-state" role="alert">
            <p>Failed to load log entries.</p>
            <button type="button" className="btn" onClick={() => void logs.refetch()}>
              Retry
            </button>
          </td>
        </tr>
      );
    }
    if (logs.data.items.length === 0) {
      return (
        <tr>
          <td colSpan={LOG_COLUMNS.length} className="empty-state">
            {filtered ? "No log entries match these filters" : "No log entries"}
          </td>
        </tr>
      );
    }
    return logs.data.items.map((entry) => <LogRow key={entry.id} entry={entry} onOpen={openAudio} />);
  };

  return (
    <section className="page">
      <div className="page-header">
        <div>
          <h1 className="page-title">Logs</h1>
          <p className="muted">Every change made in Tafsiri, newest first.</p>
        </div>
        <div className="logs-header-actions">
          {logs.isFetching && !logs.isPending && <span className="spinner muted" aria-label="Refreshing" />}
          <button
            type="button"
            className="btn"
            onClick={download}
            disabled={!query.ok || busy || !logs.data || logs.data.items.length === 0}
            aria-busy={busy || undefined}
          >
            {busy ? "Preparing CSV…" : "Download CSV"}
          </button>
        </div>
      </div>
      <LogFiltersBar
        values={values}
        choices={choices.data}
        error={query.ok ? undefined : query.error}
        onChange={change}
        onClear={clear}
      />
      <DataTable id="logs-table-title" title="Log entries" columns={LOG_COLUMNS} className="logs-table">
        {body()}
      </DataTable>
      <Pagination page={page} totalPages={logs.data?.totalPages ?? 0} onPageChange={goTo} label="Log pages" />
    </section>
  );
}
