import type { AudioComment } from "#web/lib/api-types";
import { displayTime } from "#web/lib/dates";
import { initials } from "#web/lib/initials";

/** SPEC §2.14: the name shown for a comment whose author's account is gone. */
const UNKNOWN_USER = "Unknown User";

/**
 * The comments, oldest first (SPEC §2.14): each with the author's initials, name, date and time,
 * and the text as plain text with its line breaks kept. Empty: 'No comments yet.'.
 */
export function CommentList({ comments, labelledBy }: { comments: AudioComment[]; labelledBy: string }) {
  if (comments.length === 0) return <p className="muted comment-empty">No comments yet.</p>;
  return (
    <ul className="comment-list" aria-labelledby={labelledBy} aria-live="polite">
      {comments.map((comment) => {
        const author = comment.author?.username ?? UNKNOWN_USER;
        return (
          <li key={comment.id} className="comment">
            <span className="comment-avatar" aria-hidden="true">
              {comment.author ? initials(author) : "?"}
            </span>
            <div className="comment-body">
              <p className="comment-meta">
                <span className="comment-author">{author}</span>{" "}
                <time className="comment-time muted" dateTime={comment.postedAt}>
                  {displayTime(comment.postedAt).full}
                </time>
              </p>
              <p className="comment-text">{comment.text}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
