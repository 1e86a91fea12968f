import { validatorCompiler, type FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { receiveUpload, requireUploader, uploadKind, uploadLimit, UPLOAD_KINDS, type UploadResult } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { DONE, EXAMPLE_ID, ZDoneFields, answers } from "./shapes/common";
import { readUploadForm } from "../../lib/upload-form";

/** The multipart form's parts as the OpenAPI document describes them (read by readUploadForm, not by a validator). */
const ZUploadForm = z
  .object({
    file: z.string().meta({ format: "binary", description: "The file (send the text fields before it)." }),
    category: z.enum(["Control", "Dementia"]).optional().meta({ description: "AUDIO: the audio's category." }),
    filename: z.string().optional().meta({ description: "AUDIO: the name when the file part has none." }),
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

/** The documented answer: success fields plus what the kind reports. */
const ZUploadAnswer = z
  .object({
    ...ZDoneFields,
    message: z.string(),
    _id: z.string().optional(),
    filename: z.string().optional(),
    audioId: z.string().optional(),
    recorded_audio_approval_status: z.string().optional(),
    fileName: z.string().optional(),
    translation_script_approval_status: z.string().optional(),
  })
  .meta({
    examples: [
      { ...DONE, message: "interview-07 has been uploaded successfully.", filename: "interview-07", _id: EXAMPLE_ID },
      { ...DONE, message: "Translation Audio file uploaded successfully.", recorded_audio_approval_status: "Pending" },
    ],
  });

/** The documented answer of each upload kind (SPEC §7.1: `status`, `filename` for AUDIO). */
function restUploadAnswer(result: UploadResult): z.output<typeof ZUploadAnswer> {
  switch (result.kind) {
    case "AUDIO":
      return { ...DONE, message: result.message, filename: result.filename, _id: result.audioId };
    case "INITIAL_TRANSCRIPT":
      return { ...DONE, message: result.message, audioId: result.audioId };
    case "AUDIOTRANSLATION":
      return { ...DONE, message: result.message, recorded_audio_approval_status: result.status };
    case "TRANSLATED_TRANSCRIPT":
      return {
        ...DONE,
        message: result.message,
        fileName: result.fileName,
        translation_script_approval_status: result.status,
      };
  }
}

/** `POST /api/audios/upload/{KIND}`: every upload, as multipart form data (decision 002). */
export const uploadRoutes: FastifyPluginAsyncZod<RestOptions> = async (app, { deps, maxUploadBytes }) => {
  app.post(
    "/api/audios/upload/:kind",
    {
      schema: {
        summary: "Upload a file",
        description:
          `SPEC §2.13, §2.16, §2.18, §5, §7.1, §7.2; ARCHITECTURE "Decisions". KIND is one of ${UPLOAD_KINDS.join(", ")}. ` +
          "AUDIO (admin): `category` and an .mp3, .wav, .ogg or .flac file; the name up to its first dot is the filename. " +
          "INITIAL_TRANSCRIPT (admin): `audioId` and a .doc, .docx, .pdf or .txt file, whose text is extracted; an audio " +
          "that already has one answers 409 'This audio already has a transcript.' unless `replace` is `true`. " +
          "AUDIOTRANSLATION: `audioId`, `recordedBy` and the translated recording. TRANSLATED_TRANSCRIPT: `audioId` and a " +
          ".cha or .txt plain-text file of at most 2,000,000 characters. Files are typed by their content. 400 with the " +
          "spec's messages, 401, 403, 404 (unknown KIND, audio or recorder), 409 (a filename that exists, an initial " +
          "transcript that exists), 413 past MAX_UPLOAD_BYTES (20 MB for transcripts), for a second file ('Please upload " +
          "one file at a time.') and past 20 fields ('The upload form has too many fields. The limit is 20 fields and " +
          "one file.'), 415 for a file whose type is not accepted. A refused upload leaves no file behind.",
        tags: ["Uploads"],
        security: [{ bearerAuth: [] }],
        consumes: ["multipart/form-data"],
        params: z.object({ kind: z.string().meta({ examples: ["AUDIO"] }) }),
        body: ZUploadForm,
        response: answers(ZUploadAnswer),
      },
      // The body is a multipart stream read by readUploadForm; the schema above only documents it.
      validatorCompiler: (route) =>
        route.httpPart === "body" ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never),
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
};
