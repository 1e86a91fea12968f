import { z } from "zod";
import { COMMENT_EMPTY, COMMENT_MAX_LENGTH, COMMENT_TOO_LONG } from "@tafsiri/domain";
import { ZId, ZUserRef } from "./common";

/**
 * SPEC §2.14, §5: a comment's text, trimmed; whitespace-only is refused ('Comment is empty.'),
 * as is text over 5,000 characters. Plain text, stored as is (never interpreted as HTML).
 */
export const ZCommentText = z
  .string({ error: COMMENT_EMPTY })
  .trim()
  .min(1, COMMENT_EMPTY)
  .max(COMMENT_MAX_LENGTH, COMMENT_TOO_LONG);

/** SPEC §3 Comment: `author` is null when the account is gone (shown as 'Unknown User'); `postedAt` is ISO. */
export const ZComment = z.object({
  id: z.string(),
  text: z.string(),
  author: ZUserRef.nullable(),
  postedAt: z.string(),
});
/** A comment just added, and the sentence that says so (SPEC §7.1 POST /api/submissions/{id}/comments). */
export const ZCommentAdded = ZComment.extend({ message: z.string() });
export type Comment = z.infer<typeof ZComment>;

export const ZCommentList = z.array(ZComment);

/** SPEC §2.14 Feedback: a comment on the submission of the audio `audioId`. */
export const ZAddCommentInput = z.object({ audioId: ZId, text: ZCommentText });
export type AddCommentInput = z.infer<typeof ZAddCommentInput>;

/** SPEC §7.1 POST /api/submissions/{id}/comments: a comment on submission `submissionId`. */
export const ZAddSubmissionCommentInput = z.object({ submissionId: ZId, text: ZCommentText });
export type AddSubmissionCommentInput = z.infer<typeof ZAddSubmissionCommentInput>;
