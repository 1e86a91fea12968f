import path from "node:path";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import fastifyStatic from "@fastify/static";
import contentDisposition from "content-disposition";
import { z } from "zod";
import { AppError, fileDownload, storedContentType, verifyFileUrl, type AppDeps } from "@tafsiri/api";
import type { RequestLimit } from "../lib/request-limit";
import { useRestConventions } from "./rest/conventions";
import { ZRestFailure } from "./rest/shapes/common";

const LINK_INVALID = "This link has expired or is invalid.";
const FILE_NOT_FOUND = "File not found.";

/**
 * `Content-Disposition` (RFC 6266) for a stored file: `inline` or `attachment` with its name,
 * `filename*=UTF-8''…` (RFC 5987) when the name is not plain ASCII, and an ASCII `filename`
 * beside it for older clients.
 */
function dispositionHeader(disposition: "inline" | "attachment", fileName: string): string {
  return contentDisposition(fileName, { type: disposition, fallback: fileName.replace(/[^\x20-\x7e]/g, "_") });
}

/**
 * `GET /files/{key}?expires&signature` (ARCHITECTURE "Decisions"): serves a stored file to a
 * holder of a signed URL from `/api/fetch-files` or a procedure, with no Authorization header, so
 * an `<audio>` element can load it. Supports HTTP Range (206 with Content-Range; 416 when
 * unsatisfiable). Every file answer says how to open it (`Content-Disposition`: audio inline under
 * its name, transcripts as attachments) beside the app-wide `X-Content-Type-Options: nosniff`, so
 * a stored file is never rendered as a page of ours. An expired or forged link answers 403 'This
 * link has expired or is invalid.'; a missing file 404.
 */
export const fileRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; limitRequests: RequestLimit }> = async (
  app,
  { deps, limitRequests },
) => {
  useRestConventions(app);
  app.addHook("onRequest", limitRequests);
  await app.register(fastifyStatic, { serve: false });

  app.get(
    "/files/*",
    {
      schema: {
        summary: "Download a stored file",
        description:
          'ARCHITECTURE "Decisions"; SPEC §7.2. A signed link from POST /api/fetch-files (or an audio\'s `audioUrl`), ' +
          "valid for an hour, needs no Authorization header. Supports HTTP Range (206; 416 when unsatisfiable). " +
          "Answers carry `Content-Disposition` (issue 10): audio `inline` under its name (`{filename}.wav`, " +
          "`{filename}_TRANSLATEDAUDIO.mp3`), transcripts as `attachment` (`{filename}_INITIALTRANSCRIPT.txt`, the " +
          "version's `.cha` name), with `filename*=UTF-8''…` (RFC 6266, RFC 5987) for names beyond ASCII; and " +
          "`X-Content-Type-Options: nosniff`. " +
          "403 'This link has expired or is invalid.', 404 'File not found.'.",
        tags: ["Files"],
        security: [],
        params: z.object({ "*": z.string().meta({ examples: ["audios/3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e.wav"] }) }),
        querystring: z.object({
          expires: z
            .string()
            .optional()
            .meta({ examples: ["1795000000"] }),
          signature: z
            .string()
            .optional()
            .meta({ examples: ["3q2-7w"] }),
        }),
        response: {
          200: {
            description: "The file's bytes (audio or plain text).",
            content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
          },
          "4xx": ZRestFailure,
        },
      },
    },
    async (req, reply) => {
      const key = req.params["*"];
      if (!verifyFileUrl(deps.jwtSecret, key, req.query.expires, req.query.signature))
        throw new AppError("FORBIDDEN", LINK_INVALID);
      let file: string;
      try {
        file = deps.storage.absolutePath(key);
      } catch {
        throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
      }
      if (!(await deps.storage.exists(key))) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
      const { disposition, fileName } = await fileDownload(deps.db, key);
      reply.header("content-type", storedContentType(key));
      reply.header("content-disposition", dispositionHeader(disposition, fileName));
      reply.header("cache-control", "private, max-age=300");
      return reply.sendFile(path.basename(file), path.dirname(file), { contentType: false, cacheControl: false });
    },
  );
};
