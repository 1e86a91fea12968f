import { useState, type FormEvent, type KeyboardEvent } from "react";
import { Field } from "./field";

export interface CommentFormProps {
  /** Sends the comment (already checked not to be blank); resolves true when it was added. */
  onSend: (text: string) => Promise<boolean>;
  /** A comment is being sent: Send is disabled and the box read-only. */
  sending: boolean;
  /** The comment being sent is held until the connection returns: Send says 'Waiting for connection…' (decision 021). */
  waiting?: boolean;
}

/**
 * The comment box and 'Send' (SPEC §2.14, §5): Send stays disabled while the box is empty or
 * whitespace-only, so such a comment is never sent, and while a comment is being sent. Ctrl+Enter
 * (⌘+Enter) in the box sends too. The box clears once the comment was added; while it is held
 * (offline) it stays in the box and Send says 'Waiting for connection…' (decision 021).
 */
export function CommentForm({ onSend, sending, waiting = false }: CommentFormProps) {
  const [text, setText] = useState("");
  const blank = text.trim() === "";

  const send = async () => {
    if (blank || sending) return;
    if (await onSend(text)) setText("");
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form className="stack comment-form" onSubmit={onSubmit} aria-label="Add a comment">
      <Field label="Comment" hint="Press Ctrl+Enter to send.">
        {(control) => (
          <textarea
            {...control}
            className="textarea comment-input"
            placeholder="Write a comment..."
            rows={3}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            readOnly={sending}
          />
        )}
      </Field>
      <div className="row comment-actions">
        <button type="submit" className="btn btn-primary" disabled={blank || sending}>
          {sending && !waiting && <span className="spinner" aria-hidden="true" />}
          {waiting ? "Waiting for connection…" : "Send"}
        </button>
      </div>
    </form>
  );
}
