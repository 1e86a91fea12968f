import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
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

/** A stored file's bytes under `type`, with its example in the schema (the answer is not JSON). */
function bytesOf(type: string, example: string) {
  return { [type]: { schema: z.string().meta({ format: "binary", examples: [example] }) } };
}

/** What the audio folders hold: audio as uploaded (SPEC §9), and beside each its waveform peaks (decision 023). */
const AUDIO_BYTES = {
  ...bytesOf("audio/mpeg", "ID3…"),
  ...bytesOf("audio/wav", "RIFF…WAVE…"),
  ...bytesOf("audio/flac", "fLaC…"),
  ...bytesOf("audio/ogg", "OggS…"),
  ...bytesOf("application/octet-stream", "(a `.peaks.dat` file: audiowaveform binary, version 1)"),
};
const TEXT_BYTES = bytesOf("text/plain; charset=utf-8", "@UTF8\n@Begin\n…");
const ZIP_BYTES = bytesOf("application/zip", "PK…");

/** Where a link's folders are described once: one path each, so a client matching by segments finds it. */
const LINK_WORDS =
  'ARCHITECTURE "Decisions"; SPEC §7.2. A signed link, valid for an hour (a dataset export\'s until it expires), needs no ' +
  "Authorization header. Supports HTTP Range (206 with `Content-Range`; 416 when unsatisfiable, with `Content-Range: bytes */{size}`) " +
  "and conditional requests (`ETag`, `Last-Modified`; 304). Answers carry `Content-Disposition` (RFC 6266; " +
  "`filename*=UTF-8''…` per RFC 5987 for names beyond ASCII) and `X-Content-Type-Options: nosniff`. " +
  "400 for a malformed query (a repeated `expires` or `signature`), 403 'This link has expired or is invalid.', 404 'File not found.'";

/** The answers of a file path: the whole file (200) or a range of it (206) as `bytes`, 304, and the failures. */
function fileAnswers(bytes: Record<string, { schema: z.ZodType }>) {
  return {
    200: { description: "The whole file.", content: bytes },
    206: { description: "The byte range asked for (`Range`), with `Content-Range`.", content: bytes },
    304: z.null().meta({
      description: "No body: the file has not changed since the `If-None-Match` or `If-Modified-Since` given.",
    }),
    "4xx": ZRestFailure,
    "5xx": ZRestFailure,
  };
}

/** `?expires&signature` of a signed link (signFileUrl); left out or wrong, the link answers 403. */
export const ZLinkQuery = z.object({
  expires: z
    .string()
    .optional()
    .meta({ description: "When the link expires, in seconds since 1970.", examples: ["1795000000"] }),
  signature: z
    .string()
    .optional()
    .meta({
      description: "The link's signature (HMAC-SHA256, base64url).",
      examples: ["q1ZlJ3x9Yb8aT2mE0fWcR7nK4sD6uH5pL3vG8jA1oXk"],
    }),
});

const ZId = z.string().meta({ examples: ["3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e"] });
const fileName = (example: string) => z.string().meta({ examples: [example] });

type LinkQuery = z.infer<typeof ZLinkQuery>;

/**
 * Serves stored file `key` (its link already checked), whole or the range asked for (RFC 9110:
 * 206 with Content-Range, 304 when not modified, 416 for a range past its end).
 */
async function sendFile(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, key: string) {
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
 *
 * The OpenAPI document describes one path per folder a link can name (an OpenAPI path parameter
 * is one segment, so `/files/{*}` alone matches no real link): audios, translated recordings,
 * initial and saved transcripts, dataset exports, each with the content types it serves. Any
 * other key goes to `/files/{*}`, which answers the same way (an unsigned or forged link 403).
 */
export const fileRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; limitRequests: RequestLimit }> = async (
  app,
  { deps, limitRequests },
) => {
  useRestConventions(app);
  app.addHook("onRequest", limitRequests);

  /** 403 unless the link's signature holds for `key` and has not expired; 404 for a key storage would refuse. */
  const checkLink = (key: string, query: LinkQuery) => {
    if (!verifyFileUrl(deps.jwtSecret, key, query.expires, query.signature))
      throw new AppError("FORBIDDEN", LINK_INVALID);
    if (!isStorageKey(key)) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  };

  /** The link to `key`, checked, then its file; a dataset export's zip first answers 410 once superseded (decision 024). */
  const serveExport = async (req: FastifyRequest, reply: FastifyReply, key: string, query: LinkQuery) => {
    checkLink(key, query);
    // Decision 024: a link copied before a participant withdrew consent stops working.
    await refuseSupersededExportFile(deps.db, key);
    return sendFile(deps, req, reply, key);
  };

  /** The link to `key`, checked, then its file. */
  const serve = async (req: FastifyRequest, reply: FastifyReply, key: string, query: LinkQuery) => {
    checkLink(key, query);
    return sendFile(deps, req, reply, key);
  };

  // File answers are streams (or empty), which the documented response types (bytes, failures) do not describe:
  // each handler passes Fastify's own request and reply on.
  const untyped = (reply: unknown) => reply as FastifyReply;
  const common = { tags: ["Files"], security: [], querystring: ZLinkQuery };
  // Sent as stored, never compressed on the fly: audio is compressed already, and a byte range must count the stored bytes.
  const compress = false as const;

  app.get(
    "/files/audios/:file",
    {
      compress,
      schema: {
        ...common,
        summary: "Download an audio file, or its waveform peaks",
        description:
          "An audio's own file (`audioUrl`, POST /api/fetch-files), `inline` under `{filename}.wav`, and beside it " +
          `its waveform peaks \`{file}.peaks.dat\` (\`peaksUrl\`, decision 023). ${LINK_WORDS}.`,
        params: z.object({ file: fileName("3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e.wav") }),
        response: fileAnswers(AUDIO_BYTES),
      },
    },
    (req, reply) => serve(req, untyped(reply), `audios/${req.params.file}`, req.query),
  );

  app.get(
    "/files/recordings/:audioId/:file",
    {
      compress,
      schema: {
        ...common,
        summary: "Download a translated recording, or its waveform peaks",
        description:
          "A translated recording (SPEC §7.2), `inline` under `{filename}_TRANSLATEDAUDIO.mp3`, and beside it its " +
          `waveform peaks \`{file}.peaks.dat\` (decision 023). ${LINK_WORDS}.`,
        params: z.object({ audioId: ZId, file: fileName("9d4a6b2e-1c3f-4e5a-8b7c-0d1e2f3a4b5c.mp3") }),
        response: fileAnswers(AUDIO_BYTES),
      },
    },
    (req, reply) => serve(req, untyped(reply), `recordings/${req.params.audioId}/${req.params.file}`, req.query),
  );

  app.get(
    "/files/initial-transcripts/:file",
    {
      compress,
      schema: {
        ...common,
        summary: "Download an audio's initial transcript",
        description: `An audio's initial transcript (\`transcriptUrl\`), an \`attachment\` named \`{filename}_INITIALTRANSCRIPT.txt\`. ${LINK_WORDS}.`,
        params: z.object({ file: fileName("3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e.txt") }),
        response: fileAnswers(TEXT_BYTES),
      },
    },
    (req, reply) => serve(req, untyped(reply), `initial-transcripts/${req.params.file}`, req.query),
  );

  app.get(
    "/files/transcripts/:audioId/:versionId/:file",
    {
      compress,
      schema: {
        ...common,
        summary: "Download a saved transcript version",
        description: `A saved transcript version (SPEC §3, CHAT \`.cha\`), an \`attachment\` under the version's name. ${LINK_WORDS}.`,
        params: z.object({ audioId: ZId, versionId: ZId, file: fileName("interview-07.cha") }),
        response: fileAnswers(TEXT_BYTES),
      },
    },
    (req, reply) =>
      serve(
        req,
        untyped(reply),
        `transcripts/${req.params.audioId}/${req.params.versionId}/${req.params.file}`,
        req.query,
      ),
  );

  app.get(
    "/files/exports/:file",
    {
      compress,
      schema: {
        ...common,
        summary: "Download a dataset export",
        description:
          "A dataset export's zip (`download_url` of GET /api/exports, decision 019), an `attachment` named " +
          `\`tafsiri-export-{date}.zip\`. ${LINK_WORDS}; 410 'This export was superseded: a participant in it withdrew ` +
          "consent. Start a new export.' (decision 024).",
        params: z.object({ file: fileName("7e1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b.zip") }),
        response: fileAnswers(ZIP_BYTES),
      },
    },
    (req, reply) => serveExport(req, untyped(reply), `exports/${req.params.file}`, req.query),
  );

  app.get(
    "/files/*",
    {
      compress,
      schema: {
        ...common,
        summary: "Download a stored file by any other key",
        description:
          "Any other storage key (the paths above name every folder a link is given for; an encoded `/` such as " +
          "`audios%2F{file}` also lands here). Served the same way, by the key's extension. " +
          `${LINK_WORDS}; 410 for a superseded dataset export's zip (decision 024).`,
        params: z.object({ "*": z.string().meta({ examples: ["audios/3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e.wav"] }) }),
        response: fileAnswers({ ...AUDIO_BYTES, ...TEXT_BYTES, ...ZIP_BYTES }),
      },
    },
    (req, reply) => serveExport(req, untyped(reply), req.params["*"], req.query),
  );
};
