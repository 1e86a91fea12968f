import type { FastifyPluginAsync } from "fastify";
import { findTranslationFor } from "@tafsiri/api/services/recommendations";
import type { RestOptions } from "../rest";
import { callerFor, requireUser, sendResult, stringField } from "../../lib/rest-helpers";

/**
 * SPEC §7.1 recommendation paths: the translation lookup that must have an entry before an audio
 * may be recommended, and recommending it.
 */
export const recommendationRoutes: FastifyPluginAsync<RestOptions> = async (app, { deps }) => {
  /**
   * GET /api/hasrecommendation/{audioId} → array of the audio's translation entries
   * `{ _id, task_id, translation_script_approval_status, submission_date }`: one while a transcript
   * is saved, empty otherwise (recommending needs at least one). 404 / 403 like the audio itself.
   */
  app.get<{ Params: { audioId: string } }>("/api/hasrecommendation/:audioId", async (req, reply) =>
    sendResult(reply, async () => {
      const entries = await findTranslationFor(deps, await requireUser(deps, req), req.params.audioId);
      return entries.map((e) => ({
        _id: e.submissionId,
        task_id: e.taskId,
        translation_script_approval_status: e.translationScriptApprovalStatus,
        submission_date: e.submissionDate.toISOString(),
      }));
    }),
  );

  /**
   * PUT /api/recommendaudioforrecording/{audioId} { recommended_to } → `{ status, message }`
   * ('Recommendation sent successfully!.'); refusals carry the messages of SPEC §5.
   */
  app.put<{ Params: { audioId: string } }>("/api/recommendaudioforrecording/:audioId", async (req, reply) =>
    sendResult(reply, async () => {
      const caller = await callerFor(deps, req);
      const out = await caller.recommendations.create({ audioId: req.params.audioId, staffId: stringField(req.body, "recommended_to") });
      return { status: "success", success: true, message: out.message };
    }),
  );
};
