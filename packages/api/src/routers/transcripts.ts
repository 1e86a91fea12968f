import { adminProcedure, authedProcedure, router } from "../trpc";
import { ZAudioIdInput } from "../schemas/common";
import {
  ZReviewOutput,
  ZSaveTranscriptInput,
  ZSaveTranscriptOutput,
  ZTranscript,
  ZTranscriptRejectInput,
  ZTranscriptReviewInput,
} from "../schemas/transcripts";
import { reviewOutput, TRANSCRIPT_REVIEW } from "../services/reviews";
import { getTranscript, saveTranscript } from "../services/transcripts";

export const transcriptsRouter = router({
  /** SPEC §2.12: the current translated transcript of an audio. */
  get: authedProcedure
    .input(ZAudioIdInput)
    .output(ZTranscript)
    .query(({ ctx, input }) => getTranscript(ctx, ctx.user, input.audioId)),
  /** SPEC §4: save a new .cha version; status Pending; creates the submission first if needed. */
  save: authedProcedure
    .input(ZSaveTranscriptInput)
    .output(ZSaveTranscriptOutput)
    .mutation(({ ctx, input }) => saveTranscript(ctx, ctx.user, input)),
  /**
   * SPEC §4 Admin Approve: Approved; task translation_status Completed; admins and the assignee
   * notified. Only from `expectedStatus` (default Pending): CONFLICT otherwise ('The transcript is
   * already Approved.', 'The transcript is now Rejected; refresh and try again.').
   */
  approve: adminProcedure
    .input(ZTranscriptReviewInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, TRANSCRIPT_REVIEW, input, "approve")),
  /**
   * SPEC §4 Admin Reject: Rejected; translation_status In Progress. Optional `reason` (at most
   * 1,000 characters) stored as the admin's comment and sent to the assignee. Only from
   * `expectedStatus` (default Pending): CONFLICT otherwise.
   */
  reject: adminProcedure
    .input(ZTranscriptRejectInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, TRANSCRIPT_REVIEW, input, "reject")),
  /**
   * SPEC §4 Admin Delete: clears translation_script; 'No transcript'; translation_status In
   * Progress. With `expectedStatus`, only from that status (CONFLICT otherwise).
   */
  remove: adminProcedure
    .input(ZTranscriptReviewInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, TRANSCRIPT_REVIEW, input, "remove")),
});
