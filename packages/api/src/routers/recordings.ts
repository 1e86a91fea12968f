import { adminProcedure, authedProcedure, router } from "../trpc";
import { ZAudioIdInput } from "../schemas/common";
import { ZRecording, ZRecordingRejectInput, ZRecordingReviewInput } from "../schemas/recordings";
import { ZReviewOutput } from "../schemas/transcripts";
import { getRecording } from "../services/recordings";
import { RECORDING_REVIEW, reviewOutput } from "../services/reviews";

export const recordingsRouter = router({
  /** SPEC §2.13: the translated recording of an audio (upload goes through REST multipart, services/uploads uploadRecording). */
  get: authedProcedure
    .input(ZAudioIdInput)
    .output(ZRecording)
    .query(({ ctx, input }) => getRecording(ctx, ctx.user, input.audioId)),
  /**
   * SPEC §4 Approve: Approved; task recording_status Completed; admins and the assignee notified.
   * Only from `expectedStatus` (default Pending): CONFLICT otherwise ('The recording is already
   * Approved.', 'The recording is now Rejected; refresh and try again.').
   */
  approve: adminProcedure
    .input(ZRecordingReviewInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, RECORDING_REVIEW, input, "approve")),
  /**
   * SPEC §4 Reject: Rejected; recording_status In Progress. Optional `reason` (at most 1,000
   * characters) stored as the admin's comment and sent to the assignee. Only from
   * `expectedStatus` (default Pending): CONFLICT otherwise. Optional `reassignTo` (decision 025
   * 'Reassign to…'): the task moves to that active Staff member, both assignees are told;
   * BAD_REQUEST for anyone else or the current assignee.
   */
  reject: adminProcedure
    .input(ZRecordingRejectInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, RECORDING_REVIEW, input, "reject")),
  /**
   * SPEC §4 Delete: clears the recording; 'No translation audio'; recording_status In Progress
   * (the file stays as history). With `expectedStatus`, only from that status (CONFLICT otherwise).
   */
  remove: adminProcedure
    .input(ZRecordingReviewInput)
    .output(ZReviewOutput)
    .mutation(({ ctx, input }) => reviewOutput(ctx, ctx.user, RECORDING_REVIEW, input, "remove")),
});
