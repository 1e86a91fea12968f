import { useId, useLayoutEffect, type RefObject } from "react";
import { toast } from "sonner";
import { TRPCClientError } from "@trpc/client";
import { ReviewActions, type ReviewActionsProps } from "#web/components/review-actions";
import { errorMessage, isConnectionError } from "#web/lib/trpc";
import { UNEXPECTED_ERROR } from "@tafsiri/domain";

/** A review action of review mode, as ReviewActions runs it. */
export type ReviewRun = ReviewActionsProps<string>["run"];

/** SPEC §8: a refused review shows 'Error' with the server's message (a stale status's 409 among them). */
function showFailure(error: unknown): void {
  if (isConnectionError(error)) toast.error("Error", { description: errorMessage(error) });
  else if (error instanceof TRPCClientError && error.data) toast.error("Error", { description: error.message });
  else toast.error(UNEXPECTED_ERROR);
}

/**
 * One output's review buttons (ReviewActions, the audio pages' own) with review mode's keys
 * (decision 025): each button carries its aria-keyshortcuts and the keys are shown under them.
 */
export function OutputActions({
  status,
  subject,
  approveKeys,
  rejectKeys,
  run,
  assignee,
  onSettled,
  groupRef,
}: {
  status: string;
  subject: string;
  approveKeys: string;
  rejectKeys: string;
  run: ReviewRun;
  /** The task's assignee, offered as 'Return to …' in the reject dialog (or 'Reassign to…'). */
  assignee: { id: string; username: string } | null;
  onSettled: () => void;
  groupRef: RefObject<HTMLDivElement | null>;
}) {
  const hintId = useId();
  // ReviewActions' buttons are its own: the keys are set on them once they are in the page.
  useLayoutEffect(() => {
    const group = groupRef.current;
    if (!group) return;
    for (const [selector, keys] of [
      [".btn-success", approveKeys],
      [".btn-danger-outline", rejectKeys],
    ] as const) {
      const button = group.querySelector<HTMLButtonElement>(`button${selector}`);
      if (!button) continue;
      button.setAttribute("aria-keyshortcuts", keys);
      button.setAttribute("aria-describedby", hintId);
    }
  });
  return (
    <div ref={groupRef} className="stack review-mode-actions">
      <ReviewActions
        status={status}
        subject={subject}
        run={run}
        assignee={assignee}
        onFailure={showFailure}
        onSettled={onSettled}
      />
      <p id={hintId} className="review-keys">
        <kbd>{approveKeys}</kbd> approve · <kbd>{rejectKeys}</kbd> reject
      </p>
    </div>
  );
}
