import { TasksPage } from "#web/features/tasks/components/tasks-page";

/** /Audios: the Tasks page (SPEC §2.8). */
export function Component() {
  return <TasksPage />;
}
