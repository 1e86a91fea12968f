import type { Comment } from "../schema";
import type { Executor } from "../connection";

/** A comment with its author's username (null when the author's account is gone). */
export interface CommentWithAuthor {
  id: string;
  submissionId: string;
  text: string;
  postedBy: string | null;
  authorUsername: string | null;
  postedAt: Date;
}

/** Adds a comment to a submission (text already checked: non-blank, at most 5,000 characters). Returns the row. */
export function insertComment(
  db: Executor,
  comment: { submissionId: string; text: string; postedBy: string },
): Promise<Comment> {
  return db.insertInto("comments").values(comment).returningAll().executeTakeFirstOrThrow();
}

/** A submission's comments, oldest first, with their authors' usernames (comments_submission_idx). */
export function listComments(db: Executor, submissionId: string): Promise<CommentWithAuthor[]> {
  return db
    .selectFrom("comments as c")
    .leftJoin("users as u", "u.id", "c.postedBy")
    .select(["c.id", "c.submissionId", "c.text", "c.postedBy", "u.username as authorUsername", "c.postedAt"])
    .where("c.submissionId", "=", submissionId)
    .orderBy("c.postedAt")
    .orderBy("c.id")
    .execute();
}
