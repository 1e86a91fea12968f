import { z } from "zod";
import { ZId, ZTranscriptStatus, ZUserRef } from "./common";

/** SPEC §2.12: the current translated transcript of an audio's submission. */
export const ZTranscript = z.object({
  status: ZTranscriptStatus,
  /** Current text, null when there is none. */
  text: z.string().nullable(),
  /** The .cha file name of the current version (SPEC §3). */
  fileName: z.string().nullable(),
  /** Signed URL of the current .cha file. */
  url: z.string().nullable(),
  updatedAt: z.string().nullable(),
  updatedBy: ZUserRef.nullable(),
});
export type Transcript = z.infer<typeof ZTranscript>;

export const ZSaveTranscriptInput = z.object({
  audioId: ZId,
  text: z
    .string()
    .max(2_000_000)
    .refine((t) => t.trim().length > 0, "Transcript is empty."),
});
export const ZSaveTranscriptOutput = z.object({ status: ZTranscriptStatus, fileName: z.string(), message: z.string() });
export const ZReviewOutput = z.object({ status: z.string(), message: z.string() });
