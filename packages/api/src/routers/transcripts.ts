import { adminProcedure, authedProcedure, router } from "../trpc";
import { ZAudioIdInput } from "../schemas/common";
import {
  ZReviewOutput,
  ZSaveTranscriptInput,
  ZSaveTranscriptOutput,
  ZSuggestSegmentsOutput,
  ZTranscript,
  ZTranscriptRejectInput,
  ZTranscriptReviewInput,
} from "../schemas/transcripts";
import { reviewOutput, TRANSCRIPT_REVIEW } from "../services/reviews";
import { getTranscript, saveTranscript } from "../services/transcripts";
import { getTranscriptHistory } from "../services/transcript-history";
import { ZTranscriptHistory } from "../schemas/transcript-history";
import { suggestSegments } from "../segments/suggest-segments";

export const transcriptsRouter = router({
  /** SPEC §2.12: the current translated transcript of an audio. */
  get: authedProcedure
    .input(ZAudioIdInput)
    .output(ZTranscript)
    .query(({ ctx, input }) => getTranscript(ctx, ctx.user, input.audioId)),
  /**
   * Decision 025: an audio's transcript versions (newest first, at most 200) with who saved each,
   * when, and its reviews; the current text and the version last reviewed (null when never
   * reviewed or unchanged since), for the word-level diff. Admins only (FORBIDDEN for staff);
   * NOT_FOUND 'Audio not found.', BAD_REQUEST 'Unknown id.' as transcripts.get.
   */
  history: adminProcedure
    .input(ZAudioIdInput)
    .output(ZTranscriptHistory)
    .query(({ ctx, input }) => getTranscriptHistory(ctx, ctx.user, input.audioId)),
  /** SPEC §4: save a new .cha version; status Pending; creates the submission first if needed. */
  save: authedProcedure
    .input(ZSaveTranscriptInput)
    .output(ZSaveTranscriptOutput)
    .mutation(({ ctx, input }) => saveTranscript(ctx, ctx.user, input)),
  /**
   * Decision 024, "Who spoke, when": speech segments `{ startMs, endMs }` (whole ms, ordered) found
   * by Silero VAD in the audio, for whoever may edit its transcript; cached per file. 404 unknown
   * audio, 403 others, 422 'This recording could not be read to suggest segments.', 503 'Segment
   * suggestions are not available on this server.'.
   */
  suggestSegments: authedProcedure
    .input(ZAudioIdInput)
    .output(ZSuggestSegmentsOutput)
    .query(({ ctx, input }) => suggestSegments(ctx, ctx.user, input.audioId)),
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
   * `expectedStatus` (default Pending): CONFLICT otherwise. Optional `reassignTo` (decision 025
   * 'Reassign to…'): the task moves to that active Staff member, both assignees are told;
   * BAD_REQUEST for anyone else or the current assignee.
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
