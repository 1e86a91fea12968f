import { useId } from "react";
import { toast } from "sonner";
import type { AudioDetail } from "#web/lib/api-types";
import { errorMessage } from "#web/lib/trpc";
import { sendsLater } from "#web/lib/connection";
import { COMMENTS_FETCH_FAILED, useComments } from "#web/features/comments/hooks/use-comments";
import { CommentForm } from "#web/components/comment-form";
import { CommentList } from "./comment-list";
import "#web/features/comments/comments.css";

/** SPEC §8 texts of the Feedback screen (a failed load: COMMENTS_FETCH_FAILED). */
const ADD_FAILED = "Error adding comment";
/** A comment sent while the connection is lost is held, then sent when it returns (decision 021). */
const ADD_HELD = "Comment will be sent when the connection returns.";
const HELD_SENT = "Comment sent.";

/**
 * The Feedback panel (SPEC §2.14): the 'Feedback' heading, the comment box with 'Send', and the
 * audio's comments, which update live. A failed send toasts 'Error adding comment' with the
 * server's message; a failed load shows 'Error fetching comments' with a Retry button. A comment
 * sent while the connection is lost is held in the box (read-only, 'Waiting for connection…') and
 * sent once when it returns, then confirmed with 'Comment sent.' (decision 021).
 */
export function FeedbackPanel({ audio }: { audio: AudioDetail }) {
  const { list, add } = useComments(audio.id);
  const listHeadingId = useId();

  const send = async (text: string): Promise<boolean> => {
    const held = sendsLater();
    if (held) toast.info(ADD_HELD);
    try {
      await add.mutateAsync({ audioId: audio.id, text });
      if (held) toast.success(HELD_SENT);
      return true;
    } catch (error) {
      toast.error(ADD_FAILED, { description: errorMessage(error) });
      return false;
    }
  };

  let comments;
  if (list.isPending) {
    comments = (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading comments…
      </p>
    );
  } else if (list.isError) {
    comments = (
      <div className="stack" role="alert">
        <p className="field-error">{COMMENTS_FETCH_FAILED}</p>
        <p className="muted">{errorMessage(list.error)}</p>
        <div className="row">
          <button type="button" className="btn btn-sm" onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      </div>
    );
  } else {
    comments = <CommentList comments={list.data} labelledBy={listHeadingId} />;
  }

  return (
    <div className="card stack feedback-panel">
      <h2 className="panel-title">Feedback</h2>
      <CommentForm onSend={send} sending={add.isPending} waiting={add.isPaused} />
      <section className="stack comment-section" aria-labelledby={listHeadingId}>
        <h3 className="panel-subtitle" id={listHeadingId}>
          Comments{list.data && list.data.length > 0 ? ` (${list.data.length})` : ""}
        </h3>
        {comments}
      </section>
    </div>
  );
}
