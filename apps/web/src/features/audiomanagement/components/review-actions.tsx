import { useState } from "react";
import { AlertDialog } from "radix-ui";
import { toast } from "sonner";

export type ReviewAction = "approve" | "reject" | "remove";

export interface ReviewActionsProps<S extends string> {
  /** The approval status shown; the button that would set it again is disabled. */
  status: S;
  /** What is reviewed, for the delete confirmation (e.g. 'transcript'). */
  subject: string;
  /**
   * Runs an action on the server from `expectedStatus`, the status shown (the server refuses with
   * 409 and its message when it has changed meanwhile); its answer's message is shown as a success toast.
   */
  run: (action: ReviewAction, expectedStatus: S) => Promise<{ message: string }>;
  /** Shows a failed action with the server's message when it gave one (the wording differs per screen, SPEC §8). */
  onFailure: (error: unknown) => void;
  /** Called after every action, successful or not (to refetch the audio's queries). */
  onSettled: () => void;
}

/**
 * The Admin's Approve, Reject and Delete buttons (SPEC §2.12, §2.13). Each acts on the status
 * shown (sent as `expectedStatus`), so a review that another admin overtook fails with the
 * server's message instead of overwriting it. Delete asks for confirmation in an alert dialog.
 * Buttons are disabled while an action runs.
 */
export function ReviewActions<S extends string>({ status, subject, run, onFailure, onSettled }: ReviewActionsProps<S>) {
  const [running, setRunning] = useState<ReviewAction | null>(null);

  const perform = async (action: ReviewAction) => {
    setRunning(action);
    try {
      const result = await run(action, status);
      toast.success(result.message);
    } catch (error) {
      console.error(`Failed to ${action} the ${subject}`, error);
      onFailure(error);
    } finally {
      setRunning(null);
      onSettled();
    }
  };

  return (
    <div className="row review-actions" role="group" aria-label="Review">
      <button
        type="button"
        className="btn btn-success"
        disabled={running !== null || status === "Approved"}
        onClick={() => void perform("approve")}
      >
        {running === "approve" && <span className="spinner" aria-hidden="true" />}
        Approve
      </button>
      <button
        type="button"
        className="btn btn-danger-outline"
        disabled={running !== null || status === "Rejected"}
        onClick={() => void perform("reject")}
      >
        {running === "reject" && <span className="spinner" aria-hidden="true" />}
        Reject
      </button>
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
