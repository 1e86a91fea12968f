import { Pagination } from "@tafsiri/ui/pagination";
import { DataTable } from "#web/components/data-table";
import { useLastPageFallback } from "#web/hooks/use-page-param";
import { useExports } from "#web/features/exports/hooks/use-exports";
import { EXPORT_COLUMNS, ExportRow } from "./export-row";

/**
 * The dataset exports, newest first, 10 per page with numbered pagination, each
 * with its state and progress, live (features/live refetches the list on 'export.changed') and
 * read again after a reload. Loading, empty ('No exports yet.') and error states.
 */
export function ExportList({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const exports = useExports(page);
  useLastPageFallback(page, exports.data?.totalPages);

  const body = () => {
    if (exports.isPending) {
      return (
        <tr>
          <td colSpan={EXPORT_COLUMNS.length} className="empty-state" role="status">
            <span className="spinner" aria-hidden="true" /> Loading exports…
          </td>
        </tr>
      );
    }
    if (exports.isError && !exports.data) {
      return (
        <tr>
          <td colSpan={EXPORT_COLUMNS.length} className="empty-state" role="alert">
            <p>Failed to load the exports.</p>
            <button type="button" className="btn" onClick={() => void exports.refetch()}>
              Retry
            </button>
          </td>
        </tr>
      );
    }
    if (exports.data.items.length === 0) {
      return (
        <tr>
          <td colSpan={EXPORT_COLUMNS.length} className="empty-state">
            No exports yet.
          </td>
        </tr>
      );
    }
    return exports.data.items.map((item) => <ExportRow key={item.id} item={item} />);
  };

  return (
    <div className="stack">
      <DataTable id="exports-table-title" title="Exports" columns={EXPORT_COLUMNS} className="exports-table">
        {body()}
      </DataTable>
      <Pagination
        page={page}
        totalPages={exports.data?.totalPages ?? 0}
        onPageChange={onPageChange}
        label="Export pages"
      />
    </div>
  );
}
