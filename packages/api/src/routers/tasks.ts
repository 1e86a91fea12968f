import { adminProcedure, authedProcedure, router } from "../trpc";
import { ZAssignTaskInput, ZBulkAssignInput, ZBulkAssignOutput, ZListTasksInput, ZReassignInput, ZTaskCardPage, ZTaskRef } from "../schemas/tasks";
import { notImplemented } from "../services/not-implemented";

export const tasksRouter = router({
  /** SPEC §2.17: assign an unassigned audio to an active staff member (creates the task). */
  assign: adminProcedure.input(ZAssignTaskInput).output(ZTaskRef).mutation(() => notImplemented()),
  /** SPEC §2.17 Bulk Assign: each row assigned on its own; one result per row. */
  bulkAssign: adminProcedure.input(ZBulkAssignInput).output(ZBulkAssignOutput).mutation(() => notImplemented()),
  /** SPEC §2.18 Reassign: move an assigned audio's task to another staff member. */
  reassign: adminProcedure.input(ZReassignInput).output(ZTaskRef).mutation(() => notImplemented()),
  /** SPEC §2.8 Tasks page: admins see all tasks, staff their own; 10 per page by default. */
  list: authedProcedure.input(ZListTasksInput).output(ZTaskCardPage).query(() => notImplemented()),
});
