import { adminProcedure, authedProcedure, router } from "../trpc";
import { ZAudioIdInput } from "../schemas/common";
import { ZRecording } from "../schemas/recordings";
import { ZReviewOutput } from "../schemas/transcripts";
import { getRecording } from "../services/recordings";
import { RECORDING_REVIEW, reviewOutput } from "../services/reviews";

export const recordingsRouter = router({
  /** SPEC §2.13: the translated recording of an audio (upload goes through REST multipart, services/uploads uploadRecording). */
  get: authedProcedure
    .input(ZAudioIdInput)
    .output(ZRecording)
    .query(({ ctx, input }) => getRecording(ctx, ctx.user, input.audioId)),
  /** SPEC §4 Approve: Approved; task recording_status Completed. */
  approve: adminProcedure
    .input(ZAudioIdInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, RECORDING_REVIEW, input.audioId, "approve")),
  /** SPEC §4 Reject: Rejected; recording_status In Progress. */
  reject: adminProcedure
    .input(ZAudioIdInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, RECORDING_REVIEW, input.audioId, "reject")),
  /** SPEC §4 Delete: clears the recording; 'No translation audio'; recording_status In Progress (the file stays as history). */
  remove: adminProcedure
    .input(ZAudioIdInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, RECORDING_REVIEW, input.audioId, "remove")),
});
