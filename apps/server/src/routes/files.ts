import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import contentDisposition from "content-disposition";
import { z } from "zod";
import {
  AppError,
  fileDownload,
  isStorageKey,
  refuseSupersededExportFile,
  storedContentType,
  StoredFileMissingError,
  verifyFileUrl,
  type AppDeps,
} from "@tafsiri/api";
import { isNotModified, rangeOf, rangeStillApplies, validatorsOf } from "../lib/byte-range";
import type { RequestLimit } from "../plugins/request-limit";
import { useRestConventions } from "./rest/conventions";
import { ZRestFailure } from "./rest/shapes/common";

const LINK_INVALID = "This link has expired or is invalid.";
const FILE_NOT_FOUND = "File not found.";
const RANGE_NOT_SATISFIABLE = "The requested range is not satisfiable.";

/**
 * `Content-Disposition` (RFC 6266) for a stored file: `inline` or `attachment` with its name,
 * `filename*=UTF-8''…` (RFC 5987) when the name is not plain ASCII, and an ASCII `filename`
 * beside it for older clients.
 */
function dispositionHeader(disposition: "inline" | "attachment", fileName: string): string {
  return contentDisposition(fileName, { type: disposition, fallback: fileName.replace(/[^\x20-\x7e]/g, "_") });
}

/** The stored file `key`, or `slice` of it, streamed; 404 'File not found.' when it went away since its stat. */
async function openFile(
  deps: AppDeps,
  key: string,
  slice: { start: number; end: number } | undefined,
): Promise<Readable> {
  try {
    return await deps.storage.read(key, slice);
  } catch (error) {
    if (error instanceof StoredFileMissingError) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
    throw error;
  }
}

/**
 * `GET /files/{key}?expires&signature` (ARCHITECTURE "Decisions"): serves a stored file to a
 * holder of a signed URL from `/api/fetch-files` or a procedure, with no Authorization header, so
 * an `<audio>` element can load it. Supports HTTP Range (206 with Content-Range; 416 when
 * unsatisfiable). Every file answer says how to open it (`Content-Disposition`: audio inline under
 * its name, transcripts as attachments) beside the app-wide `X-Content-Type-Options: nosniff`, so
 * a stored file is never rendered as a page of ours. An expired or forged link answers 403 'This
 * link has expired or is invalid.'; a missing file 404.
 *
 * The bytes come through the storage interface (decision 014; local disk or the S3 bucket,
 * streamed, a Range read of just the slice asked for), never from a local path, with the answers
 * @fastify/send gave before: `Accept-Ranges`, `Content-Length`, `ETag` (weak, from size and last
 * write) and `Last-Modified`; 304 for a conditional GET that matches (If-None-Match,
 * If-Modified-Since); If-Range; 416 'The requested range is not satisfiable.' with a
 * `Content-Range` giving the size. HEAD answers the headers without reading the file.
 */
export const fileRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; limitRequests: RequestLimit }> = async (
  app,
  { deps, limitRequests },
) => {
  useRestConventions(app);
  app.addHook("onRequest", limitRequests);

  app.get(
    "/files/*",
    {
      // Sent as stored, never compressed on the fly: audio is compressed already, and a
      // byte range must count the stored bytes.
      compress: false,
      schema: {
        summary: "Download a stored file",
        description:
          'ARCHITECTURE "Decisions"; SPEC §7.2. A signed link from POST /api/fetch-files (or an audio\'s `audioUrl`), ' +
          "valid for an hour, needs no Authorization header. Supports HTTP Range (206; 416 when unsatisfiable). " +
          "Answers carry `Content-Disposition`: audio `inline` under its name (`{filename}.wav`, " +
          "`{filename}_TRANSLATEDAUDIO.mp3`), transcripts as `attachment` (`{filename}_INITIALTRANSCRIPT.txt`, the " +
          "version's `.cha` name), with `filename*=UTF-8''…` (RFC 6266, RFC 5987) for names beyond ASCII; and " +
          "`X-Content-Type-Options: nosniff`. " +
          "400 for a malformed query (a repeated `expires` or `signature`), 403 'This link has expired or is invalid.', 404 'File not found.', 410 'This export was superseded: a " +
          "participant in it withdrew consent. Start a new export.' for a dataset export's zip (decision 024).",
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
    async (req, typedReply) => {
      // File answers are streams (or empty), which the documented response types (bytes, failures) do not describe.
      const reply = typedReply as unknown as FastifyReply;
      const key = req.params["*"];
      if (!verifyFileUrl(deps.jwtSecret, key, req.query.expires, req.query.signature))
        throw new AppError("FORBIDDEN", LINK_INVALID);
      if (!isStorageKey(key)) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
      // Decision 024: a link copied before a participant withdrew consent stops working.
      await refuseSupersededExportFile(deps.db, key);
      const stat = await deps.storage.stat(key);
      if (!stat) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
      const validators = validatorsOf(stat.sizeBytes, stat.modifiedAt);
      reply.header("etag", validators.etag);
      reply.header("last-modified", validators.lastModified.toUTCString());
      reply.header("cache-control", "private, max-age=300");
      if (isNotModified(req.headers, validators)) return reply.code(304).send();

      const { disposition, fileName } = await fileDownload(deps.db, key);
      reply.header("content-type", storedContentType(key));
      reply.header("content-disposition", dispositionHeader(disposition, fileName));
      reply.header("accept-ranges", "bytes");
      const range = rangeStillApplies(req.headers, validators)
        ? rangeOf(req.headers.range, stat.sizeBytes)
        : ({ kind: "full" } as const);
      if (range.kind === "unsatisfiable") {
        const refused = new AppError("RANGE_NOT_SATISFIABLE", RANGE_NOT_SATISFIABLE);
        throw Object.assign(refused, { headers: { "content-range": `bytes */${stat.sizeBytes}` } });
      }
      const slice = range.kind === "partial" ? range : undefined;
      const length = slice ? slice.end - slice.start + 1 : stat.sizeBytes;
      // Opened before the status and length are set, so a failure answers a plain error.
      // HEAD answers the headers only (Fastify would drain a stream answer to a HEAD: give it none).
      const body = req.method === "HEAD" || length === 0 ? Readable.from([]) : await openFile(deps, key, slice);
      if (slice) {
        reply.code(206);
        reply.header("content-range", `bytes ${slice.start}-${slice.end}/${stat.sizeBytes}`);
      }
      reply.header("content-length", String(length));
      return reply.send(body);
    },
  );
};
