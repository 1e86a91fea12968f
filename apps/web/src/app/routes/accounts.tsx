import { AccountsPage } from "#web/features/accounts/components/accounts-page";

/** /accounts/users (Admin, SPEC §2.10): the Accounts page. */
export function Component() {
  return <AccountsPage />;
}
