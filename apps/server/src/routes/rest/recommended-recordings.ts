import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RestOptions } from "./options";
import { ZPageQuery, ZPathId, answers } from "./shapes/common";
import { ZRestRecommendedRecordingPage, restRecommendedRecordingPage } from "./shapes/recommended-recordings";

const RECOMMENDATIONS = ["Recommendations"];
const BEARER = [{ bearerAuth: [] }];

/** SPEC §7.1 Recommended Recordings lists: all (admins) or one's own (staff), and one user's. */
export const recommendedRecordingRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/recommendedrecordings",
    {
      schema: {
        summary: "List recommended recordings",
        description:
          "SPEC §2.9, §6, §7.1, §9. Admins get every recommendation, staff those made to them; newest first, 10 per " +
          "page by default. 400 for a page or limit that is not a positive whole number (limit at most 100), 401 " +
          "without a session.",
        tags: RECOMMENDATIONS,
        security: BEARER,
        querystring: ZPageQuery,
        response: answers(ZRestRecommendedRecordingPage),
      },
    },
    async (req) => restRecommendedRecordingPage(await req.caller.recommendations.list(req.query)),
  );

  app.get(
    "/api/recommendedrecordings/user/:userId",
    {
      schema: {
        summary: "List one user's recommended recordings",
        description:
          "SPEC §2.9, §6, §7.1. The recommendations made to user {userId}: admins may list anyone's, staff only their " +
          "own (403 'You may only list your own recommendations.'). 400 'Unknown id.' for a malformed id or a bad " +
          "page or limit, 401 without a session.",
        tags: RECOMMENDATIONS,
        security: BEARER,
        params: z.object({ userId: ZPathId }),
        querystring: ZPageQuery,
        response: answers(ZRestRecommendedRecordingPage),
      },
    },
    async (req) =>
      restRecommendedRecordingPage(
        await req.caller.recommendations.list({ ...req.query, recommendedTo: req.params.userId }),
      ),
  );
};
