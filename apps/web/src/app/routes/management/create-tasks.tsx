import { ManagementLayout } from "#web/app/layouts/management-layout";
import { AssignTasks } from "#web/features/tasks/components/assign-tasks";

/** SPEC §2.17 Assign Tasks (/management/createtasks). */
export function Component() {
  return (
    <ManagementLayout title="Assign Tasks">
      <AssignTasks />
    </ManagementLayout>
  );
}
