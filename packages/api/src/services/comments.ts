import type { Audio, DbTransaction, Executor, Task } from "@tafsiri/db";
import { insertComment, listComments, type CommentWithAuthor } from "@tafsiri/db/repositories/comments";
import { ensureSubmission, findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import type { AddCommentInput, Comment } from "../schemas/comments";
import { AppError } from "../errors/app-error";
import { lockAudioAccess, NOT_ASSIGNED, requireAudioAccess } from "./access";
import { publishAfter, recordAudioEvent } from "../live/record";
import { commentPayload } from "../webhooks/payloads";
import { recordWebhookEvent } from "../webhooks/record-webhook-event";
import { notifyAdmins, notifyUser } from "./notifications";
import { NOTIFICATION_LINKS } from "./notification-links";

/** SPEC §2.14: the notification text of a new comment, for the other side. */
function commentMessage(authorUsername: string, audioFilename: string): string {
  return `${authorUsername} commented on ${audioFilename}`;
}

/** A comment as procedures answer it: the author null when the account is gone ('Unknown User'). */
function toComment(row: CommentWithAuthor): Comment {
  return {
    id: row.id,
    text: row.text,
    author: row.postedBy && row.authorUsername ? { id: row.postedBy, username: row.authorUsername } : null,
    postedAt: row.postedAt.toISOString(),
  };
}

/** The comments of submission `submissionId`, oldest first (no access check: the caller has done it). */
export async function commentsOf(db: Executor, submissionId: string): Promise<Comment[]> {
  return (await listComments(db, submissionId)).map(toComment);
}

/**
 * SPEC §2.14 Feedback: the comments of the audio's submission, oldest first; none while the audio
 * has no task or its task no submission. Whoever may open the audio may read them. Throws
 * NOT_FOUND 'Audio not found.' / FORBIDDEN 'You do not have access to this audio.' (see requireAudioAccess).
 */
export async function listAudioComments(deps: AppDeps, user: SessionUser, audioId: string): Promise<Comment[]> {
  const { task } = await requireAudioAccess(deps.db, user, audioId);
  const submission = task ? await findSubmissionByTask(deps.db, task.id) : undefined;
  return submission ? commentsOf(deps.db, submission.id) : [];
}

/** The locked audio, its task and the submission a comment goes on. */
export interface CommentTarget {
  audio: Audio;
  task: Task;
  submissionId: string;
}

/**
 * Writes one comment by `user` (text already trimmed and checked) in the caller's transaction,
 * with its audit entry and a notification for the other side: '{username} commented on
 * {filename}' (link /audiomanagement/feedback) to the task's assignee when an admin writes, to
 * every active admin when staff write. The caller holds the audio's lock (lockAudioAccess),
 * records the 'audio.changed' event last and pokes the event bus after the commit.
 */
export async function writeComment(
  trx: DbTransaction,
  user: SessionUser,
  target: CommentTarget,
  text: string,
): Promise<Comment> {
  const { audio, task, submissionId } = target;
  const row = await insertComment(trx, { submissionId, text, postedBy: user.id });
  await insertAuditEntry(trx, user.id, "comment", "submission", submissionId, {
    audioId: audio.id,
    commentId: row.id,
  });
  const notification = {
    senderId: user.id,
    message: commentMessage(user.username, audio.filename),
    link: NOTIFICATION_LINKS.feedback,
    audioId: audio.id,
  };
  if (user.role === "Admin") await notifyUser(trx, { ...notification, recipientId: task.assignedTo });
  else await notifyAdmins(trx, notification);
  return {
    id: row.id,
    text: row.text,
    author: { id: user.id, username: user.username },
    postedAt: row.postedAt.toISOString(),
  };
}

/**
 * SPEC §2.14, §3, §5: adds a comment by the caller (always the author) to the submission of an
 * audio they may open, creating the task's submission first when there is none. The comment,
 * its audit entry, the other side's notification (see writeComment) and an 'audio.changed' live
 * event (everyone who may see the audio refetches) commit in one transaction; then the event bus
 * is poked. The text arrives trimmed and checked by ZCommentText (400 'Comment is empty.',
 * 'Comment is too long (at most 5,000 characters).'). Throws BAD_REQUEST 'This audio is not
 * assigned yet.' (no task), NOT_FOUND / FORBIDDEN (see requireAudioAccess). Returns the comment.
 */
export function addComment(deps: AppDeps, user: SessionUser, input: AddCommentInput): Promise<Comment> {
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, input.audioId);
    if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
    const submission = await ensureSubmission(trx, task.id, user.id);
    const comment = await writeComment(trx, user, { audio, task, submissionId: submission.id }, input.text);
    await recordAudioEvent(trx, "audio.changed", audio.id);
    await recordWebhookEvent(trx, "comment.added", {
      comment: commentPayload(comment, { submissionId: submission.id, audioId: audio.id }),
    });
    return comment;
  });
  return publishAfter(deps, change);
}
