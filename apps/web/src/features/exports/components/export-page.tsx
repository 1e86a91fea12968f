import { usePageParam } from "#web/hooks/use-page-param";
import { errorMessage } from "#web/lib/trpc";
import { useStartExport } from "#web/features/exports/hooks/use-start-export";
import { ExportForm } from "./export-form";
import { ExportList } from "./export-list";
import "#web/features/exports/exports.css";

/**
 * The Export page (Management → Export, Admin; decision 019): the form that starts a dataset
 * export and the list of exports, newest first. A started export shows at the top of the list's
 * first page; its progress follows live and survives a reload (it is all in the list).
 */
export function ExportPage() {
  const { page, goTo } = usePageParam();
  const start = useStartExport(() => goTo(1));
  return (
    <div className="stack export-page">
      <ExportForm
        onStart={(choice) => start.mutate(choice)}
        starting={start.isPending}
        error={start.error ? errorMessage(start.error) : null}
      />
      <ExportList page={page} onPageChange={goTo} />
    </div>
  );
}
