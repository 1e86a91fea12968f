import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import type { AccountUser } from "#web/lib/api-types";
import { ConfirmDialog } from "#web/components/confirm-dialog";

/**
 * 'Sign out everywhere' on an account's card (decision 012), after a confirmation: every
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
      const { message } = await endSessions.mutateAsync({ userId: user.id });
      toast.success(message);
      setOpen(false);
    } catch (error) {
      toast.error("Failed to sign the user out", { description: errorMessage(error) });
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-sm" aria-describedby={describedBy}>
          Sign out everywhere
        </button>
      }
      title={`Sign ${user.username} out everywhere?`}
      description={
        isSelf
          ? "Every session of your account ends, this one included: you will have to sign in again."
          : `Every open session of ${user.username} ends at once, on every device. They can sign in again.`
      }
      confirmLabel="Sign out everywhere"
      pending={endSessions.isPending}
      onConfirm={() => void confirm()}
    />
  );
}
