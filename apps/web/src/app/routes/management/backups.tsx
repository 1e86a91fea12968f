import { ManagementLayout } from "#web/app/layouts/management-layout";
import { BackupsPage } from "#web/features/backups/components/backups-page";

/** /management/backups: backups of the database and files (Admin; decision 027), beside the management menu. */
export function Component() {
  return (
    <ManagementLayout title="Backups">
      <BackupsPage />
    </ManagementLayout>
  );
}
