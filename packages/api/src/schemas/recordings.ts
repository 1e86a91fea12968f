import { z } from "zod";
import { ZRecordingStatus, ZUserRef } from "./common";

/** SPEC §2.13: the translated recording of an audio's submission. */
export const ZRecording = z.object({
  status: ZRecordingStatus,
  /** Signed URL of the recording (supports Range), null when there is none. */
  url: z.string().nullable(),
  mimeType: z.string().nullable(),
  recordedBy: ZUserRef.nullable(),
  uploadedAt: z.string().nullable(),
});
export type Recording = z.infer<typeof ZRecording>;
