import { ManagementLayout } from "#web/app/layouts/management-layout";
import { ManageAudios } from "#web/features/audio/components/manage-audios";

/** SPEC §2.18 Manage Audios (/management/manageaudios). */
export function Component() {
  return (
    <ManagementLayout title="Manage Audios">
      <ManageAudios />
    </ManagementLayout>
  );
}
