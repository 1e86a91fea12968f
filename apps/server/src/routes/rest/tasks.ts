import type { FastifyPluginAsync } from "fastify";
import type { RestOptions } from "../rest";
import { callerAs, callerFor, pageQuery, requireUser, restError, sendResult, stringField } from "../../lib/rest-helpers";
import { restAudioTask, restTaskCard } from "../../lib/rest-shapes";
import { audioIdForTask } from "../../lib/audio-lookups";

/** `{ _id, audio_id, assigned_to }` of a created or moved task. */
function restTaskRef(task: { id: string; audioId: string; assignedTo: string }) {
  return { _id: task.id, audio_id: task.audioId, assigned_to: task.assignedTo };
}

/**
 * SPEC §7.1 task paths, mapped onto the procedures: one task (through audios.get, which decides
 * who may see it), list (admins all, staff their own), assign (POST /api/createtask) and
 * reassign (PUT /api/reassignAudio).
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
   * GET /api/tasks/{id} → `{ _id, audio_id: { _id, filename, category }, assigned_to, translation_status,
   * recording_status, is_complete }`. Whoever may open the task's audio may read it (admins; the
   * assignee; a staff member it was recommended to); others get 403, an unknown id 404.
   */
  app.get<{ Params: { id: string } }>("/api/tasks/:id", async (req, reply) =>
    sendResult(reply, async () => {
      const user = await requireUser(deps, req);
      const audioId = await audioIdForTask(deps.db, req.params.id);
      if (!audioId) throw restError("NOT_FOUND", "Task not found.");
      const audio = await (await callerAs(deps, user)).audios.get({ audioId });
      const task = restAudioTask(audio);
      if (!task) throw restError("NOT_FOUND", "Task not found.");
      return { ...task, audio_id: { _id: audio.id, filename: audio.filename, category: audio.category } };
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
