import { z } from "zod";
import { GROUP_MEASURES, PARTICIPANT_GROUPS } from "@tafsiri/domain";

/**
 * Decision 035, "Speech measures": one group's summary of one measure of PAR over the measured
 * recordings. Units: speakingMs, meanPauseMs and responseLatencyMs in ms; speakingRatio a fraction
 * of the recording (0 to 1); pauseCount pauses per recording; segmentsPerMinute per minute of the
 * recording. n: recordings where the measure is known; the figures are null when n is 0 (sd when
 * n < 2); q1 and q3 are the quartiles (linear interpolation), iqr = q3 − q1.
 */
const ZGroupMeasure = z.object({
  group: z.enum(PARTICIPANT_GROUPS),
  measure: z.enum(GROUP_MEASURES),
  n: z.number().int(),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  median: z.number().nullable(),
  q1: z.number().nullable(),
  q3: z.number().nullable(),
  iqr: z.number().nullable(),
});
/** Every group × measure, groups in PARTICIPANT_GROUPS' order, measures in GROUP_MEASURES' order. */
export const ZSpeechMeasures = z.object({ speaker: z.literal("PAR"), rows: z.array(ZGroupMeasure) });
export type SpeechMeasures = z.infer<typeof ZSpeechMeasures>;
