import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from "react";
import { useQuery } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { REVIEW_REASON_MAX_LENGTH } from "@tafsiri/domain";
import { Field } from "./field";
import { StaffSelect, type StaffChoice } from "./staff-select";
import { useTRPC } from "#web/lib/trpc";
import "./reject-reason-dialog.css";

const NUMBER = new Intl.NumberFormat("en-US");

/** Decision 025: the server's words when 'Reassign to…' has no staff member chosen. */
const REASSIGN_STAFF_REQUIRED = "Please select a staff member to reassign.";

/** Where the task goes after a rejection (decision 025): back to its assignee, or to another staff member. */
type Destination = "return" | "reassign";

/**
 * Decision 025: the 'After rejecting' radio group, 'Return to {assignee}' (the default) or
 * 'Reassign to…' with a staff dropdown (the assignee left out), enabled only when chosen. The
 * active staff list is loaded when the dialog opens; loading and a failure show in the dropdown.
 */
function DestinationFields({
  assignee,
  destination,
  onDestination,
  staffId,
  onStaffId,
  error,
  pending,
  selectRef,
}: {
  assignee: StaffChoice;
  destination: Destination;
  onDestination(next: Destination): void;
  staffId: string;
  onStaffId(next: string): void;
  /** 'Please select a staff member to reassign.' after a 'Reject' with no one chosen. */
  error: string | null;
  pending: boolean;
  selectRef: RefObject<HTMLDivElement | null>;
}) {
  const trpc = useTRPC();
  const staff = useQuery(trpc.accounts.staff.queryOptions());
  const name = useId();
  const reassigning = destination === "reassign";
  return (
    <fieldset className="reject-destination" disabled={pending}>
      <legend className="label">After rejecting</legend>
      <label className="reject-destination-option">
        <input
          type="radio"
          name={name}
          value="return"
          checked={!reassigning}
          onChange={() => onDestination("return")}
        />
        Return to {assignee.username}
      </label>
      <label className="reject-destination-option">
        <input
          type="radio"
          name={name}
          value="reassign"
          checked={reassigning}
          onChange={() => onDestination("reassign")}
        />
        Reassign to…
      </label>
      <div ref={selectRef} className="reject-reassign-select">
        <StaffSelect
          label="Staff member"
          name="reassignTo"
          placeholder="Select a staff member"
          staff={staff.data ?? []}
          loading={staff.isPending}
          failed={staff.isError}
          excludeIds={[assignee.id]}
          value={staffId}
          disabled={!reassigning || pending}
          onChange={onStaffId}
          error={error}
        />
      </div>
    </fieldset>
  );
}

/**
 * The form of the open reject dialog: 'Reason (optional)' with a character counter, with an
 * `assignee` the 'After rejecting' choice (decision 025), 'Cancel' and 'Reject'. Mounted only
 * while the dialog is open, so each opening starts empty, returning the task to its assignee.
 */
function RejectReasonForm({
  subject,
  assignee,
  pending,
  onSubmit,
}: {
  subject: string;
  assignee?: StaffChoice | undefined;
  pending: boolean;
  /** Answers whether the rejection succeeded (the dialog then closes). */
  onSubmit(reason: string | undefined, reassignTo: string | undefined): Promise<boolean>;
}) {
  const [reason, setReason] = useState("");
  const [destination, setDestination] = useState<Destination>("return");
  const [staffId, setStaffId] = useState("");
  const [staffError, setStaffError] = useState<string | null>(null);
  const counterId = useId();
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const selectRef = useRef<HTMLDivElement>(null);
  const focusSelect = () => selectRef.current?.querySelector("select")?.focus();

  const chooseDestination = (next: Destination) => {
    setDestination(next);
    setStaffError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const reassigning = assignee !== undefined && destination === "reassign";
    if (reassigning && !staffId) {
      setStaffError(REASSIGN_STAFF_REQUIRED);
      focusSelect();
      return;
    }
    // A failed rejection (its toast says why) leaves the dialog open with the reason, for another try.
    if (!(await onSubmit(reason.trim() || undefined, reassigning ? staffId : undefined))) {
      if (reassigning) focusSelect();
      else fieldRef.current?.focus();
    }
  };

  return (
    <form className="stack reject-reason-form" onSubmit={(event) => void submit(event)}>
      <Field label="Reason (optional)" describedBy={counterId}>
        {(control) => (
          <>
            <textarea
              {...control}
              ref={fieldRef}
              className="textarea reject-reason-input"
              rows={4}
              maxLength={REVIEW_REASON_MAX_LENGTH}
              placeholder={`What should be fixed in the ${subject}?`}
              value={reason}
              readOnly={pending}
              onChange={(event) => setReason(event.target.value)}
            />
            <p id={counterId} className="reject-reason-counter">
              {NUMBER.format(reason.length)} / {NUMBER.format(REVIEW_REASON_MAX_LENGTH)} characters
            </p>
          </>
        )}
      </Field>
      {assignee && (
        <DestinationFields
          assignee={assignee}
          destination={destination}
          onDestination={chooseDestination}
          staffId={staffId}
          onStaffId={(next) => {
            setStaffId(next);
            if (next) setStaffError(null);
          }}
          error={staffError}
          pending={pending}
          selectRef={selectRef}
        />
      )}
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
 * characters) and, given the task's `assignee`, whether to 'Return to {assignee}' (the default) or
 * 'Reassign to…' another staff member (decision 025; 'Please select a staff member to reassign.'
 * under the dropdown when none is chosen, nothing sent). Its 'Reject' calls
 * `onReject(reason, reassignTo)`, which answers whether the rejection succeeded;
 * the dialog's buttons are disabled meanwhile and it closes on success, focus then going to
 * `focusAfterReject` (the Reject button is disabled once the status is Rejected). 'Cancel',
 * Escape or a click outside change nothing and return focus to the Reject button.
 */
export function RejectReasonDialog({
  subject,
  assignee,
  trigger,
  onReject,
  focusAfterReject,
}: {
  /** What is rejected, e.g. 'transcript'. */
  subject: string;
  /** The task's assignee; without it the dialog offers no 'Reassign to…' (decision 025). */
  assignee?: StaffChoice | undefined;
  trigger: ReactNode;
  onReject(reason: string | undefined, reassignTo: string | undefined): Promise<boolean>;
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

  const submit = async (reason: string | undefined, reassignTo: string | undefined) => {
    setPending(true);
    try {
      rejected.current = await onReject(reason, reassignTo);
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
          <RejectReasonForm subject={subject} assignee={assignee} pending={pending} onSubmit={submit} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
