import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { documentedOnly } from "./conventions";
import { z } from "zod";
import {
  AppError,
  receiveTake,
  receiveUpload,
  requireUploader,
  SIGN_IN_REQUIRED,
  uploadKind,
  uploadLimit,
  UPLOAD_KINDS,
} from "@tafsiri/api";
import type { RestOptions } from "./options";
import { answers, DONE, ZDoneFields, ZPathId } from "./shapes/common";
import { ZUploadAnswer, restUploadAnswer } from "./shapes/uploads";
import { readUploadForm } from "../../plugins/upload-form";
import { CATEGORIES } from "@tafsiri/domain";

/** The multipart form's parts as the OpenAPI document describes them (read by readUploadForm, not by a validator). */
const ZUploadForm = z
  .object({
    file: z.string().meta({ format: "binary", description: "The file (send the text fields before it)." }),
    category: z.enum(CATEGORIES).optional().meta({ description: "AUDIO: the audio's category." }),
    filename: z.string().optional().meta({ description: "AUDIO: the name when the file part has none." }),
    participant_code: z.string().optional().meta({
      description:
        "AUDIO (decision 024): the participant it records, by code (any case); its group must be the category.",
    }),
    session_date: z.string().optional().meta({ description: "AUDIO (decision 024): the session's day, YYYY-MM-DD." }),
    source_language: z
      .string()
      .optional()
      .meta({
        description: "AUDIO (decision 035): its own source language, ISO 639-3; left out or empty: the programme's.",
        examples: ["lug"],
      }),
    target_language: z
      .string()
      .optional()
      .meta({
        description: "AUDIO (decision 035): its own target language, ISO 639-3; left out or empty: the programme's.",
        examples: ["eng"],
      }),
    audioId: z
      .string()
      .optional()
      .meta({ description: "INITIAL_TRANSCRIPT, AUDIOTRANSLATION, TRANSLATED_TRANSCRIPT: the audio." }),
    replace: z.enum(["true", "false"]).optional().meta({
      description: "INITIAL_TRANSCRIPT: `true` replaces the audio's existing transcript (else 409).",
    }),
    recordedBy: z.string().optional().meta({ description: "AUDIOTRANSLATION: the staff member who recorded it." }),
    recorded_audio_approval_status: z.string().optional(),
    translation_script_approval_status: z.string().optional(),
  })
  .meta({ examples: [{ file: "(binary)", category: "Control" }] });

/** `POST /api/audios/upload/{KIND}`: every upload, as multipart form data (decision 002). */
export const uploadRoutes: FastifyPluginAsyncZod<RestOptions> = async (app, { deps, maxUploadBytes }) => {
  app.post(
    "/api/audios/upload/:kind",
    {
      schema: {
        summary: "Upload a file",
        description:
          `SPEC §2.13, §2.16, §2.18, §5, §7.1, §7.2; ARCHITECTURE "Decisions". KIND is one of ${UPLOAD_KINDS.join(", ")}. ` +
          "AUDIO (admin): `category` and an .mp3, .wav, .ogg or .flac file; the name up to its first dot is the filename; " +
          "optionally `participant_code` and `session_date` (400 'Unknown participant code P0042.', or when the " +
          "participant's group is not the category; checked before anything is stored); optionally `source_language` " +
          "and `target_language`, the audio's own languages (decision 035: ISO 639-3 codes such as `lug` and `eng`; " +
          "left out or empty, the programme's; any other value answers 400 'A language is an ISO 639-3 code of three " +
          "lower-case letters, such as eng or swa.' before anything is stored). " +
          "INITIAL_TRANSCRIPT (admin): `audioId` and a .cha, .doc, .docx, .pdf or .txt file, whose text is extracted and cut into source segments (decision 035); an audio " +
          "that already has one answers 409 'This audio already has a transcript.' unless `replace` is `true`. " +
          "AUDIOTRANSLATION: `audioId`, `recordedBy` and the translated recording. TRANSLATED_TRANSCRIPT: `audioId` and a " +
          ".cha or .txt plain-text file of at most 2,000,000 characters. Files are typed by their content. 400 with the " +
          "spec's messages, 401, 403, 404 (unknown KIND, audio or recorder), 409 (a filename that exists, an initial " +
          "transcript that exists), 413 past MAX_UPLOAD_BYTES (20 MB for transcripts), for a second file ('Please upload " +
          "one file at a time.') and past 20 fields ('The upload form has too many fields. The limit is 20 fields and " +
          "one file.'), 415 for a file whose type is not accepted. A refused upload leaves no file behind.",
        tags: ["Uploads"],
        security: [{ bearerAuth: [] }, { apiToken: [] }],
        consumes: ["multipart/form-data"],
        params: z.object({ kind: z.string().meta({ examples: ["AUDIO"] }) }),
        body: ZUploadForm,
        response: answers(ZUploadAnswer),
      },
      // The body is a multipart stream read by readUploadForm; the schema above only documents it.
      validatorCompiler: documentedOnly("body"),
    },
    async (req) => {
      const kind = uploadKind(req.params.kind);
      const user = requireUploader(req.user, kind);
      const form = await readUploadForm(req, deps.storage, uploadLimit(kind, maxUploadBytes));
      try {
        return restUploadAnswer(await receiveUpload(deps, user, kind, form));
      } finally {
        await form.discard();
      }
    },
  );

  app.post(
    "/api/translation/takes/:segmentId",
    {
      schema: {
        summary: "Store a segment's take",
        description:
          "SPEC §2.13 (the translated recording is made of the takes); decision 035, oral translation by segment: the " +
          "spoken translation of one row of the segment grid, as " +
          "multipart form data with one audio `file` (.mp3, .wav, .ogg or .flac, typed by its content), replacing the " +
          "row's take and a reviewer's request to record it again. The answer carries what was measured of it " +
          "(duration, peak and RMS level in dBFS, the longest silence inside) and a URL that plays it. 400 without a " +
          "file, for an unreadable one ('The take could not be read as audio. …') or an audio not assigned yet; 401; " +
          "403 for an audio the caller may not work on or whose recording is Approved; 404 for an unknown row " +
          "('Unknown segment. Save the translation's segments before recording them.'); 413 past MAX_UPLOAD_BYTES; " +
          "415 for a file that is not audio. A refused take leaves no file behind.",
        tags: ["Translation"],
        security: [{ bearerAuth: [] }, { apiToken: [] }],
        consumes: ["multipart/form-data"],
        params: z.object({ segmentId: ZPathId }),
        body: z
          .object({ file: z.string().meta({ format: "binary", description: "The take." }) })
          .meta({ examples: [{ file: "(binary)" }] }),
        response: answers(
          z
            .object({
              ...ZDoneFields,
              message: z.string(),
              take: z.object({
                segmentId: z.string(),
                durationMs: z.number(),
                peakDbfs: z.number(),
                rmsDbfs: z.number(),
                longestSilenceMs: z.number(),
                url: z.string(),
              }),
            })
            .meta({
              examples: [
                {
                  status: "success",
                  success: true,
                  message: "Take saved.",
                  take: {
                    segmentId: "5f0c2b1e-8a4d-4c3b-9e2f-1a2b3c4d5e6f",
                    durationMs: 3420,
                    peakDbfs: -4.2,
                    rmsDbfs: -21.7,
                    longestSilenceMs: 380,
                    url: "/files/takes/…/5f0c2b1e-….wav?expires=1765000000&signature=…",
                  },
                },
              ],
            }),
        ),
      },
      validatorCompiler: documentedOnly("body"),
    },
    async (req) => {
      if (!req.user) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
      const form = await readUploadForm(req, deps.storage, uploadLimit("AUDIOTRANSLATION", maxUploadBytes));
      try {
        const { message, take } = await receiveTake(deps, req.user, req.params.segmentId, form);
        return {
          ...DONE,
          message,
          take: {
            segmentId: take.segmentId,
            durationMs: take.durationMs,
            peakDbfs: take.peakDbfs,
            rmsDbfs: take.rmsDbfs,
            longestSilenceMs: take.longestSilenceMs,
            url: take.url,
          },
        };
      } finally {
        await form.discard();
      }
    },
  );
};
