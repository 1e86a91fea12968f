import { useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { Field } from "./field";
import "./comment-form.css";

export interface CommentFormProps {
  /**
   * Sends the comment (already checked not to be blank): true when it was added (the box clears),
   * false when it was not and the caller said why (a toast), or the message to show under the box.
   */
  onSend: (text: string) => Promise<boolean | string>;
  /** A comment is being sent: Send is disabled and the box read-only. */
  sending: boolean;
  /** The comment being sent is held until the connection returns: Send says 'Waiting for connection…' (decision 021). */
  waiting?: boolean;
  /** The box's label ('Comment'). */
  label?: ReactNode;
  /** The line under the box ('Press Ctrl+Enter to send.'); none when empty. */
  hint?: string;
  placeholder?: string;
  /** The submit button's text ('Send'). */
  submitLabel?: string;
  /** The form's accessible name ('Add a comment'); none when empty. */
  formLabel?: string;
  /**
   * What a blank comment says under the box, focus staying in it; Send is then enabled while the
   * box is blank. Without it, Send is disabled while the box is empty or whitespace-only.
   */
  blankMessage?: string;
  /** The box, for a caller that moves focus to it (review mode's Alt+C). */
  fieldRef?: RefObject<HTMLTextAreaElement | null>;
  /** The box's aria-keyshortcuts (review mode's 'Alt+C'). */
  keyShortcuts?: string;
  maxLength?: number;
}

/**
 * The comment box and its submit button (SPEC §2.14, §5), the one the Feedback panel and review
 * mode (decision 025) both show: a blank or whitespace-only comment is never sent (Send stays
 * disabled, or says `blankMessage`), nor one while another is being sent. Ctrl+Enter (⌘+Enter) in
 * the box sends too. The box clears once the comment was added; while it is held (offline) it stays
 * in the box and Send says 'Waiting for connection…' (decision 021).
 */
export function CommentForm({
  onSend,
  sending,
  waiting = false,
  label = "Comment",
  hint = "Press Ctrl+Enter to send.",
  placeholder = "Write a comment...",
  submitLabel = "Send",
  formLabel = "Add a comment",
  blankMessage,
  fieldRef,
  keyShortcuts,
  maxLength,
}: CommentFormProps) {
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const boxRef = fieldRef ?? ownRef;
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const blank = text.trim() === "";

  const send = async () => {
    if (sending) return;
    if (blank) {
      if (blankMessage) {
        setError(blankMessage);
        boxRef.current?.focus();
      }
      return;
    }
    setError("");
    const sent = await onSend(text);
    if (typeof sent === "string") setError(sent);
    else if (sent) setText("");
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
    <form className="stack comment-form" onSubmit={onSubmit} aria-label={formLabel || undefined}>
      <Field label={label} hint={hint || undefined} error={error}>
        {(control) => (
          <textarea
            {...control}
            ref={boxRef}
            className="textarea comment-input"
            placeholder={placeholder || undefined}
            rows={3}
            maxLength={maxLength}
            aria-keyshortcuts={keyShortcuts}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            readOnly={sending}
          />
        )}
      </Field>
      <div className="row comment-actions">
        <button type="submit" className="btn btn-primary" disabled={sending || (blank && !blankMessage)}>
          {sending && !waiting && <span className="spinner" aria-hidden="true" />}
          {waiting ? "Waiting for connection…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
