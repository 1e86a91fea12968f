import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ZCreateRecommendationInput, findTranslationFor } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { DONE, EXAMPLE_ID, EXAMPLE_USER_ID, ZPathId, ZRestDone, answers } from "./shapes/common";
import { signedInUser } from "./authenticate";

const ZTranslationEntries = z
  .array(
    z.object({
      _id: z.string(),
      task_id: z.string(),
      translation_script_approval_status: z.string(),
      submission_date: z.string(),
    }),
  )
  .meta({
    examples: [
      [
        {
          _id: EXAMPLE_ID,
          task_id: EXAMPLE_ID,
          translation_script_approval_status: "Pending",
          submission_date: "2026-11-23T09:30:00.000Z",
        },
      ],
    ],
  });

const ZRecommendBody = z
  .object({ recommended_to: ZCreateRecommendationInput.shape.staffId })
  .meta({ examples: [{ recommended_to: EXAMPLE_USER_ID }] });

const RECOMMENDATIONS = ["Recommendations"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §7.1 recommendation paths: the translation lookup recommending needs, and recommending. */
export const recommendationRoutes: FastifyPluginAsyncZod<RestOptions> = async (app, { deps }) => {
  app.get(
    "/api/hasrecommendation/:audioId",
    {
      schema: {
        summary: "Look up an audio's translation",
        description:
          "SPEC §4, §7.1. The audio's translation entries: one while a transcript is saved, none otherwise " +
          "(recommending needs at least one). 404 / 403 like the audio itself, 400 'Unknown id.', 401.",
        tags: RECOMMENDATIONS,
        security: BEARER,
        params: z.object({ audioId: ZPathId }),
        response: answers(ZTranslationEntries),
      },
    },
    async (req) => {
      const entries = await findTranslationFor(deps, signedInUser(req), req.params.audioId);
      return entries.map((e) => ({
        _id: e.submissionId,
        task_id: e.taskId,
        translation_script_approval_status: e.translationScriptApprovalStatus,
        submission_date: e.submissionDate.toISOString(),
      }));
    },
  );

  app.put(
    "/api/recommendaudioforrecording/:audioId",
    {
      schema: {
        summary: "Recommend an audio for recording",
        description:
          "SPEC §2.15, §4, §5, §7.1. The recipient is notified. 400 'Please select a staff member' or 'Translation stage " +
          "has not been completed.', 403 for an audio not yours, 404, 409 'This audio has already been recommended to " +
          "this staff member.', 401.",
        tags: RECOMMENDATIONS,
        security: BEARER,
        params: z.object({ audioId: ZPathId }),
        body: ZRecommendBody,
        response: answers(ZRestDone.meta({ examples: [{ ...DONE, message: "Recommendation sent successfully!." }] })),
      },
    },
    async (req) => {
      const out = await req.caller.recommendations.create({
        audioId: req.params.audioId,
        staffId: req.body.recommended_to,
      });
      return { ...DONE, message: out.message };
    },
  );
};
