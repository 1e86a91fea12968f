import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import type { AccountUser } from "#web/lib/api-types";
import { initials } from "#web/lib/initials";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { AccountPanel } from "./account-panel";
import { EndSessionsButton } from "./end-sessions-button";
import { ResetSecondFactorButton } from "./reset-second-factor-button";

/**
 * SPEC §2.10: one user's card: initials, username, email, role and Active or Inactive in words;
 * 'Edit Profile' (the 'Edit account' panel), 'Send Email' (a mailto: link), 'Sign out everywhere'
 * for an active account (decision 012) and Activate or Deactivate after a confirmation (not
 * offered on the signed-in admin's own card).
 */
export function AccountCard({ user, isSelf }: { user: AccountUser; isSelf: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const setActive = useMutation(trpc.accounts.setActive.mutationOptions());
  const action = user.active ? "Deactivate" : "Activate";
  const headingId = `account-${user.id}-name`;

  async function confirm() {
    try {
      const { message } = await setActive.mutateAsync({ userId: user.id, active: !user.active });
      toast.success(message);
      setConfirming(false);
      await queryClient.invalidateQueries(trpc.accounts.list.pathFilter());
    } catch (error) {
      toast.error(`Failed to ${action.toLowerCase()} user account`, { description: errorMessage(error) });
    }
  }

  return (
    <li className="card account-card" aria-labelledby={headingId} data-active={user.active}>
      <div className="account-card-top">
        <span className="account-avatar" aria-hidden="true">
          {initials(user.username)}
        </span>
        <div className="account-card-who">
          <h2 id={headingId} className="account-card-name">
            {user.username}
            {isSelf ? <span className="muted"> (You)</span> : null}
          </h2>
          <p className="account-card-email">{user.email}</p>
        </div>
      </div>
      <p className="account-card-meta">
        <span className="badge">{user.role}</span>
        <span className={user.active ? "badge badge-success" : "badge badge-danger"}>
          {user.active ? "Active" : "Inactive"}
        </span>
      </p>
      <div className="account-card-actions">
        <AccountPanel
          mode="edit"
          user={user}
          open={editing}
          onOpenChange={setEditing}
          trigger={
            <button type="button" className="btn btn-sm" aria-describedby={headingId}>
              Edit Profile
            </button>
          }
        />
        <a className="btn btn-sm" href={`mailto:${user.email}`} aria-describedby={headingId}>
          Send Email
        </a>
        {user.active && <EndSessionsButton user={user} isSelf={isSelf} describedBy={headingId} />}
        {!isSelf && <ResetSecondFactorButton user={user} describedBy={headingId} />}
        {!isSelf && (
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            trigger={
              <button
                type="button"
                className={user.active ? "btn btn-sm btn-outline-danger" : "btn btn-sm btn-success"}
                aria-describedby={headingId}
              >
                {action}
              </button>
            }
            title={`${action} ${user.username}?`}
            description={
              user.active
                ? `${user.username} will be signed out and cannot sign in until the account is activated again.`
                : `${user.username} will be able to sign in again.`
            }
            confirmLabel={action}
            confirmClassName={user.active ? "btn btn-danger" : "btn btn-success"}
            pending={setActive.isPending}
            onConfirm={() => void confirm()}
          />
        )}
      </div>
    </li>
  );
}
