import { authedProcedure, router } from "../trpc";
import {
  ZAudioIdInput,
  ZCreateRecommendationInput,
  ZCreateRecommendationOutput,
  ZListRecommendedRecordingsInput,
  ZRecommendationCheck,
  ZRecommendedRecordingPage,
} from "../schemas/recommendations";
import { checkRecommendation, createRecommendation, listRecommendations } from "../services/recommendations";

export const recommendationsRouter = router({
  /** SPEC §2.15, §4: `{ ready }`: may the audio be recommended yet (a transcript is saved)? NOT_FOUND / FORBIDDEN. */
  check: authedProcedure
    .input(ZAudioIdInput)
    .output(ZRecommendationCheck)
    .query(({ ctx, input }) => checkRecommendation(ctx, ctx.user, input.audioId)),
  /**
   * SPEC §2.15, §4, §5: recommends the audio to another active staff member, who is notified
   * → `{ message: 'Recommendation sent successfully!.' }`. Refused with 'Translation stage has
   * not been completed.' or 'Please select a staff member' (see createRecommendation).
   */
  create: authedProcedure
    .input(ZCreateRecommendationInput)
    .output(ZCreateRecommendationOutput)
    .mutation(({ ctx, input }) => createRecommendation(ctx, ctx.user, input)),
  /**
   * SPEC §2.9 Recommended Recordings: admins see every recommendation (or `recommendedTo`'s),
   * staff those made to them (FORBIDDEN 'You may only list your own recommendations.' for
   * another `recommendedTo`); newest first, 10 per page by default.
   */
  list: authedProcedure
    .input(ZListRecommendedRecordingsInput)
    .output(ZRecommendedRecordingPage)
    .query(({ ctx, input }) => listRecommendations(ctx, ctx.user, input)),
});
