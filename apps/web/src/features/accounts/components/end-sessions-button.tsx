import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { AlertDialog } from "radix-ui";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "../../../lib/trpc";
import type { AccountUser } from "../../../lib/api-types";

/**
 * Issue 9 Build 3: 'Sign out everywhere' on an account's card, after a confirmation: every
 * session of the user ends (their open tabs are signed out within seconds, their tokens refused).
 * On the admin's own card it signs the admin out too. `describedBy` names the card's heading.
 */
export function EndSessionsButton({
  user,
  isSelf,
  describedBy,
}: {
  user: AccountUser;
  isSelf: boolean;
  describedBy: string;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const endSessions = useMutation(trpc.accounts.endSessions.mutationOptions());

  async function confirm() {
    try {
      await endSessions.mutateAsync({ userId: user.id });
      toast.success(`${user.username} has been signed out everywhere.`);
      setOpen(false);
    } catch (error) {
      toast.error("Failed to sign the user out", { description: errorMessage(error) });
    }
  }

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !endSessions.isPending && setOpen(next)}>
      <AlertDialog.Trigger asChild>
        <button type="button" className="btn btn-sm" aria-describedby={describedBy}>
          Sign out everywhere
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog-content">
          <AlertDialog.Title className="dialog-title">Sign {user.username} out everywhere?</AlertDialog.Title>
          <AlertDialog.Description>
            {isSelf
              ? "Every session of your account ends, this one included: you will have to sign in again."
              : `Every open session of ${user.username} ends at once, on every device. They can sign in again.`}
          </AlertDialog.Description>
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <button type="button" className="btn" disabled={endSessions.isPending}>
                Cancel
              </button>
            </AlertDialog.Cancel>
            <button
              type="button"
              className="btn btn-danger"
              disabled={endSessions.isPending}
              onClick={() => void confirm()}
            >
              {endSessions.isPending ? <span className="spinner" aria-hidden="true" /> : null}
              Sign out everywhere
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
