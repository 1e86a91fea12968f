import { useRef, useState } from "react";
import { AlertDialog } from "radix-ui";
import { toast } from "sonner";
import { RejectReasonDialog } from "./reject-reason-dialog";

export type ReviewAction = "approve" | "reject" | "remove";

export interface ReviewActionsProps<S extends string> {
  /** The approval status shown; the button that would set it again is disabled. */
  status: S;
  /** What is reviewed, for the delete confirmation (e.g. 'transcript'). */
  subject: string;
  /**
   * Runs an action on the server from `expectedStatus`, the status shown (the server refuses with
   * 409 and its message when it has changed meanwhile); its answer's message is shown as a success toast.
   * `reason` comes with a rejection only, trimmed, and is left out when the Admin gave none.
   */
  run: (action: ReviewAction, expectedStatus: S, reason?: string) => Promise<{ message: string }>;
  /** Shows a failed action with the server's message when it gave one (the wording differs per screen, SPEC §8). */
  onFailure: (error: unknown) => void;
  /** Called after every action, successful or not (to refetch the audio's queries). */
  onSettled: () => void;
}

/**
 * The Admin's Approve, Reject and Delete buttons (SPEC §2.12, §2.13). Each acts on the status
 * shown (sent as `expectedStatus`), so a review that another admin overtook fails with the
 * server's message instead of overwriting it. Approve is one click; Reject asks for an optional
 * reason in a dialog (RejectReasonDialog); Delete asks for confirmation in an alert dialog.
 * Buttons are disabled while an action runs; after an approval or a rejection focus is on the group.
 */
export function ReviewActions<S extends string>({ status, subject, run, onFailure, onSettled }: ReviewActionsProps<S>) {
  const [running, setRunning] = useState<ReviewAction | null>(null);
  const groupRef = useRef<HTMLDivElement>(null);

  /** Runs `action`; answers whether it succeeded (a failure is toasted by `onFailure`). */
  const perform = async (action: ReviewAction, reason?: string): Promise<boolean> => {
    setRunning(action);
    try {
      const result = await run(action, status, reason);
      toast.success(result.message);
      return true;
    } catch (error) {
      console.error(`Failed to ${action} the ${subject}`, error);
      onFailure(error);
      return false;
    } finally {
      setRunning(null);
      onSettled();
    }
  };

  const approve = async () => {
    await perform("approve");
    // The buttons are disabled while it runs (Approve stays so once Approved), which leaves focus on
    // the page's body, lost to keyboard and screen-reader users. Keep it here unless it moved on.
    if (!document.activeElement || document.activeElement === document.body) groupRef.current?.focus();
  };

  return (
    // Focusable from script only: focus lands here after an approval or a rejection, when the button used is disabled.
    <div ref={groupRef} className="row review-actions" role="group" aria-label="Review" tabIndex={-1}>
      <button
        type="button"
        className="btn btn-success"
        disabled={running !== null || status === "Approved"}
        onClick={() => void approve()}
      >
        {running === "approve" && <span className="spinner" aria-hidden="true" />}
        Approve
      </button>
      <RejectReasonDialog
        subject={subject}
        onReject={(reason) => perform("reject", reason)}
        focusAfterReject={groupRef}
        trigger={
          <button type="button" className="btn btn-danger-outline" disabled={running !== null || status === "Rejected"}>
            {running === "reject" && <span className="spinner" aria-hidden="true" />}
            Reject
          </button>
        }
      />
      <AlertDialog.Root>
        <AlertDialog.Trigger asChild>
          <button type="button" className="btn btn-danger" disabled={running !== null}>
            {running === "remove" && <span className="spinner" aria-hidden="true" />}
            Delete
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
