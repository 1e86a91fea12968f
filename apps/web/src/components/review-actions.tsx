import { useRef, useState, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import { AlertDialog } from "radix-ui";
import { toast } from "sonner";
import { sendsLater } from "#web/lib/connection";
import type { useTRPCClient } from "#web/lib/trpc";
import type { StaffChoice } from "./staff-select";
import "./review-actions.css";
import { RejectReasonDialog } from "./reject-reason-dialog";

export type ReviewAction = "approve" | "reject" | "remove";

/**
 * The `run` of ReviewActions for an audio's transcript or translated recording (SPEC §2.12, §2.13):
 * the `transcripts` or `recordings` procedure of the action, from the status shown.
 */
export function reviewRunOf(
  client: ReturnType<typeof useTRPCClient>,
  output: "transcripts" | "recordings",
  audioId: string,
) {
  return (action: ReviewAction, expectedStatus: string, reason?: string, reassignTo?: string) =>
    action === "reject"
      ? client[output].reject.mutate({ audioId, expectedStatus: expectedStatus as never, reason, reassignTo })
      : client[output][action].mutate({ audioId, expectedStatus: expectedStatus as never });
}

/** One review sent to the server. */
interface ReviewRequest<S extends string> {
  action: ReviewAction;
  expectedStatus: S;
  reason?: string;
  /** Decision 025: with a rejection, the staff member the task moves to. */
  reassignTo?: string;
}

/** What a review held while the connection is lost is called in its notice (decision 021). */
const HELD_NAME: Record<ReviewAction, string> = { approve: "Approval", reject: "Rejection", remove: "Deletion" };
/** The label of the button whose action is held (decision 021). */
const WAITING = "Waiting for connection…";

export interface ReviewActionsProps<S extends string> {
  /** The approval status shown; the button that would set it again is disabled. */
  status: S;
  /** What is reviewed, for the delete confirmation (e.g. 'transcript'). */
  subject: string;
  /**
   * Runs an action on the server from `expectedStatus`, the status shown (the server refuses with
   * 409 and its message when it has changed meanwhile); its answer's message is shown as a success toast.
   * `reason` comes with a rejection only, trimmed, and is left out when the Admin gave none;
   * `reassignTo` too, when the Admin chose 'Reassign to…' (decision 025).
   */
  run: (
    action: ReviewAction,
    expectedStatus: S,
    reason?: string,
    reassignTo?: string,
  ) => Promise<{ message: string; status?: string }>;
  /**
   * The task's assignee: the reject dialog then offers 'Return to {username}' (the default) or
   * 'Reassign to…' another staff member (decision 025). Left out, the dialog asks for a reason only.
   */
  assignee?: StaffChoice | null | undefined;
  /** Shows a failed action with the server's message when it gave one (the wording differs per screen, SPEC §8). */
  onFailure: (error: unknown) => void;
  /** Called after every action, successful or not (to refetch the audio's queries). */
  onSettled: () => void;
  /**
   * Decision 035: when given, Approve first asks for confirmation with this sentence (the
   * translation checks still find errors); Cancel changes nothing.
   */
  confirmApproval?: string | null;
}

/**
 * The Admin's Approve, Reject and Delete buttons (SPEC §2.12, §2.13). Each acts on the status
 * shown (sent as `expectedStatus`), so a review that another admin overtook fails with the
 * server's message instead of overwriting it. Approve is one click; Reject asks for an optional
 * reason in a dialog (RejectReasonDialog), and given the `assignee` whether to return the task to
 * them or reassign it (decision 025; the success toast, the server's message, says where it went);
 * Delete asks for confirmation in an alert dialog.
 * Buttons are disabled while an action runs; after an approval or a rejection focus is on the group.
 * Each action is a TanStack mutation: made while the connection is lost it is held, its button
 * saying 'Waiting for connection…', and sent once when it returns, its success or failure toasted
 * even if the screen was left meanwhile (decision 021).
 */
export function ReviewActions<S extends string>({
  status: shownStatus,
  subject,
  run,
  assignee,
  onFailure,
  onSettled,
  confirmApproval,
}: ReviewActionsProps<S>) {
  const groupRef = useRef<HTMLDivElement>(null);
  // The status a review answered, until the screen's own status (refetched) moves on from the one
  // it acted on: a second review made at once acts on the first one's result, not on the stale
  // status (decision 009).
  const [answered, setAnswered] = useState<{ from: S; status: S } | null>(null);
  const status = answered && answered.from === shownStatus ? answered.status : shownStatus;
  const review = useMutation({
    mutationFn: ({ action, expectedStatus, reason, reassignTo }: ReviewRequest<S>) =>
      run(action, expectedStatus, reason, reassignTo),
    onSuccess: (result, { expectedStatus }) => {
      toast.success(result.message);
      if (result.status !== undefined) setAnswered({ from: expectedStatus, status: result.status as S });
    },
    onError: (error, { action }) => {
      console.error(`Failed to ${action} the ${subject}`, error);
      onFailure(error);
    },
    onSettled: () => onSettled(),
  });
  const running = review.isPending ? (review.variables?.action ?? null) : null;
  const waiting = review.isPaused;

  /** The content of `action`'s button: a spinner while it is sent, 'Waiting for connection…' while it is held. */
  const label = (action: ReviewAction, text: string): ReactNode => {
    if (running !== action) return text;
    if (waiting) return WAITING;
    return (
      <>
        <span className="spinner" aria-hidden="true" />
        {text}
      </>
    );
  };

  /**
   * Runs `action`; answers whether it succeeded (a failure is toasted by `onFailure`), or true at
   * once when it is held until the connection returns (the rejection dialog then closes).
   */
  const perform = (action: ReviewAction, reason?: string, reassignTo?: string): Promise<boolean> =>
    new Promise((resolve) => {
      if (review.isPending) return resolve(false);
      const held = sendsLater();
      review.mutate(
        { action, expectedStatus: status, reason, reassignTo },
        { onSuccess: () => resolve(true), onError: () => resolve(false) },
      );
      if (held) {
        toast.info(`${HELD_NAME[action]} will be sent when the connection returns.`);
        resolve(true);
      }
    });

  const approve = async () => {
    await perform("approve");
    // The buttons are disabled while it runs (Approve stays so once Approved), which leaves focus on
    // the page's body, lost to keyboard and screen-reader users. Keep it here unless it moved on.
    if (!document.activeElement || document.activeElement === document.body) groupRef.current?.focus();
  };

  return (
    // Focusable from script only: focus lands here after an approval or a rejection, when the button used is disabled.
    <div ref={groupRef} className="row review-actions" role="group" aria-label="Review" tabIndex={-1}>
      {confirmApproval ? (
        <AlertDialog.Root>
          <AlertDialog.Trigger asChild>
            <button type="button" className="btn btn-success" disabled={running !== null || status === "Approved"}>
              {label("approve", "Approve")}
            </button>
          </AlertDialog.Trigger>
          <AlertDialog.Portal>
            <AlertDialog.Overlay className="dialog-overlay" />
            <AlertDialog.Content className="dialog-content">
              <AlertDialog.Title className="dialog-title">Approve the {subject}?</AlertDialog.Title>
              <AlertDialog.Description>{confirmApproval}</AlertDialog.Description>
              <div className="dialog-actions">
                <AlertDialog.Cancel asChild>
                  <button type="button" className="btn">
                    Cancel
                  </button>
                </AlertDialog.Cancel>
                <AlertDialog.Action asChild>
                  <button type="button" className="btn btn-success" onClick={() => void approve()}>
                    Approve anyway
                  </button>
                </AlertDialog.Action>
              </div>
            </AlertDialog.Content>
          </AlertDialog.Portal>
        </AlertDialog.Root>
      ) : (
        <button
          type="button"
          className="btn btn-success"
          disabled={running !== null || status === "Approved"}
          onClick={() => void approve()}
        >
          {label("approve", "Approve")}
        </button>
      )}
      <RejectReasonDialog
        subject={subject}
        assignee={assignee ?? undefined}
        onReject={(reason, reassignTo) => perform("reject", reason, reassignTo)}
        focusAfterReject={groupRef}
        trigger={
          <button type="button" className="btn btn-danger-outline" disabled={running !== null || status === "Rejected"}>
            {label("reject", "Reject")}
          </button>
        }
      />
      <AlertDialog.Root>
        <AlertDialog.Trigger asChild>
          <button type="button" className="btn btn-danger" disabled={running !== null}>
            {label("remove", "Delete")}
          </button>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="dialog-overlay" />
          <AlertDialog.Content className="dialog-content">
            <AlertDialog.Title className="dialog-title">Delete the {subject}?</AlertDialog.Title>
            <AlertDialog.Description>
              Are you sure you want to delete the {subject}? This action is not reversible !
            </AlertDialog.Description>
            <div className="dialog-actions">
              <AlertDialog.Cancel asChild>
                <button type="button" className="btn">
                  Cancel
                </button>
              </AlertDialog.Cancel>
              <AlertDialog.Action asChild>
                <button type="button" className="btn btn-danger" onClick={() => void perform("remove")}>
                  Delete
                </button>
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </div>
  );
}
