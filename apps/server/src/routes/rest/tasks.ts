import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ZAssignTaskInput, ZReassignInput } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { pagedDescription, sendPageLinks } from "./paging";
import { DONE, EXAMPLE_ID, EXAMPLE_USER_ID, ZPageQuery, ZPathId, ZRestDone, answers } from "./shapes/common";
import {
  EXAMPLE_TASK_REF,
  ZRestTask,
  ZRestTaskPage,
  ZRestTaskRef,
  restTask,
  restTaskCard,
  restTaskRef,
} from "./shapes/tasks";

const ZCreateTaskBody = z
  .object({ audio_id: ZAssignTaskInput.shape.audioId, assigned_to: ZAssignTaskInput.shape.staffId })
  .meta({ examples: [{ audio_id: EXAMPLE_ID, assigned_to: EXAMPLE_USER_ID }] });

const ZReassignBody = z
  .object({ audioId: ZReassignInput.shape.audioId, newAssignedTo: ZReassignInput.shape.staffId })
  .meta({ examples: [{ audioId: EXAMPLE_ID, newAssignedTo: EXAMPLE_USER_ID }] });

const ZTaskChanged = ZRestDone.extend({ task: ZRestTaskRef }).meta({
  examples: [{ ...DONE, message: "Audio assigned successfully!", task: EXAMPLE_TASK_REF }],
});

const TASKS = ["Tasks"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §7.1 task paths: one task, the lists (all, one user's), assign and reassign. */
export const taskRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/tasks",
    {
      schema: {
        summary: "List tasks",
        description: `SPEC §2.8, §7.1, §9. Admins get every task, staff their own. ${pagedDescription(10)} 401 without a session.`,
        tags: TASKS,
        security: BEARER,
        querystring: ZPageQuery,
        response: answers(ZRestTaskPage),
      },
    },
    async (req, reply) => {
      const result = await req.caller.tasks.list(req.query);
      sendPageLinks(req, reply, req.query.page, result.totalPages);
      return { tasks: result.items.map(restTaskCard), pagination: { totalPages: result.totalPages } };
    },
  );

  app.get(
    "/api/tasks/user/:id",
    {
      schema: {
        summary: "List one user's tasks",
        description:
          "SPEC §6, §7.1. The tasks assigned to user {id}: admins may list anyone's, staff only their own (403 'You may " +
          `only list your own tasks.'). 400 'Unknown id.' for a malformed id, 401 without a session. ${pagedDescription(10)}`,
        tags: TASKS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        querystring: ZPageQuery,
        response: answers(ZRestTaskPage),
      },
    },
    async (req, reply) => {
      const result = await req.caller.tasks.list({ ...req.query, assignedTo: req.params.id });
      sendPageLinks(req, reply, req.query.page, result.totalPages);
      return { tasks: result.items.map(restTaskCard), pagination: { totalPages: result.totalPages } };
    },
  );

  app.get(
    "/api/tasks/:id",
    {
      schema: {
        summary: "Get a task",
        description:
          "SPEC §3, §7.1. Whoever may open the task's audio may read it (admins; the assignee; a staff member it was " +
          "recommended to): 403 for others, 404 'Task not found.' for an unknown id, 401 without a session.",
        tags: TASKS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: answers(ZRestTask),
      },
    },
    async (req) => restTask(await req.caller.tasks.get({ taskId: req.params.id })),
  );

  app.post(
    "/api/createtask",
    {
      schema: {
        summary: "Assign an audio (admin)",
        description:
          "SPEC §2.17, §5, §7.1. Creates the audio's task for an active staff member. 400 'Please select a staff member.', " +
          "401, 403 for staff, 404 for an unknown audio or staff member, 409 when the audio already has a task.",
        tags: TASKS,
        security: BEARER,
        body: ZCreateTaskBody,
        response: answers(ZTaskChanged),
      },
    },
    async (req) => {
      const task = await req.caller.tasks.assign({ audioId: req.body.audio_id, staffId: req.body.assigned_to });
      return { ...DONE, message: task.message, task: restTaskRef(task) };
    },
  );

  app.put(
    "/api/reassignAudio",
    {
      schema: {
        summary: "Reassign an audio (admin)",
        description:
          "SPEC §2.18, §5, §7.1. Moves the audio's task to another staff member. 400 'Please select a staff member to " +
          "reassign.', 'This audio is not assigned yet.' or 'This audio is already assigned to this staff member.', 401, " +
          "403 for staff, 404 for an unknown audio.",
        tags: TASKS,
        security: BEARER,
        body: ZReassignBody,
        response: answers(ZTaskChanged),
      },
    },
    async (req) => {
      const task = await req.caller.tasks.reassign({ audioId: req.body.audioId, staffId: req.body.newAssignedTo });
      return { ...DONE, message: task.message, task: restTaskRef(task) };
    },
  );
};
