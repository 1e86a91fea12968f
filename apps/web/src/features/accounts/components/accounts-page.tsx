import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { useSession } from "#web/hooks/use-session";
import { AccountCard } from "./account-card";
import { AccountPanel } from "./account-panel";
import { describeFilter, FilterMenu, type AccountFilter } from "./filter-menu";
import "#web/features/accounts/accounts.css";

/** The console's message when the accounts cannot be loaded (the page shows its own, with Retry). */
const LOAD_FAILED = { errorMessage: "Failed to load users" };

/**
 * The Accounts page (/accounts/users, Admin, SPEC §2.10): title ACCOUNTS, 'Add Account'
 * opening the 'Create new account' panel, the filter menu, and a card per user (active and
 * inactive). When there is nobody but the signed-in admin, the create panel opens by itself once.
 */
export function AccountsPage() {
  const trpc = useTRPC();
  const session = useSession();
  const [filter, setFilter] = useState<AccountFilter>({});
  const [creating, setCreating] = useState(false);
  const [autoOpened, setAutoOpened] = useState(false);
  // The same meta on both: with no filter they are one query.
  const users = useQuery({
    ...trpc.accounts.list.queryOptions(filter),
    placeholderData: keepPreviousData,
    meta: LOAD_FAILED,
  });
  const everyone = useQuery({ ...trpc.accounts.list.queryOptions({}), meta: LOAD_FAILED });
  const filtered = describeFilter(filter);

  // Once the full list is known (state adjusted while rendering, not in an effect).
  if (!autoOpened && everyone.data) {
    setAutoOpened(true);
    if (everyone.data.every((u) => u.id === session?._id)) setCreating(true);
  }

  return (
    <section className="page">
      <div className="page-header">
        <h1 className="page-title">ACCOUNTS</h1>
        <div className="row">
          <FilterMenu value={filter} onApply={setFilter} />
          <AccountPanel
            mode="create"
            open={creating}
            onOpenChange={setCreating}
            trigger={
              <button type="button" className="btn btn-primary">
                Add Account
              </button>
            }
          />
        </div>
      </div>
      {users.isPending ? (
        <p className="empty-state" role="status">
          <span className="spinner" aria-hidden="true" /> Loading accounts…
        </p>
      ) : users.isError && !users.data ? (
        <div className="empty-state" role="alert">
          <p>The accounts could not be loaded.</p>
          <button type="button" className="btn" onClick={() => void users.refetch()}>
            Retry
          </button>
        </div>
      ) : users.data.length === 0 ? (
        <p className="empty-state">{filtered ? `No ${filtered} accounts.` : "No accounts yet."}</p>
      ) : (
        <ul className="grid-cards account-list" aria-label={filtered ? `Accounts (${filtered})` : "Accounts"}>
          {users.data.map((u) => (
            <AccountCard key={u.id} user={u} isSelf={u.id === session?._id} />
          ))}
        </ul>
      )}
    </section>
  );
}
