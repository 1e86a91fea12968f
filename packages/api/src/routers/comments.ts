import { authedProcedure, router } from "../trpc";
import { ZAudioIdInput } from "../schemas/common";
import {
  ZAddCommentInput,
  ZAddSubmissionCommentInput,
  ZComment,
  ZCommentAdded,
  ZCommentList,
} from "../schemas/comments";
import { addComment, listAudioComments } from "../services/comments";
import { addSubmissionComment } from "../services/submission-records";

export const commentsRouter = router({
  /**
   * SPEC §2.14 Feedback: the comments of the audio's submission, oldest first (empty without a
   * submission); `author` null for a deleted account ('Unknown User'). Whoever may open the
   * audio may read them: NOT_FOUND 'Audio not found.', FORBIDDEN 'You do not have access to this audio.'.
   */
  list: authedProcedure
    .input(ZAudioIdInput)
    .output(ZCommentList)
    .query(({ ctx, input }) => listAudioComments(ctx, ctx.user, input.audioId)),
  /**
   * SPEC §2.14, §5 Send: adds the caller's comment (trimmed) to the audio's submission, creating
   * the submission first when there is none; the other side is notified ('{username} commented
   * on {filename}'). BAD_REQUEST 'Comment is empty.', 'Comment is too long (at most 5,000
   * characters).', 'This audio is not assigned yet.'; NOT_FOUND / FORBIDDEN as comments.list.
   */
  add: authedProcedure
    .input(ZAddCommentInput)
    .output(ZComment)
    .mutation(({ ctx, input }) => addComment(ctx, ctx.user, input)),
  /**
   * SPEC §7.1 POST /api/submissions/{id}/comments: as comments.add, on submission `submissionId`.
   * BAD_REQUEST 'Comment is empty.' / 'Comment is too long (at most 5,000 characters).' /
   * 'Unknown id.'; NOT_FOUND 'Submission not found.'; FORBIDDEN 'You do not have access to this audio.'.
   */
  addToSubmission: authedProcedure
    .input(ZAddSubmissionCommentInput)
    .output(ZCommentAdded)
    .mutation(({ ctx, input }) => addSubmissionComment(ctx, ctx.user, input)),
});
