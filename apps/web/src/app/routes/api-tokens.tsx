import { ApiTokensPage } from "#web/features/api-tokens/components/api-tokens-page";

/** /settings/tokens: the signed-in person's API tokens, and for admins everyone's (decision 036). */
export function Component() {
  return <ApiTokensPage />;
}
