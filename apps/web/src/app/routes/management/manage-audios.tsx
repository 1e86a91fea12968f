import { ManagementLayout } from "#web/features/management/components/management-layout";
import { ManageAudios } from "#web/features/management/components/manage-audios";

/** SPEC §2.18 Manage Audios (/management/manageaudios). */
export function Component() {
  return (
    <ManagementLayout title="Manage Audios">
      <ManageAudios />
    </ManagementLayout>
  );
}
