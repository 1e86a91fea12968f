import { z } from "zod";
import { ZAudioIdInput, ZId } from "./common";

export const STAFF_REQUIRED_FOR_RECOMMENDATION = "Please select a staff member";

/** SPEC §2.15: recommend the audio to a staff member (chosen in the dropdown; empty = none chosen). */
export const ZCreateRecommendationInput = z.object({
  audioId: ZId,
  staffId: z.string({ error: STAFF_REQUIRED_FOR_RECOMMENDATION }).min(1, STAFF_REQUIRED_FOR_RECOMMENDATION),
});
export type CreateRecommendationInput = z.infer<typeof ZCreateRecommendationInput>;
export const ZCreateRecommendationOutput = z.object({ message: z.string() });

/** Whether the audio's translation stage has a result, so it may be recommended (SPEC §4). */
export const ZRecommendationCheck = z.object({ ready: z.boolean() });
export type RecommendationCheck = z.infer<typeof ZRecommendationCheck>;

export { ZAudioIdInput };
