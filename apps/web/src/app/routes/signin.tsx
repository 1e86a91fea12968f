import { SignInPage } from "#web/features/auth/components/sign-in-page";

/** /signin (SPEC §2.4). */
export function Component() {
  return <SignInPage />;
}
