import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RestOptions } from "./options";
import { pagedDescription, sendPageLinks } from "./paging";
import { DONE, ZDoneFields, ZPageQuery, ZPathId, ZRestDone, answers } from "./shapes/common";
import {
  ZRestAudio,
  ZRestManagedAudioList,
  ZRestUnassignedAudioList,
  restAudio,
  restManagedAudio,
  restUnassignedAudio,
} from "./shapes/audios";
import { CATEGORIES } from "@tafsiri/domain";

const AUDIOS = ["Audios"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];
/** Lists answer a plain array (SPEC §7.1 "audio lists"): the paging travels in headers. */
const PAGED = pagedDescription(50);
/** Assign Tasks lists every unassigned audio of a category on one page where it can (audios.unassigned). */
const PAGED_UNASSIGNED = pagedDescription(100, 200);

const ZOpened = z.object({ ...ZDoneFields, ok: z.boolean() }).meta({ examples: [{ ...DONE, ok: true }] });

/** SPEC §7.1 audio paths: the Manage Audios and Assign Tasks lists, one audio, marking it opened, deleting it. */
export const audioRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  for (const category of CATEGORIES) {
    const name = category.toLowerCase();
    app.get(
      `/api/audios/${name}`,
      {
        schema: {
          summary: `List ${category} audios (admin)`,
          description: `SPEC §2.18, §7.1. Every ${category} audio with its task's assignee and statuses, and its length in seconds (duration_seconds, null while not known). ${PAGED} 401, 403 for staff.`,
          tags: AUDIOS,
          security: BEARER,
          querystring: ZPageQuery,
          response: answers(ZRestManagedAudioList),
        },
      },
      async (req, reply) => {
        const page = await req.caller.audios.list({ ...req.query, category });
        sendPageLinks(req, reply, req.query.page, page.totalPages);
        return page.items.map(restManagedAudio);
      },
    );

    app.get(
      `/api/audios/${name}withouttasks`,
      {
        schema: {
          summary: `List unassigned ${category} audios (admin)`,
          description: `SPEC §2.17, §7.1. ${category} audios without a task, for Assign Tasks, each with its length in seconds (duration_seconds, null while not known). ${PAGED_UNASSIGNED} 401, 403 for staff.`,
          tags: AUDIOS,
          security: BEARER,
          querystring: ZPageQuery,
          response: answers(ZRestUnassignedAudioList),
        },
      },
      async (req, reply) => {
        const page = await req.caller.audios.unassigned({ ...req.query, category });
        sendPageLinks(req, reply, req.query.page, page.totalPages);
        return page.items.map((a) => restUnassignedAudio(a, category));
      },
    );
  }

  app.get(
    "/api/audios/:id",
    {
      schema: {
        summary: "Get an audio",
        description:
          "SPEC §2.11, §3, §7.1. The audio with signed URLs for its file and initial transcript and its length in seconds " +
          "(duration_seconds, null while not known). Admins see any audio and " +
          "who opened it last (`lastOpenedBy` the user id, `lastOpenedByUsername` the name); staff only audios assigned or recommended to them (403). 400 'Unknown id.', 404, 401.",
        tags: AUDIOS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: answers(ZRestAudio),
      },
    },
    async (req) => restAudio(await req.caller.audios.get({ audioId: req.params.id })),
  );

  app.put(
    "/api/updateaudios/:audioId/:userId",
    {
      schema: {
        summary: "Mark an audio opened",
        description:
          "SPEC §4, §7.1. The signed-in user opened the audio (recorded for admins only: `ok`). The user is the " +
          "caller, whatever {userId} says. 403 for staff on an audio not theirs, 404, 400 'Unknown id.', 401.",
        tags: AUDIOS,
        security: BEARER,
        params: z.object({ audioId: ZPathId, userId: ZPathId }),
        response: answers(ZOpened),
      },
    },
    async (req) => ({ ...DONE, ...(await req.caller.audios.markOpened({ audioId: req.params.audioId })) }),
  );

  app.delete(
    "/api/audios/delete/:id",
    {
      schema: {
        summary: "Delete an audio (admin)",
        description:
          "SPEC §2.18, §7.1. Removes the audio with its task, submission, comments, recommendations and files; " +
          "notifications about it stay. 401, 403 for staff, 404, 400 'Unknown id.'.",
        tags: AUDIOS,
        security: BEARER,
        params: z.object({ id: ZPathId }),
        response: answers(ZRestDone.meta({ examples: [{ ...DONE, message: "Audio deleted successfully." }] })),
      },
    },
    async (req) => ({ ...DONE, message: (await req.caller.audios.delete({ audioId: req.params.id })).message }),
  );
};
