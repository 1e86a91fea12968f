import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from "react";
import { Dialog } from "radix-ui";

/** Longest reason the server accepts with a rejection (its ZReviewReason). */
export const MAX_REJECT_REASON = 1_000;

const NUMBER = new Intl.NumberFormat("en-US");

/**
 * The form of the open reject dialog: 'Reason (optional)' with a character counter, 'Cancel' and
 * 'Reject'. Mounted only while the dialog is open, so each opening starts empty.
 */
function RejectReasonForm({
  subject,
  pending,
  onSubmit,
}: {
  subject: string;
  pending: boolean;
  /** Answers whether the rejection succeeded (the dialog then closes). */
  onSubmit(reason: string | undefined): Promise<boolean>;
}) {
  const [reason, setReason] = useState("");
  const fieldId = useId();
  const counterId = useId();
  const fieldRef = useRef<HTMLTextAreaElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A failed rejection (its toast says why) leaves the dialog open with the reason, for another try.
    if (!(await onSubmit(reason.trim() || undefined))) fieldRef.current?.focus();
  };

  return (
    <form className="stack reject-reason-form" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label className="label" htmlFor={fieldId}>
          Reason (optional)
        </label>
        <textarea
          ref={fieldRef}
          id={fieldId}
          className="textarea reject-reason-input"
          rows={4}
          maxLength={MAX_REJECT_REASON}
          placeholder={`What should be fixed in the ${subject}?`}
          aria-describedby={counterId}
          value={reason}
          readOnly={pending}
          onChange={(event) => setReason(event.target.value)}
        />
        <p id={counterId} className="reject-reason-counter">
          {NUMBER.format(reason.length)} / {NUMBER.format(MAX_REJECT_REASON)} characters
        </p>
      </div>
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button type="button" className="btn" disabled={pending}>
            Cancel
          </button>
        </Dialog.Close>
        <button type="submit" className="btn btn-danger" disabled={pending}>
          {pending && <span className="spinner" aria-hidden="true" />}
          Reject
        </button>
      </div>
    </form>
  );
}

/**
 * The Admin's Reject of a transcript or a recording (SPEC §2.12, §2.13, §4): `trigger` (the Reject
 * button) opens a dialog asking for an optional reason (trimmed; blank means none; at most 1,000
 * characters). Its 'Reject' calls `onReject(reason)`, which answers whether the rejection succeeded;
 * the dialog's buttons are disabled meanwhile and it closes on success, focus then going to
 * `focusAfterReject` (the Reject button is disabled once the status is Rejected). 'Cancel',
 * Escape or a click outside change nothing and return focus to the Reject button.
 */
export function RejectReasonDialog({
  subject,
  trigger,
  onReject,
  focusAfterReject,
}: {
  /** What is rejected, e.g. 'transcript'. */
  subject: string;
  trigger: ReactNode;
  onReject(reason: string | undefined): Promise<boolean>;
  focusAfterReject: RefObject<HTMLElement | null>;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const rejected = useRef(false);

  const changeOpen = (next: boolean) => {
    if (pending) return;
    if (next) rejected.current = false;
    setOpen(next);
  };

  const submit = async (reason: string | undefined) => {
    setPending(true);
    try {
      rejected.current = await onReject(reason);
    } finally {
      setPending(false);
    }
    if (rejected.current) setOpen(false);
    return rejected.current;
  };

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content reject-reason-dialog"
          onCloseAutoFocus={(event) => {
            if (!rejected.current) return;
            event.preventDefault();
            focusAfterReject.current?.focus();
          }}
        >
          <Dialog.Title className="dialog-title">Reject the {subject}?</Dialog.Title>
          <Dialog.Description className="muted">
            Its status becomes Rejected. A reason, if you give one, is posted as a comment on the {subject} and sent to
            the assignee.
          </Dialog.Description>
          <RejectReasonForm subject={subject} pending={pending} onSubmit={submit} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
