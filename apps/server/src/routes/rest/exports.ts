import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { REAUTH_STATUS, ZChatSettings, ZExportChoice } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { pagedDescription, sendPageLinks } from "./paging";
import { DONE, ZPageQuery, ZRestFailure, answers } from "./shapes/common";
import { REST_EXPORT_STATUSES, ZRestExportPage, ZRestExportStarted, restExport } from "./shapes/exports";

const EXPORTS = ["Exports"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** The export form as integrators send it: the procedure's fields in snake_case, each optional. */
const ZExportBody = z
  .object({
    category: ZExportChoice.shape.category,
    status: z
      .enum(["completed", "approved_transcript"], { error: "status must be completed or approved_transcript." })
      .optional()
      .meta({
        description:
          "completed (default): tasks whose transcript and recording are Approved; approved_transcript: every audio " +
          "with an Approved transcript, its recording only when Approved too.",
      }),
    approved_from: ZExportChoice.shape.approvedFrom.meta({
      description: "First day of approval (YYYY-MM-DD), included.",
    }),
    approved_to: ZExportChoice.shape.approvedTo.meta({ description: "Last day of approval (YYYY-MM-DD), included." }),
    languages: ZChatSettings.shape.languages,
    participant_role: ZChatSettings.shape.participantRole,
    corpus: ZChatSettings.shape.corpus,
    include_restricted: z
      .boolean({ error: "include_restricted must be true or false." })
      .optional()
      .meta({
        description:
          "Decision 024: also export recordings of participants whose consent is 'restricted' (default false: " +
          "only consent 'given'). Audios without a participant, or whose participant withdrew or has no recorded " +
          "consent, are always left out.",
      }),
  })
  .prefault({})
  .meta({
    examples: [
      {
        category: "Dementia",
        status: "completed",
        approved_from: "2026-01-01",
        approved_to: "2026-06-30",
        languages: ["eng"],
        participant_role: "Participant",
        corpus: "tafsiri",
        include_restricted: false,
      },
    ],
  });

/** Dataset exports over REST (decision 019), Admin only (the procedures exports.list and exports.create). */
export const exportRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/exports",
    {
      schema: {
        summary: "List dataset exports",
        description:
          "SPEC §2.2 (Management), §6 (Admin only); decision 019. Every export, newest first: its choice, state, progress (`done` of " +
          "`total` audios) and, while ready, `download_url`, a signed link to the zip valid until 24 hours after it " +
          `finished. 401 without a session, 403 for staff. ${pagedDescription(10)}`,
        tags: EXPORTS,
        security: BEARER,
        querystring: ZPageQuery,
        response: answers(ZRestExportPage),
      },
    },
    async (req, reply) => {
      const page = await req.caller.exports.list({ page: req.query.page, limit: req.query.limit });
      sendPageLinks(req, reply, req.query.page, page.totalPages);
      return { exports: page.items.map(restExport), pagination: { totalPages: page.totalPages } };
    },
  );

  app.post(
    "/api/exports",
    {
      schema: {
        summary: "Start a dataset export",
        description:
          "SPEC §2.2 (Management), §3 (.cha transcripts), §6 (Admin only); decision 019. Starts a background job writing a zip of the chosen approved work: per audio " +
          "`{category}/{filename}/` holding the original audio, the approved transcript as a CHAT (.cha) file and " +
          "the approved translated recording, plus `manifest.csv` and `manifest.jsonl` (audio id, file name, " +
          "category, assignee, recorder, approval dates, each file's path, size and SHA-256, the session day and " +
          "the participant's code, group, sex, age, education, languages, scores and consent). Decision 024: only " +
          "audios linked to a participant whose consent is given (or restricted, with `include_restricted`) are " +
          "exported; `left_out.csv` and `left_out.json` count the others by reason. Answers 202 with the " +
          "export running; GET /api/exports (or the `export.changed` live event) tells its progress. A running " +
          "export of the same choice is answered instead of starting another; when nothing changed since the last " +
          "finished export of the same choice, its zip is offered again. Every field is optional (defaults: both " +
          "categories, completed, no period, eng, Participant, tafsiri). 400 with the field's message for a bad " +
          "choice or 'The first day must not be after the last day.', 401 without a session, 403 for staff, 429 " +
          `when three exports are running. ${REAUTH_STATUS}`,
        tags: EXPORTS,
        security: BEARER,
        body: ZExportBody,
        response: { 202: ZRestExportStarted, "4xx": ZRestFailure, "5xx": ZRestFailure },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const started = await req.caller.exports.create({
        category: body.category,
        status: body.status === undefined ? undefined : REST_EXPORT_STATUSES[body.status],
        approvedFrom: body.approved_from,
        approvedTo: body.approved_to,
        chat: { languages: body.languages, participantRole: body.participant_role, corpus: body.corpus },
        includeRestricted: body.include_restricted,
      });
      reply.code(202);
      return {
        ...DONE,
        message: started.state === "running" ? "Export started." : "Export ready.",
        export: restExport(started),
      };
    },
  );
};
