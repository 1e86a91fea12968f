import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { RestOptions } from "./options";
import { answers } from "./shapes/common";
import { ZRestSearchResults, ZSearchQuery, restSearchResult } from "./shapes/search";

/** SPEC §7.1 GET api/search?q={keyword}: the header's audio search. */
export const searchRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/search",
    {
      schema: {
        summary: "Search audios by filename",
        description:
          "SPEC §2.3, §5, §7.1. Up to 20 audios whose filename contains {q} (any part, case-insensitive; % and _ match " +
          "themselves), those starting with it first, then by filename, each with its task and assignee (task null when " +
          "unassigned). Staff find only audios assigned to them, admins all. A blank or missing q answers []. 400 " +
          "'Search keyword is too long (200 characters at most).', 401 without a session.",
        tags: ["Search"],
        security: [{ bearerAuth: [] }, { apiToken: [] }],
        querystring: ZSearchQuery,
        response: answers(ZRestSearchResults),
      },
    },
    async (req) => (await req.caller.search.audios({ q: req.query.q ?? "" })).map(restSearchResult),
  );
};
