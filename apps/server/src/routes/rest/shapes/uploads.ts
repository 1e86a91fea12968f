import { z } from "zod";
import type { UploadResult } from "@tafsiri/api";
import { DONE, EXAMPLE_ID, ZDoneFields } from "./common";

/** The documented answer: success fields plus what the kind reports. */
export const ZUploadAnswer = z
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
export function restUploadAnswer(result: UploadResult): z.output<typeof ZUploadAnswer> {
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
