import type { FastifyPluginAsync } from "fastify";
import type { RestOptions } from "../rest";
import { callerFor, pageQuery, sendResult, stringField } from "../../lib/rest-helpers";
import { restTask, restTaskCard } from "../../lib/rest-shapes";

/** `{ _id, audio_id, assigned_to }` of a created or moved task. */
function restTaskRef(task: { id: string; audioId: string; assignedTo: string }) {
  return { _id: task.id, audio_id: task.audioId, assigned_to: task.assignedTo };
}

/**
 * SPEC §7.1 task paths, mapped onto the procedures: one task, list (admins all, staff their own),
 * one user's list, assign (POST /api/createtask) and reassign (PUT /api/reassignAudio).
 */
export const taskRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps }) => {
  /** GET /api/tasks?page&limit → { tasks, pagination: { totalPages } } (10 per page by default). */
  app.get("/api/tasks", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const result = await caller.tasks.list(pageQuery(req.query));
      return { tasks: result.items.map(restTaskCard), pagination: { totalPages: result.totalPages } };
    }),
  );

  /**
   * GET /api/tasks/user/{id}?page&limit → { tasks, pagination: { totalPages } }: the tasks assigned
   * to user {id}. Admins may list anyone's; staff only their own (403 'You may only list your own tasks.').
   */
  app.get<{ Params: { id: string } }>("/api/tasks/user/:id", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const result = await caller.tasks.list({ ...pageQuery(req.query), assignedTo: req.params.id });
      return { tasks: result.items.map(restTaskCard), pagination: { totalPages: result.totalPages } };
    }),
  );

  /**
   * GET /api/tasks/{id} → `{ _id, audio_id: { _id, filename, category }, assigned_to, translation_status,
   * recording_status, is_complete, submission: { _id, translation_script_approval_status,
   * recorded_audio_approval_status } }`. Whoever may open the task's audio may read it (admins; the
   * assignee; a staff member it was recommended to); others get 403, an unknown id 404.
   */
  app.get<{ Params: { id: string } }>("/api/tasks/:id", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      return restTask(await caller.tasks.get({ taskId: req.params.id }));
    }),
  );

  /** POST /api/createtask { audio_id, assigned_to } → { status, message, task } (SPEC §2.17). */
  app.post("/api/createtask", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const task = await caller.tasks.assign({ audioId: stringField(req.body, "audio_id"), staffId: stringField(req.body, "assigned_to") });
      return { status: "success", success: true, message: "Audio assigned successfully!", task: restTaskRef(task) };
    }),
  );

  /** PUT /api/reassignAudio { audioId, newAssignedTo } → { status, message, task } (SPEC §2.18). */
  app.put("/api/reassignAudio", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const task = await caller.tasks.reassign({ audioId: stringField(req.body, "audioId"), staffId: stringField(req.body, "newAssignedTo") });
      return { status: "success", success: true, message: "Audio reassigned successfully!", task: restTaskRef(task) };
    }),
  );
};
