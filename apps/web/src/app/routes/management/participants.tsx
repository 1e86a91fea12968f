import { ManagementLayout } from "#web/app/layouts/management-layout";
import { ParticipantsPage } from "#web/features/participants/components/participants-page";

/** Decision 024: Management → Participants (/management/participants, Admin). */
export function Component() {
  return (
    <ManagementLayout title="Participants">
      <ParticipantsPage />
    </ManagementLayout>
  );
}
