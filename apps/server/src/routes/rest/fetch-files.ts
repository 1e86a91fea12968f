import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { fileLinkFor } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { answers } from "./shapes/common";
import { signedInUser } from "./authenticate";

const ZFetchFilesBody = z
  .object({ fileUrl: z.string().optional().default(""), folder: z.string().optional() })
  .meta({ examples: [{ fileUrl: "audios/interview-07.wav", folder: "audios" }] });

const ZFileLink = z
  .object({ url: z.string() })
  .meta({ examples: [{ url: "/files/audios/interview-07.wav?expires=1795000000&signature=3q2-7w" }] });

/** SPEC §7.1 POST /api/fetch-files: a readable, short-lived link for a stored file. */
export const fetchFilesRoutes: FastifyPluginAsyncZod<RestOptions> = async (app, { deps }) => {
  app.post(
    "/api/fetch-files",
    {
      schema: {
        summary: "Get a readable file URL",
        description:
          'SPEC §7.1, §7.2; ARCHITECTURE "Decisions". `fileUrl` is a storage key (or an earlier /files/ URL); `folder` is ' +
          "accepted and not needed. Answers a signed /files/ URL valid for an hour, which an <audio> element can load " +
          "(HTTP Range supported) without an Authorization header. The caller must be allowed to open the file's audio " +
          "(401, 403). 400 'fileUrl is required.', 404 'File not found.'.",
        tags: ["Files"],
        security: [{ bearerAuth: [] }, { apiToken: [] }],
        body: ZFetchFilesBody,
        response: answers(ZFileLink),
      },
    },
    async (req) => ({ url: await fileLinkFor(deps, signedInUser(req), req.body.fileUrl) }),
  );
};
