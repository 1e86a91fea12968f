import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { checkDatabaseReady, type AppDeps } from "@tafsiri/api";
import { useRestConventions } from "./rest/conventions";
import { answers } from "./rest/shapes/common";

/** /healthz's message while the instance is stopping (decision 029). */
export const STOPPING = "This instance is stopping; another one will answer.";

/**
 * `GET /healthz` (ARCHITECTURE "Settings"), in a scope of its own with the REST conventions: 200
 * `{status: "ok"}` once the database is migrated and answers; 503 with STOPPING from the moment
 * `isStopping()` is true (SIGTERM's notice period or app.close(), decision 029), so a proxy's health
 * check takes the instance out of rotation.
 */
export const healthRoutes: FastifyPluginAsync<{ deps: AppDeps; isStopping: () => boolean }> = async (
  scope,
  { deps, isStopping },
) => {
  useRestConventions(scope);
  scope.get(
    "/healthz",
    {
      schema: {
        summary: "Health check",
        description:
          'ARCHITECTURE "Settings". 200 once the database is migrated and answers; 503 while the instance is stopping (decision 029), so a proxy sends it nothing new.',
        tags: ["Health"],
        security: [],
        response: answers(z.object({ status: z.literal("ok") }).meta({ examples: [{ status: "ok" }] })),
      },
    },
    async (_request, reply) => {
      if (isStopping()) return reply.code(503).send({ status: "failed", success: false, message: STOPPING });
      await checkDatabaseReady(deps.db);
      return { status: "ok" as const };
    },
  );
};
