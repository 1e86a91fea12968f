import { ManagementLayout } from "#web/app/layouts/management-layout";
import { ExportPage } from "#web/features/exports/components/export-page";

/** /management/export: dataset export (Admin; decision 019), beside the management menu. */
export function Component() {
  return (
    <ManagementLayout title="Dataset export">
      <ExportPage />
    </ManagementLayout>
  );
}
