import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RestOptions } from "./options";
import { pagedDescription, sendPageLinks } from "./paging";
import { ZPageQuery, ZPathId, answers } from "./shapes/common";
import { ZRestRecommendedRecordingPage, restRecommendedRecordingPage } from "./shapes/recommended-recordings";

const RECOMMENDATIONS = ["Recommendations"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §7.1 Recommended Recordings lists: all (admins) or one's own (staff), and one user's. */
export const recommendedRecordingRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/recommendedrecordings",
    {
      schema: {
        summary: "List recommended recordings",
        description:
          "SPEC §2.9, §6, §7.1, §9. Admins get every recommendation, staff those made to them; newest first. 401 " +
          `without a session. ${pagedDescription(10)}`,
        tags: RECOMMENDATIONS,
        security: BEARER,
        querystring: ZPageQuery,
        response: answers(ZRestRecommendedRecordingPage),
      },
    },
    async (req, reply) => {
      const page = await req.caller.recommendations.list(req.query);
      sendPageLinks(req, reply, req.query.page, page.totalPages);
      return restRecommendedRecordingPage(page);
    },
  );

  app.get(
    "/api/recommendedrecordings/user/:userId",
    {
      schema: {
        summary: "List one user's recommended recordings",
        description:
          "SPEC §2.9, §6, §7.1. The recommendations made to user {userId}: admins may list anyone's, staff only their " +
          "own (403 'You may only list your own recommendations.'). 400 'Unknown id.' for a malformed id, 401 without " +
          `a session. ${pagedDescription(10)}`,
        tags: RECOMMENDATIONS,
        security: BEARER,
        params: z.object({ userId: ZPathId }),
        querystring: ZPageQuery,
        response: answers(ZRestRecommendedRecordingPage),
      },
    },
    async (req, reply) => {
      const page = await req.caller.recommendations.list({ ...req.query, recommendedTo: req.params.userId });
      sendPageLinks(req, reply, req.query.page, page.totalPages);
      return restRecommendedRecordingPage(page);
    },
  );
};
