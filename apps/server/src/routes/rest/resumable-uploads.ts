import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { documentedOnly } from "./conventions";
import { z } from "zod";
import { Metadata, Server } from "@tus/server";
import {
  AppError,
  cancelResumableUpload,
  finishResumableUpload,
  openResumableUpload,
  ownResumableUpload,
  recordResumableUpload,
  startResumableUpload,
  takeFinishedUpload,
  type SessionUser,
  type UploadKind,
} from "@tafsiri/api";
import type { RestOptions } from "./options";
import { signedInUser } from "./authenticate";
import { ZRestFailure, answers } from "./shapes/common";
import { ZUploadAnswer, restUploadAnswer } from "./shapes/uploads";

/** A session token or an API token (decision 036). */
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];
/** Where the tus protocol is served (decision 020). */
export const RESUMABLE_UPLOADS_PATH = "/api/uploads";

/** A new upload's owner and kind, from the Fastify request to tus's onUploadCreate hook. */
interface PendingCreation {
  user: SessionUser;
  kind: UploadKind;
}

/** The tus headers an integrator sends, as the OpenAPI document lists them. */
const TUS_RESUMABLE = z.literal("1.0.0").meta({ description: "The tus protocol version.", examples: ["1.0.0"] });
const ZUploadId = z.string().meta({ examples: ["3f9d2c1a7b6e4d5c8a9b0c1d2e3f4a5b"] });
const ZNoContent = z.null().meta({ description: "No body: the tus headers carry the answer." });
/** The routes of the tus protocol answer without a JSON body, except on failure. */
const tusAnswers = (status: 201 | 204) => ({ [status]: ZNoContent, "4xx": ZRestFailure, "5xx": ZRestFailure });

/** The tus request's body is a byte stream tus reads itself: the schemas only document it. */
const documentOnly = documentedOnly("body", "headers");

function metadataOf(req: FastifyRequest): Record<string, string | null> {
  const raw = req.headers["upload-metadata"];
  try {
    return Metadata.parse(typeof raw === "string" ? raw : undefined);
  } catch {
    throw new AppError("BAD_REQUEST", "Upload-Metadata is not valid.");
  }
}

/**
 * `POST /api/uploads`, `HEAD|PATCH|DELETE /api/uploads/{id}` (the tus 1.0 protocol: creation,
 * core and termination, @tus/server writing to `storage.uploadStore`) and
 * `POST /api/uploads/{id}/finish` (decision 020). Every request needs the Bearer token; an
 * upload is its owner's alone (ownResumableUpload: another user's id answers 404 as an unknown one).
 * A new upload names its kind and form fields in Upload-Metadata and is checked before its first byte
 * (startResumableUpload: role, size limit, kind's rules); its bytes survive a dropped connection
 * and continue from Upload-Offset; `finish` then turns them into what the multipart path of the
 * same kind makes, once, and answers as it does.
 */
export const resumableUploadRoutes: FastifyPluginAsyncZod<RestOptions> = async (app, { deps, maxUploadBytes }) => {
  const pending = new WeakMap<IncomingMessage, PendingCreation>();
  const tus = new Server({
    path: RESUMABLE_UPLOADS_PATH,
    datastore: deps.storage.uploadStore,
    maxSize: maxUploadBytes,
    relativeLocation: true,
    async onUploadCreate(req, upload) {
      const raw = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
      const creation = raw ? pending.get(raw) : undefined;
      if (!creation || upload.size === undefined) throw { status_code: 400, body: "Upload not checked.\n" };
      await recordResumableUpload(deps, { id: upload.id, ...creation, sizeBytes: upload.size });
      return {};
    },
  });

  // tus reads the request body itself, so no parser may consume it here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_req, _payload, done) => done(null, undefined));

  /** Hands the request to tus: from here on tus writes the answer. */
  const toTus = async (req: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await tus.handle(req.raw, reply.raw);
  };

  const idParams = z.object({ id: ZUploadId });
  const base = { tags: ["Uploads"], security: BEARER };

  app.post(
    RESUMABLE_UPLOADS_PATH,
    {
      schema: {
        ...base,
        summary: "Start a resumable upload (tus)",
        description:
          'Decision 020; ARCHITECTURE "Decisions" (uploads). tus 1.0 creation: `Upload-Length` (bytes) and ' +
          "`Upload-Metadata` with `kind` (AUDIO, INITIAL_TRANSCRIPT, AUDIOTRANSLATION, TRANSLATED_TRANSCRIPT), " +
          "`filename` and the fields of the multipart form of that kind (`category`, `participant_code` and `session_date` " +
          "(decision 024), `source_language` and `target_language` (decision 035: the audio's own languages, ISO 639-3; " +
          "400 'A language is an ISO 639-3 code of three lower-case letters, such as eng or swa.'), `audioId`, " +
          "`recordedBy`, `replace`). Checked before any byte is sent, with the messages of " +
          "`POST /api/audios/upload/{KIND}`: 400, 401, 403, 404, 409, 413 past MAX_UPLOAD_BYTES (20 MB for transcripts), 415. Answers 201 with `Location`.",
        headers: z.object({
          "tus-resumable": TUS_RESUMABLE,
          "upload-length": z.string().meta({ examples: ["41943040"] }),
          "upload-metadata": z.string().meta({
            examples: ["kind QVVESU9UUkFOU0xBVElPTg==,filename cmVjb3JkaW5nLndhdg==,audioId NWYyYzlhMWU="],
          }),
        }),
        response: tusAnswers(201),
      },
      validatorCompiler: documentOnly,
    },
    async (req, reply) => {
      const user = signedInUser(req);
      const start = { metadata: metadataOf(req), uploadLength: req.headers["upload-length"], maxUploadBytes };
      pending.set(req.raw, { user, kind: await startResumableUpload(deps, user, start) });
      await toTus(req, reply);
    },
  );

  app.route({
    method: ["HEAD"],
    url: `${RESUMABLE_UPLOADS_PATH}/:id`,
    schema: { hide: true },
    handler: async (req, reply) => {
      const { id } = req.params as { id: string };
      const row = await ownResumableUpload(deps, signedInUser(req), id);
      // Claimed by `finish`: the bytes have left the tus store, but for the client they are all there.
      if (row.finishingAt !== null) {
        return reply
          .code(200)
          .headers({
            "tus-resumable": "1.0.0",
            "upload-offset": String(row.sizeBytes),
            "upload-length": String(row.sizeBytes),
            "cache-control": "no-store",
          })
          .send();
      }
      await toTus(req, reply);
    },
  });

  app.patch(
    `${RESUMABLE_UPLOADS_PATH}/:id`,
    {
      schema: {
        ...base,
        summary: "Send bytes of a resumable upload (tus)",
        description:
          'Decision 020; ARCHITECTURE "Decisions" (uploads). tus 1.0 core: `Upload-Offset` (the offset `HEAD` ' +
          "answered) and `Content-Type: application/offset+octet-stream`; answers 204 with the new `Upload-Offset`. " +
          "`HEAD` on the same path answers the offset to continue from. 400 for a missing or malformed tus header, " +
          "401 without a session, 404 for an unknown upload or another user's, 409 for a wrong offset or a finished upload.",
        params: idParams,
        headers: z.object({
          "tus-resumable": TUS_RESUMABLE,
          "upload-offset": z.string().meta({ examples: ["10485760"] }),
        }),
        body: z.string().meta({ format: "binary", examples: ["(bytes)"] }),
        consumes: ["application/offset+octet-stream"],
        response: tusAnswers(204),
      },
      validatorCompiler: documentOnly,
    },
    async (req, reply) => {
      await openResumableUpload(deps, signedInUser(req), req.params.id);
      await toTus(req, reply);
    },
  );

  app.delete(
    `${RESUMABLE_UPLOADS_PATH}/:id`,
    {
      schema: {
        ...base,
        summary: "Cancel a resumable upload (tus)",
        description:
          'Decision 020; ARCHITECTURE "Decisions" (uploads). tus 1.0 termination: removes the bytes received so ' +
          "far; answers 204. 401 without a session, 404 for an unknown upload or another user's, 409 once it is finished.",
        params: idParams,
        headers: z.object({ "tus-resumable": TUS_RESUMABLE }),
        response: tusAnswers(204),
      },
      validatorCompiler: documentOnly,
    },
    async (req, reply) => {
      await cancelResumableUpload(deps, signedInUser(req), req.params.id, async () => {
        await toTus(req, reply);
        return reply.raw.statusCode === 204;
      });
    },
  );

  app.post(
    `${RESUMABLE_UPLOADS_PATH}/:id/finish`,
    {
      schema: {
        ...base,
        summary: "Finish a resumable upload",
        description:
          "Decision 020; SPEC §2.13, §2.16, §2.18, §5, §7.2. Once every byte is sent, stores the upload as " +
          "`POST /api/audios/upload/{KIND}` does (content sniffed, the same rules and messages, no row written " +
          "before they pass) and answers the same. Safe to repeat: a repeat answers what the first request did. " +
          "400, 403 and 415 as that path answers them, 401 without a session, 404 'Upload not found.' (unknown, or " +
          "another user's), 409 'The upload is not complete yet.'.",
        params: idParams,
        response: answers(ZUploadAnswer),
      },
    },
    async (req) => {
      const result = await finishResumableUpload(deps, signedInUser(req), {
        id: req.params.id,
        take: () => takeFinishedUpload(deps.storage.uploadStore, req.params.id, deps.storage.tempPath()),
      });
      return restUploadAnswer(result);
    },
  );
};
