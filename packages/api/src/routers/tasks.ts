import { adminProcedure, authedProcedure, router } from "../trpc";
import {
  ZAssignTaskInput,
  ZBulkAssignInput,
  ZBulkAssignOutput,
  ZListTasksInput,
  ZReassignInput,
  ZSetTaskStatusInput,
  ZSetTaskStatusOutput,
  ZTask,
  ZTaskCardPage,
  ZTaskIdInput,
  ZTaskChanged,
} from "../schemas/tasks";
import { assignTask, bulkAssign, getTask, listTasks, reassignTask, setTaskStatus } from "../services/tasks";

export const tasksRouter = router({
  /** SPEC §2.17: assign an unassigned audio to an active staff member (creates the task). */
  assign: adminProcedure
    .input(ZAssignTaskInput)
    .output(ZTaskChanged)
    .mutation(({ ctx, input }) => assignTask(ctx, ctx.user, input)),
  /** SPEC §2.17 Bulk Assign: each row assigned on its own; one result per row. */
  bulkAssign: adminProcedure
    .input(ZBulkAssignInput)
    .output(ZBulkAssignOutput)
    .mutation(({ ctx, input }) => bulkAssign(ctx, ctx.user, input.assignments)),
  /** SPEC §2.18 Reassign: move an assigned audio's task to another staff member. */
  reassign: adminProcedure
    .input(ZReassignInput)
    .output(ZTaskChanged)
    .mutation(({ ctx, input }) => reassignTask(ctx, ctx.user, input)),
  /**
   * SPEC §2.8 Tasks page: admins see all tasks (or `assignedTo`'s), staff their own (FORBIDDEN
   * 'You may only list your own tasks.' for another `assignedTo`); 10 per page by default.
   */
  list: authedProcedure
    .input(ZListTasksInput)
    .output(ZTaskCardPage)
    .query(({ ctx, input }) => listTasks(ctx, ctx.user, input)),
  /**
   * SPEC §3 Task: one task with its audio, assignee, statuses and submission id. Admins any task,
   * staff one assigned or recommended to them (FORBIDDEN otherwise); NOT_FOUND 'Task not found.'.
   */
  get: authedProcedure
    .input(ZTaskIdInput)
    .output(ZTask)
    .query(({ ctx, input }) => getTask(ctx, ctx.user, input.taskId)),
  /**
   * SPEC §4, §7.1 PUT api/tasks/{id} (admin): set translationStatus and/or recordingStatus (In
   * Progress or Completed); is_complete recomputed. NOT_FOUND 'Task not found.'. Returns the task.
   */
  setStatus: adminProcedure
    .input(ZSetTaskStatusInput)
    .output(ZSetTaskStatusOutput)
    .mutation(({ ctx, input }) => setTaskStatus(ctx, ctx.user, input)),
});
