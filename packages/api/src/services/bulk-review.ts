import { findSubmissionWithAudio } from "@tafsiri/db/repositories/submissions";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import type { BulkReviewInput, BulkReviewOutput, ReviewedOutputName } from "../schemas/reviews";
import { requireAdmin } from "./access";
import { RECORDING_REVIEW, reviewOutput, SUBMISSION_NOT_FOUND, TRANSCRIPT_REVIEW } from "./reviews";

const OUTPUTS = { transcript: TRANSCRIPT_REVIEW, recording: RECORDING_REVIEW } as const;

/**
 * Decision 025, bulk review: an admin approves or rejects the chosen outputs (transcript,
 * recording or both) of up to 100 submissions at once. Each (submission, output) is its own
 * review through `reviewOutput` (SPEC §4, decision 009), one transaction and one conditional
 * UPDATE each, acting on Pending (the expected status left out means Pending for approve and
 * reject, and keeps 'No transcript submitted yet.' for an output never submitted): so an output
 * another admin reviewed a moment before is skipped with the server's message ('The transcript is
 * already Approved.', 'The recording is now Rejected; refresh and try again.') instead of being
 * overwritten, and what one output's review writes (notifications to the admins and the assignee,
 * the reason as a comment, the `reviews` row, the audit entry, the live events) is exactly what a
 * single review writes. Reviews run one after another, in the order asked (submission by
 * submission, transcript before recording). An unknown submission id is skipped with 'Submission
 * not found.' (for each output asked), not a failure of the whole call.
 * Takes `input` already validated by ZBulkReviewInput (ids deduplicated). Throws FORBIDDEN for
 * non-admins before anything is read; any failure that is not an AppError (the database gone)
 * is thrown as is, the reviews before it staying done. Returns `{ message, done, skipped }`: what
 * was done in a sentence, each changed output with its new status and the single review's success
 * message, each skipped one with why.
 */
export async function bulkReview(deps: AppDeps, user: SessionUser, input: BulkReviewInput): Promise<BulkReviewOutput> {
  requireAdmin(user);
  const result: Omit<BulkReviewOutput, "message"> = { done: [], skipped: [] };
  const skip = (submissionId: string, output: ReviewedOutputName, reason: string) =>
    result.skipped.push({ submissionId, output, reason });

  for (const submissionId of input.submissionIds) {
    const found = await findSubmissionWithAudio(deps.db, submissionId);
    for (const output of input.outputs) {
      if (!found) {
        skip(submissionId, output, SUBMISSION_NOT_FOUND);
        continue;
      }
      try {
        const request = { audioId: found.audioId, reason: input.action === "reject" ? input.reason : undefined };
        const answer = await reviewOutput(deps, user, OUTPUTS[output], request, input.action);
        result.done.push({ submissionId, output, status: answer.status, message: answer.message });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        skip(submissionId, output, error.message);
      }
    }
  }
  return { message: `${result.done.length} reviewed, ${result.skipped.length} skipped.`, ...result };
}
