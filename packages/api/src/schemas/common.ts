import { z } from "zod";
import { CATEGORIES, CATEGORY_REQUIRED } from "@tafsiri/domain";
import { RECORDING_STATUSES, STAGE_STATUSES, TRANSCRIPT_STATUSES, WAVEFORM_STATUSES } from "@tafsiri/db";

/** The 400 message for an id that is not one (malformed, or not a string). */
export const UNKNOWN_ID = "Unknown id.";
export const ZId = z.string({ error: UNKNOWN_ID }).uuid(UNKNOWN_ID);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a well-formed uuid (ids from REST forms are checked before they reach SQL). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
/** SPEC §2.16: one of CATEGORIES, else 'Please select a category.' (CATEGORY_REQUIRED). */
export const ZCategory = z.enum(CATEGORIES, { message: CATEGORY_REQUIRED });
export const ZStageStatus = z.enum(STAGE_STATUSES);
export const ZTranscriptStatus = z.enum(TRANSCRIPT_STATUSES);
export const ZRecordingStatus = z.enum(RECORDING_STATUSES);

/**
 * The waveform of an audio file (ARCHITECTURE "Long recordings"): `pending` until the server has
 * decoded it, `ready` with a signed URL of its peaks (BBC audiowaveform binary `.dat`, version 1,
 * 8-bit min/max pairs), `failed` when the file could not be decoded (it still plays).
 * `durationSeconds` is known once decoded (null before, or when decoding failed).
 */
export const ZWaveform = z.object({
  status: z.enum(WAVEFORM_STATUSES),
  peaksUrl: z.string().nullable(),
  durationSeconds: z.number().nullable(),
});
export type Waveform = z.infer<typeof ZWaveform>;

/**
 * An audio's or a recording's duration in seconds (ARCHITECTURE "Long recordings"): known once the
 * server's waveform job has decoded the file, null before that or when decoding failed.
 */
export const ZDurationSeconds = z.number().nonnegative().nullable();

/** Page numbers start at 1 (SPEC §9). */
export const ZPageInput = z.object({
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(100).default(10),
});

export const ZUserRef = z.object({ id: z.string(), username: z.string() });

/** A list page: the rows and the page count (SPEC §3 Pagination: totalPages). */
export function page<T extends z.ZodTypeAny>(item: T) {
  return z.object({ items: z.array(item), totalPages: z.number().int() });
}

export const ZAudioIdInput = z.object({ audioId: ZId });
