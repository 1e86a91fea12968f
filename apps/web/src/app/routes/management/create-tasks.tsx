import { ManagementLayout } from "#web/features/management/components/management-layout";
import { AssignTasks } from "#web/features/management/components/assign-tasks";

/** SPEC §2.17 Assign Tasks (/management/createtasks). */
export function Component() {
  return (
    <ManagementLayout title="Assign Tasks">
      <AssignTasks />
    </ManagementLayout>
  );
}
