import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { displayTime } from "#web/lib/dates";
import "#web/features/submissions/submissions.css";

/**
 * The comments of a submission's audio, oldest first, shown in its expanded row (SPEC §2.7): each
 * with its author's username ('Unknown User' for a deleted account), or 'No comments yet'.
 * Live events refetch them (features/live).
 */
export function SubmissionComments({ audioId }: { audioId: string }) {
  const trpc = useTRPC();
  const comments = useQuery(trpc.comments.list.queryOptions({ audioId }));
  if (comments.isPending) {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading comments…
      </p>
    );
  }
  if (comments.isError) return <p role="alert">Error fetching comments</p>;
  if (comments.data.length === 0) return <p className="muted">No comments yet</p>;
  return (
    <ul className="submission-comments" aria-label="Comments">
      {comments.data.map((comment) => (
        <li key={comment.id}>
          <span className="comment-author">{comment.author?.username ?? "Unknown User"}</span>{" "}
          <time className="muted" dateTime={comment.postedAt}>
            {displayTime(comment.postedAt).full}
          </time>
          <p className="comment-text">{comment.text}</p>
        </li>
      ))}
    </ul>
  );
}
