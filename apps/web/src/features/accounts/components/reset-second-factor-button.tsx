import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, errorReason, useTRPC } from "#web/lib/trpc";
import type { AccountUser } from "#web/lib/api-types";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { REAUTH_REQUIRED } from "@tafsiri/domain";

/**
 * 'Reset second factor' on another user's account card (decision 038), after a confirmation:
 * their passkeys, authenticator app and recovery codes are removed and they are signed out
 * everywhere (a lost phone or passkey). `describedBy` names the card's heading.
 */
export function ResetSecondFactorButton({ user, describedBy }: { user: AccountUser; describedBy: string }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const reset = useMutation(trpc.sessions.resetSecondFactor.mutationOptions());

  async function confirm() {
    try {
      const { message } = await reset.mutateAsync({ userId: user.id });
      toast.success(message);
      setOpen(false);
    } catch (error) {
      // 'Confirm it's you' opens by itself for REAUTH_REQUIRED; this dialog stays for the retry.
      if (errorReason(error) !== REAUTH_REQUIRED) {
        toast.error("Failed to reset the second factor", { description: errorMessage(error) });
      }
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-sm" aria-describedby={describedBy}>
          Reset second factor
        </button>
      }
      title={`Reset ${user.username}'s second factor?`}
      description={`${user.username}'s passkeys, authenticator app and recovery codes are removed, and every session of theirs ends. They sign in with their password and add a second factor again.`}
      confirmLabel="Reset second factor"
      pending={reset.isPending}
      onConfirm={() => void confirm()}
    />
  );
}
