import type { FastifyPluginAsync, FastifyReply } from "fastify";
import type { Category } from "@tafsiri/db";
import type { RestOptions } from "../rest";
import { callerFor, pageQuery, sendResult } from "../../lib/rest-helpers";
import { restAudioDetail, restManagedAudio } from "../../lib/rest-shapes";

/** Lists answer a plain array (SPEC §7.1 "audio lists"); the page count travels in this header. */
const TOTAL_PAGES_HEADER = "x-total-pages";

function withTotalPages<T>(reply: FastifyReply, page: { items: T[]; totalPages: number }): T[] {
  reply.header(TOTAL_PAGES_HEADER, String(page.totalPages));
  return page.items;
}

/**
 * SPEC §7.1 audio paths, mapped onto the audios procedures: the Manage Audios lists (with and
 * without tasks), one audio, marking it opened, deleting it.
 */
export const audioRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps }) => {
  const lists: Array<[path: string, category: Category, withoutTasks: boolean]> = [
    ["/api/audios/dementia", "Dementia", false],
    ["/api/audios/control", "Control", false],
    ["/api/audios/dementiawithouttasks", "Dementia", true],
    ["/api/audios/controlwithouttasks", "Control", true],
  ];
  for (const [path, category, withoutTasks] of lists) {
    /**
     * GET /api/audios/{category}[withouttasks]?page&limit → array of `{ _id, filename, category, ... }`
     * (admins only); X-Total-Pages carries the page count.
     */
    app.get(path, async (req, reply) =>
      sendResult(reply, async () => {
        const caller = await callerFor(deps, req);
        const paging = pageQuery(req.query);
        if (withoutTasks) {
          const page = await caller.audios.unassigned({ ...paging, category });
          return withTotalPages(reply, page).map((a) => ({ _id: a.id, filename: a.filename, category }));
        }
        const page = await caller.audios.list({ ...paging, category });
        return withTotalPages(reply, page).map(restManagedAudio);
      }),
    );
  }

  /** GET /api/audios/{id} → `{ _id, filename, audioUrl, transcript, task, lastOpenedBy, timeLastOpened }`. */
  app.get<{ Params: { id: string } }>("/api/audios/:id", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      return restAudioDetail(await caller.audios.get({ audioId: req.params.id }));
    }),
  );

  /**
   * PUT /api/updateaudios/{audioId}/{userId} → `{ status }`: the signed-in user opened the audio
   * (SPEC §4; recorded for admins only). The user is the caller, whatever the path or body says.
   */
  app.put<{ Params: { audioId: string; userId: string } }>("/api/updateaudios/:audioId/:userId", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const out = await caller.audios.markOpened({ audioId: req.params.audioId });
      return { status: "success", success: true, ...out };
    }),
  );

  /** DELETE /api/audios/delete/{id} → `{ message }` (SPEC §2.18). */
  app.delete<{ Params: { id: string } }>("/api/audios/delete/:id", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const out = await caller.audios.delete({ audioId: req.params.id });
      return { status: "success", success: true, message: out.message };
    }),
  );
};
